package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"golang.org/x/oauth2"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/codec"
	"github.com/resilientgo/resilient/runtime/oteltrace"
	"github.com/resilientgo/resilient/runtime/server"
	"github.com/resilientgo/resilient/runtime/stream"
)

var jobID = uuid.MustParse("6f1c3c8e-8a51-4a55-9d3e-1b2f0f3f6c11")

// fast makes retries quick: the spec's backoff is for a real service.
var fast = WithPolicy(func(p *Policy) {
	for _, op := range []*runtime.OperationPolicy{&p.CreateJob, &p.DeleteJob, &p.GetJob, &p.GetArtifact,
		&p.PutArtifact, &p.AddAttachment, &p.WatchJob, &p.TailLog, &p.CreateToken} {
		op.Retry.Base, op.Retry.Cap = time.Millisecond, time.Millisecond
	}
})

// creds gives the client a credential of every scheme, each telling
// itself apart.
var creds = []Option{
	WithBearerToken(func(context.Context) (string, error) { return "bearer-1", nil }),
	WithBasicAuth(func(context.Context) (string, string, error) { return "ann", "secret", nil }),
	WithAPIKey(func(context.Context) (string, error) { return "key-1", nil }),
	WithAPIKeyAppID(func(context.Context) (string, error) { return "app-1", nil }),
	WithAPIKeySession(func(context.Context) (string, error) { return "sess-1", nil }),
	WithOpenIDConnect(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "oidc-1"})),
}

// credentialsOf names the credentials a request carries.
func credentialsOf(r *http.Request) string {
	var out []string
	if v := r.Header.Get("Authorization"); v != "" {
		out = append(out, v)
	}
	if v := r.Header.Get("X-API-Key"); v != "" {
		out = append(out, "key "+v)
	}
	if v := r.URL.Query().Get("app_id"); v != "" {
		out = append(out, "app "+v)
	}
	if c, err := r.Cookie("SESSION"); err == nil {
		out = append(out, "session "+c.Value)
	}
	return strings.Join(out, ", ")
}

// serve starts h and returns a client of it with every credential.
func serve(t *testing.T, h http.HandlerFunc, opts ...Option) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL, append(append([]Option{fast}, creds...), opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

// log records what the server saw, safe for concurrent handlers.
type log struct {
	mu   sync.Mutex
	seen []string
}

func (l *log) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = append(l.seen, s)
}

func (l *log) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

const jobJSON = `{"id":"6f1c3c8e-8a51-4a55-9d3e-1b2f0f3f6c11","name":"build","due":"2026-12-24",` +
	`"created_at":"2026-12-01T10:00:00Z","note":null,"owner":null,"size":5000000000,"attempts":3,"checksum":"aGk="}`

// TestTypedResultPerStatus: each documented status fills its own field,
// with the answer's status, header and typed documented headers.
func TestTypedResultPerStatus(t *testing.T) {
	var n atomic.Int32
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && n.Add(1) == 1:
			w.Header().Set("Location", "/jobs/"+jobID.String())
			w.WriteHeader(http.StatusCreated)
			io.WriteString(w, jobJSON)
		case r.Method == http.MethodPost:
			w.WriteHeader(http.StatusAccepted)
			io.WriteString(w, `{"ticket":"0b6e2e9a-3c0e-4c4e-8f4e-2a9a4f3b7c21","position":4}`)
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		case r.Header.Get("If-None-Match") == `"v7"`:
			w.Header().Set("ETag", `"v7"`)
			w.WriteHeader(http.StatusNotModified)
		default:
			w.Header().Set("ETag", `"v7"`)
			w.Header().Set("X-Rate-Limit-Remaining", "41")
			w.Header().Set("X-Expires", "2026-12-02T10:00:00Z")
			io.WriteString(w, jobJSON)
		}
	})
	ctx := context.Background()

	created, err := c.CreateJob(ctx, nil, NewJob{Name: "build"})
	if err != nil {
		t.Fatalf("CreateJob: %v", err)
	}
	if created.Status != http.StatusCreated || created.Created == nil || created.Accepted != nil || created.Location != "/jobs/"+jobID.String() {
		t.Errorf("CreateJob = %+v, want a 201 with the Job and its Location", created)
	}
	queued, err := c.CreateJob(ctx, nil, NewJob{Name: "build"})
	if err != nil {
		t.Fatalf("CreateJob: %v", err)
	}
	if queued.Status != http.StatusAccepted || queued.Accepted == nil || queued.Created != nil || queued.Accepted.Position == nil || *queued.Accepted.Position != 4 {
		t.Errorf("CreateJob = %+v, want a 202 with the Ticket", queued)
	}

	got, err := c.GetJob(ctx, jobID, nil)
	if err != nil {
		t.Fatalf("GetJob: %v", err)
	}
	if got.Status != http.StatusOK || got.OK == nil || got.ETag != `"v7"` {
		t.Fatalf("GetJob = %+v, want a 200 with the job and its ETag", got)
	}
	if got.XRateLimitRemaining == nil || *got.XRateLimitRemaining != 41 {
		t.Errorf("XRateLimitRemaining = %v, want 41", got.XRateLimitRemaining)
	}
	if got.XExpires == nil || !got.XExpires.Equal(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("XExpires = %v", got.XExpires)
	}
	if got.Header.Get("Content-Type") == "" {
		t.Error("the result's Header lacks the answer's Content-Type")
	}

	etag := `"v7"`
	same, err := c.GetJob(ctx, jobID, &GetJobParams{IfNoneMatch: &etag})
	if err != nil {
		t.Fatalf("GetJob(If-None-Match): %v", err)
	}
	if same.Status != http.StatusNotModified || same.OK != nil || same.ETag != `"v7"` {
		t.Errorf("GetJob(If-None-Match) = %+v, want a 304 with the ETag and no body", same)
	}
	if err := c.DeleteJob(ctx, jobID); err != nil {
		t.Errorf("DeleteJob: %v", err)
	}
}

// TestMalformedHeader: a documented header that does not parse fails the
// call with a *codec.HeaderError, not retried.
func TestMalformedHeader(t *testing.T) {
	var n atomic.Int32
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("X-Rate-Limit-Remaining", "many")
		io.WriteString(w, jobJSON)
	})
	_, err := c.GetJob(context.Background(), jobID, nil)
	var he *codec.HeaderError
	if !errors.As(err, &he) || he.Field != "X-Rate-Limit-Remaining" {
		t.Fatalf("GetJob error = %v, want a *HeaderError for X-Rate-Limit-Remaining", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("server saw %d requests, want 1", got)
	}
}

// TestStreamHeaders: the documented headers of a streamed answer are
// typed fields of its result, beside the stream; one that does not parse,
// or a required one absent, fails the call with a *codec.HeaderError,
// not retried, and the stream's bulkhead permit goes back.
func TestStreamHeaders(t *testing.T) {
	var n atomic.Int32
	var remaining, start atomic.Value
	remaining.Store("41")
	start.Store("7")
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if strings.HasSuffix(r.URL.Path, "/log") {
			if v := start.Load().(string); v != "" {
				w.Header().Set("X-Log-Start", v)
			}
			w.Header().Set("Content-Type", "application/x-ndjson")
			io.WriteString(w, `{"n":7,"text":"seventh"}`+"\n")
			return
		}
		w.Header().Set("X-Rate-Limit-Remaining", remaining.Load().(string))
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"state\":\"running\"}\n\n")
	}, WithPolicy(func(p *Policy) { p.Dependency.Bulkhead.MaxConcurrent = 1 }))
	ctx := context.Background()

	events, err := c.WatchJob(ctx, jobID)
	if err != nil {
		t.Fatalf("WatchJob: %v", err)
	}
	if events.Status != http.StatusOK || events.XRateLimitRemaining == nil || *events.XRateLimitRemaining != 41 ||
		events.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("WatchJob's result: status %d, X-Rate-Limit-Remaining %v, header %v", events.Status, events.XRateLimitRemaining, events.Header)
	}
	if !events.Next() || events.Current().Data.State != "running" {
		t.Errorf("first event = %+v, %v", events.Current(), events.Err())
	}
	events.Close()

	lines, err := c.TailLog(ctx, jobID)
	if err != nil {
		t.Fatalf("TailLog: %v", err)
	}
	if lines.XLogStart == nil || *lines.XLogStart != 7 {
		t.Errorf("TailLog's X-Log-Start = %v, want 7", lines.XLogStart)
	}
	for line, err := range lines.All() {
		if err != nil || line.Text != "seventh" {
			t.Errorf("line = %+v, %v", line, err)
		}
	}

	remaining.Store("many")
	start.Store("")
	n.Store(0)
	for _, call := range []struct {
		name, field string
		do          func() error
	}{
		{"WatchJob", "X-Rate-Limit-Remaining", func() error { _, err := c.WatchJob(ctx, jobID); return err }},
		{"TailLog", "X-Log-Start", func() error { _, err := c.TailLog(ctx, jobID); return err }},
	} {
		err := call.do()
		var he *codec.HeaderError
		if !errors.As(err, &he) || he.Field != call.field {
			t.Errorf("%s error = %v, want a *HeaderError for %s", call.name, err, call.field)
		}
	}
	if got := n.Load(); got != 2 {
		t.Errorf("server saw %d requests, want 2: a header error is not retried", got)
	}
	// The bulkhead has one permit: had a failed call kept its stream open,
	// this one would be refused.
	remaining.Store("3")
	events, err = c.WatchJob(ctx, jobID)
	if err != nil {
		t.Fatalf("WatchJob after the header errors: %v", err)
	}
	events.Close()
}

// TestResponseInfo: a method that returns only its body tells the
// answer's status and header through WithResponseInfo.
func TestResponseInfo(t *testing.T) {
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "r-1")
		io.WriteString(w, `{"access_token":"t"}`)
	})
	var info runtime.ResponseInfo
	tok, err := c.CreateToken(context.Background(), TokenRequest{GrantType: TokenRequestGrantTypeClientCredentials}, runtime.WithResponseInfo(&info))
	if err != nil || tok.AccessToken != "t" {
		t.Fatalf("CreateToken = %+v, %v", tok, err)
	}
	if info.Status != http.StatusOK || info.Header.Get("X-Request-Id") != "r-1" {
		t.Errorf("ResponseInfo = %d %v, want 200 with X-Request-Id", info.Status, info.Header)
	}
}

// TestRealTypes: formats decode into their Go types, and absent, null and
// set stay apart.
func TestRealTypes(t *testing.T) {
	c := serve(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, jobJSON) })
	got, err := c.GetJob(context.Background(), jobID, nil)
	if err != nil {
		t.Fatalf("GetJob: %v", err)
	}
	j := got.OK
	if j.ID != jobID {
		t.Errorf("ID = %v, want %v", j.ID, jobID)
	}
	if j.Due == nil || *j.Due != (codec.Date{Year: 2026, Month: time.December, Day: 24}) {
		t.Errorf("Due = %v, want 2026-12-24", j.Due)
	}
	if !j.CreatedAt.Equal(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("CreatedAt = %v", j.CreatedAt)
	}
	if !j.Note.IsNull() || j.Priority.IsSet() {
		t.Errorf("Note null %t, Priority set %t; want a null note and an absent priority", j.Note.IsNull(), j.Priority.IsSet())
	}
	if j.Owner != nil {
		t.Errorf("Owner = %q, want nil for null", *j.Owner)
	}
	if j.Size == nil || *j.Size != 5000000000 || j.Attempts == nil || *j.Attempts != 3 || string(j.Checksum) != "hi" {
		t.Errorf("Size %v, Attempts %v, Checksum %q", j.Size, j.Attempts, j.Checksum)
	}
}

// TestFormBody: the typed form is encoded as its encoding object says:
// arrays exploded or joined, an object exploded into its properties or
// joined with its names.
func TestFormBody(t *testing.T) {
	var got string
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Content-Type") + " " + credentialsOf(r) + "|"
		if err := r.ParseForm(); err == nil {
			got += fmt.Sprint(r.PostForm["grant_type"], r.PostForm["scope"], r.PostForm["audience"], r.PostForm["resource"],
				r.PostForm["client_id"], r.PostForm["client_version"], r.PostForm["claims"])
		}
		io.WriteString(w, `{"access_token":"t"}`)
	})
	scope, id, version := "jobs", "cli", 3
	_, err := c.CreateToken(context.Background(), TokenRequest{
		GrantType: TokenRequestGrantTypeRefreshToken, Scope: &scope,
		Audience: []string{"a", "b"}, Resource: []string{"x", "y"},
		Client: &TokenRequestClient{ClientID: &id, ClientVersion: &version}, // style form, exploded
		Claims: map[string]string{"team": "ops", "env": "prod"},             // style form, not exploded
	})
	if err != nil {
		t.Fatalf("CreateToken: %v", err)
	}
	// security: [] sends no credential.
	if want := "application/x-www-form-urlencoded |[refresh_token] [jobs] [a b] [x,y] [cli] [3] [env,prod,team,ops]"; got != want {
		t.Errorf("server saw %q, want %q", got, want)
	}
}

// TestMultipartBody: the typed upload is sent part by part, the file with
// its encoding's content type and declared part header, another with its
// own content type, an object as JSON; a file held in a bytes.Reader is sent
// again on a retry, a one-shot reader gets one attempt.
func TestMultipartBody(t *testing.T) {
	var (
		n     atomic.Int32
		parts log
	)
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		mr, err := r.MultipartReader()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			data, _ := io.ReadAll(p)
			line := p.FormName() + " " + p.FileName() + " " + p.Header.Get("Content-Type") + " " + string(data)
			if sum := p.Header.Get("X-Checksum"); sum != "" {
				line += " X-Checksum: " + sum
			}
			parts.add(line)
		}
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"id":"0b6e2e9a-3c0e-4c4e-8f4e-2a9a4f3b7c21","size":3}`)
	})
	note := "first"
	att, err := c.AddAttachment(context.Background(), jobID, Upload{
		File:          codec.File{Name: "a.png", Body: bytes.NewReader([]byte("png"))},
		FileXChecksum: "4e1f",
		Thumbnail:     codec.File{Name: "a.jpg", ContentType: "image/jpeg", Body: strings.NewReader("jpg")},
		Note:          &note,
		Labels:        []string{"x", "y"},
		Meta:          &UploadMeta{Source: &note},
	})
	if err != nil || att.Size != 3 {
		t.Fatalf("AddAttachment = %+v, %v", att, err)
	}
	want := []string{
		"file a.png image/png png X-Checksum: 4e1f", // the encoding's content type and declared header
		"thumbnail a.jpg image/jpeg jpg",            // the File's own content type
		"note   first",                              // a text part: no Content-Type, text/plain by default
		"labels   x",
		"labels   y",
		`meta  application/json {"source":"first"}`,
	}
	if got := parts.all(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("parts after the retry:\n got %q\nwant %q", got, want)
	}
	if got := n.Load(); got != 2 {
		t.Errorf("server saw %d requests, want 2 (a bytes.Reader file is replayed)", got)
	}

	n.Store(0)
	_, err = c.AddAttachment(context.Background(), jobID, Upload{File: codec.File{Name: "b.png", Body: io.MultiReader(strings.NewReader("png"))}})
	var re *runtime.RemoteError
	if !errors.As(err, &re) || re.Status != http.StatusServiceUnavailable {
		t.Errorf("AddAttachment with a one-shot file = %v, want the 503", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("server saw %d requests, want 1 (a one-shot body is not retried)", got)
	}
}

// TestBinaryBodyAndDownload: an io.ReadSeeker body is replayed on a retry,
// a one-shot one is sent once; a download is an io.ReadCloser.
func TestBinaryBodyAndDownload(t *testing.T) {
	var (
		n    atomic.Int32
		seen log
	)
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		seen.add(r.Method + " " + string(data) + " " + credentialsOf(r))
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("ETag", `"a1"`)
			w.Header().Set("X-Checksum-SHA256", "9f86d0")
			io.WriteString(w, "artifact bytes")
			return
		}
		if n.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	ctx := context.Background()
	if err := c.PutArtifact(ctx, jobID, strings.NewReader("output")); err != nil {
		t.Fatalf("PutArtifact: %v", err)
	}
	n.Store(0)
	pr, pw := io.Pipe()
	go func() { pw.Write([]byte("piped")); pw.Close() }()
	if err := c.PutArtifact(ctx, jobID, pr); err == nil {
		t.Error("PutArtifact with a one-shot reader succeeded, want the 503 (no retry)")
	}
	var info runtime.ResponseInfo
	body, err := c.GetArtifact(ctx, jobID, runtime.WithResponseInfo(&info))
	if err != nil {
		t.Fatalf("GetArtifact: %v", err)
	}
	data, err := io.ReadAll(body)
	body.Close()
	if err != nil || string(data) != "artifact bytes" {
		t.Errorf("GetArtifact's body = %q, %v", data, err)
	}
	if info.Status != http.StatusOK || info.Header.Get("Content-Type") != "application/octet-stream" {
		t.Errorf("ResponseInfo = %d %v", info.Status, info.Header)
	}
	if body.Status != http.StatusOK || body.ETag != `"a1"` || body.XChecksumSha256 != "9f86d0" {
		t.Errorf("GetArtifact's documented headers: status %d, ETag %q, X-Checksum-SHA256 %q", body.Status, body.ETag, body.XChecksumSha256)
	}
	want := []string{
		"PUT output Bearer bearer-1",
		"PUT output Bearer bearer-1",
		"PUT piped Bearer bearer-1",
		"GET  Bearer oidc-1",
	}
	if got := seen.all(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("server saw\n %q\nwant\n %q", got, want)
	}
}

// TestEventsArriveIncrementally: the first event reaches the caller while
// the server still holds the last one back.
func TestEventsArriveIncrementally(t *testing.T) {
	release := make(chan struct{})
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: progress\ndata: {\"state\":\"running\",\"progress\":50}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, "event: done\ndata: {\"state\":\"done\",\"progress\":100}\n\n")
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := c.WatchJob(ctx, jobID)
	if err != nil {
		t.Fatalf("WatchJob: %v", err)
	}
	defer s.Close()
	if !s.Next() {
		t.Fatalf("no first event: %v", s.Err())
	}
	first := s.Current()
	if first.Type != "progress" || first.Data.State != "running" || *first.Data.Progress != 50 {
		t.Errorf("first event = %+v", first)
	}
	close(release) // only now does the server send the last event
	if !s.Next() || s.Current().Data.State != "done" {
		t.Fatalf("second event = %+v, %v", s.Current(), s.Err())
	}
	if s.Next() || s.Err() != nil {
		t.Errorf("after the last event: Next true or Err %v", s.Err())
	}
	if s.Response().StatusCode != http.StatusOK {
		t.Errorf("stream status %d", s.Response().StatusCode)
	}
}

// TestStreamNotRetriedAfterFirstByte: a stream cut after its first line
// ends with a *stream.Error, and the request is not sent again,
// though the operation is read-only and may be retried.
func TestStreamNotRetriedAfterFirstByte(t *testing.T) {
	var n atomic.Int32
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			// A failure before the header: retried.
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Header().Set("X-Log-Start", "1")
		io.WriteString(w, `{"n":1,"text":"started"}`+"\n")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // cut the connection mid-stream
	})
	s, err := c.TailLog(context.Background(), jobID)
	if err != nil {
		t.Fatalf("TailLog: %v", err)
	}
	defer s.Close()
	var lines []string
	var streamErr error
	for line, err := range s.All() {
		if err != nil {
			streamErr = err
			break
		}
		lines = append(lines, line.Text)
	}
	if fmt.Sprint(lines) != "[started]" {
		t.Errorf("lines = %q, want [started]", lines)
	}
	var se *stream.Error
	if !errors.As(streamErr, &se) {
		t.Errorf("stream error = %v, want a *stream.Error", streamErr)
	}
	if got := n.Load(); got != 2 {
		t.Errorf("server saw %d requests, want 2: one retry before the header, none after the first byte", got)
	}
}

// TestCredentialsPerOperation: each operation sends the credential its
// requirement names, on every attempt, and none where it needs none.
func TestCredentialsPerOperation(t *testing.T) {
	var (
		seen log
		n    atomic.Int32
	)
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		seen.add(r.Method + " " + r.URL.Path + " " + credentialsOf(r))
		switch {
		case r.Method == http.MethodGet && n.Add(1) == 1:
			w.WriteHeader(http.StatusServiceUnavailable)
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		case r.Method == http.MethodPost && r.URL.Path == "/jobs":
			w.Header().Set("Location", "/jobs/1")
			w.WriteHeader(http.StatusCreated)
			io.WriteString(w, jobJSON)
		case r.URL.Path == "/tokens":
			io.WriteString(w, `{"access_token":"t"}`)
		default:
			io.WriteString(w, jobJSON)
		}
	})
	ctx := context.Background()
	if _, err := c.GetJob(ctx, jobID, nil); err != nil {
		t.Fatalf("GetJob: %v", err)
	}
	if err := c.DeleteJob(ctx, jobID); err != nil {
		t.Fatalf("DeleteJob: %v", err)
	}
	if _, err := c.CreateJob(ctx, nil, NewJob{Name: "x"}); err != nil {
		t.Fatalf("CreateJob: %v", err)
	}
	if _, err := c.CreateToken(ctx, TokenRequest{GrantType: TokenRequestGrantTypeClientCredentials}); err != nil {
		t.Fatalf("CreateToken: %v", err)
	}
	want := []string{
		"GET /jobs/" + jobID.String() + " Bearer bearer-1",
		"GET /jobs/" + jobID.String() + " Bearer bearer-1",
		"DELETE /jobs/" + jobID.String() + " Basic YW5uOnNlY3JldA==, session sess-1",
		"POST /jobs key key-1, app app-1",
		"POST /tokens ",
	}
	if got := seen.all(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("server saw\n %q\nwant\n %q", got, want)
	}

	bare, err := NewClient(ServerProduction, fast)
	if err != nil {
		t.Fatal(err)
	}
	var missing *runtime.MissingCredentialError
	if _, err := bare.GetJob(ctx, jobID, nil); !errors.As(err, &missing) {
		t.Errorf("GetJob without a bearer token = %v, want a *MissingCredentialError", err)
	}
}

// TestNoCredentialAcrossOrigins: a redirect to another origin is not
// followed, so the other host never sees the bearer token.
func TestNoCredentialAcrossOrigins(t *testing.T) {
	var stolen atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stolen.Add(1)
		io.WriteString(w, jobJSON)
	}))
	defer other.Close()
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	})
	_, err := c.GetJob(context.Background(), jobID, nil)
	var re *runtime.RemoteError
	if !errors.As(err, &re) || re.Status != http.StatusFound {
		t.Errorf("GetJob = %v, want the unfollowed 302", err)
	}
	if n := stolen.Load(); n != 0 {
		t.Errorf("the other origin saw %d requests, want none", n)
	}
}

// TestServers: the spec's servers are constants and checked functions.
func TestServers(t *testing.T) {
	if u, err := ServerRegional("us", "v2"); err != nil || u != "https://us.jobs.example.com/v2" {
		t.Errorf("ServerRegional(us, v2) = %q, %v", u, err)
	}
	if _, err := ServerRegional("mars", "v1"); err == nil {
		t.Error("ServerRegional(mars) did not fail")
	}
	if ServerProduction != "https://jobs.example.com/v1" || ServerRegionalDefault != "https://eu.jobs.example.com/v1" {
		t.Errorf("servers %q %q", ServerProduction, ServerRegionalDefault)
	}
}

// TestSpans: with WithTracer, a call retried once records a call span,
// two attempt spans under it and an HTTP client span under each attempt
// (the default transport is wrapped with otelhttp), and the server
// receives the call's trace context on both attempts.
func TestSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	tracer, err := oteltrace.New(tp, oteltrace.WithPropagator(propagation.TraceContext{}))
	if err != nil {
		t.Fatal(err)
	}
	var (
		n       atomic.Int32
		parents log
	)
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		parents.add(r.Header.Get("Traceparent"))
		if n.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, jobJSON)
	}, WithTracer(tracer))
	if _, err := c.GetJob(context.Background(), jobID, nil); err != nil {
		t.Fatalf("GetJob: %v", err)
	}
	var calls, attempts, clients []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		switch {
		case s.SpanKind() == trace.SpanKindClient:
			clients = append(clients, s)
		case strings.HasSuffix(s.Name(), "GetJob attempt"):
			attempts = append(attempts, s)
		case strings.HasSuffix(s.Name(), "GetJob"):
			calls = append(calls, s)
		}
	}
	if len(calls) != 1 || len(attempts) != 2 || len(clients) != 2 {
		t.Fatalf("%d call, %d attempt and %d client spans, want 1, 2 and 2", len(calls), len(attempts), len(clients))
	}
	for i, a := range attempts {
		if a.Parent().SpanID() != calls[0].SpanContext().SpanID() {
			t.Errorf("attempt span %d is not under the call span", i+1)
		}
		if clients[i].Parent().SpanID() != a.SpanContext().SpanID() {
			t.Errorf("client span %d is not under attempt span %d", i+1, i+1)
		}
	}
	traceID := calls[0].SpanContext().TraceID().String()
	for i, p := range parents.all() {
		if !strings.Contains(p, traceID) {
			t.Errorf("attempt %d's traceparent %q is not in the call's trace %s", i+1, p, traceID)
		}
	}
}

// TestRouteTransportStreamNotCutByAttemptTimeout: through the generated
// route table, a streamed route tells the server the caller's remaining
// time rather than the attempt's, so a server behind
// server.DeadlineMiddleware keeps the stream open past the attempt
// timeout, while a plain route's request is bounded by it.
func TestRouteTransportStreamNotCutByAttemptTimeout(t *testing.T) {
	const attempt = 20 * time.Millisecond
	var (
		release = make(chan struct{})
		seen    log
	)
	h := func(w http.ResponseWriter, r *http.Request) {
		deadline, ok := r.Context().Deadline()
		if !ok {
			seen.add(r.URL.Path + ": no deadline")
		} else if time.Until(deadline) > attempt {
			seen.add(r.URL.Path + ": beyond the attempt timeout")
		} else {
			seen.add(r.URL.Path + ": within the attempt timeout")
		}
		if !strings.HasSuffix(r.URL.Path, "/events") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, jobJSON)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"state\":\"running\"}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
			seen.add("events: cut by the server's deadline")
			return
		}
		io.WriteString(w, "data: {\"state\":\"done\"}\n\n")
	}
	srv := httptest.NewServer(server.DeadlineMiddleware(http.HandlerFunc(h)))
	t.Cleanup(srv.Close)
	rt, err := NewRouteTransport(srv.URL+"/v1", nil, WithPolicy(func(p *Policy) {
		p.WatchJob.AttemptTimeout, p.GetJob.AttemptTimeout = attempt, attempt
	}))
	if err != nil {
		t.Fatalf("NewRouteTransport: %v", err)
	}
	client := &http.Client{Transport: rt}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	get := func(path string) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/v1/jobs/"+jobID.String()+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		return resp
	}
	resp := get("")
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()

	resp = get("/events")
	defer resp.Body.Close()
	buf := make([]byte, len("data: {\"state\":\"running\"}\n\n"))
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatalf("first event: %v", err)
	}
	time.Sleep(5 * attempt) // the stream outlives the attempt timeout
	close(release)
	rest, err := io.ReadAll(resp.Body)
	if err != nil || !strings.Contains(string(rest), `"done"`) {
		t.Errorf("rest of the stream = %q, %v; want the last event", rest, err)
	}
	want := []string{
		"/v1/jobs/" + jobID.String() + ": within the attempt timeout",
		"/v1/jobs/" + jobID.String() + "/events: beyond the attempt timeout",
	}
	if got := seen.all(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("server saw %q, want %q", got, want)
	}
}

// TestNestedFormBody: a form body that nests objects, maps, arrays of
// objects and unions, as Stripe's do, is a typed struct encoded in
// deepObject brackets; a union whose JSON does not parse fails the call
// before anything is sent.
func TestNestedFormBody(t *testing.T) {
	var (
		got  url.Values
		sent atomic.Int32
	)
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got = r.PostForm
		io.WriteString(w, `{"id":"sub_1"}`)
	})
	var addr CreateSubscriptionRequestAddress
	city := "Lyon"
	if err := addr.FromCreateSubscriptionRequestAddressVariant0(CreateSubscriptionRequestAddressVariant0{City: &city}); err != nil {
		t.Fatal(err)
	}
	two, days := 2, 14
	pause := CreateSubscriptionRequestTrialEndBehaviorMissingPaymentMethodPause
	sub, err := c.CreateSubscription(context.Background(), CreateSubscriptionRequest{
		Customer: "cus_1",
		Expand:   []string{"customer", "items"},
		Items: []CreateSubscriptionRequestItemsItem{
			{Price: "price_a", Quantity: &two, TaxRates: []string{"txr_1", "txr_2"}},
			{Price: "price_b"},
		},
		Metadata: map[string]string{"team": "billing", "env": "prod"},
		Address:  &addr,
		Trial:    &CreateSubscriptionRequestTrial{Days: &days, EndBehavior: &CreateSubscriptionRequestTrialEndBehavior{MissingPaymentMethod: &pause}},
		Note:     codec.NewNullable("first"),
	})
	if err != nil || sub.ID != "sub_1" {
		t.Fatalf("CreateSubscription = %+v, %v", sub, err)
	}
	want := url.Values{
		"customer":              {"cus_1"},
		"expand[]":              {"customer", "items"},
		"items[0][price]":       {"price_a"},
		"items[0][quantity]":    {"2"},
		"items[0][tax_rates][]": {"txr_1", "txr_2"},
		"items[1][price]":       {"price_b"},
		"metadata[env]":         {"prod"},
		"metadata[team]":        {"billing"},
		"address[city]":         {"Lyon"},
		"trial[days]":           {"14"},
		"trial[end_behavior][missing_payment_method]": {"pause"},
		"note": {"first"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("form sent:\n got %v\nwant %v", got, want)
	}

	// "" clears the address, as Stripe reads it.
	var clear CreateSubscriptionRequestAddress
	if err := clear.FromCreateSubscriptionRequestAddressVariant1(CreateSubscriptionRequestAddressVariant1Empty); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateSubscription(context.Background(), CreateSubscriptionRequest{Customer: "cus_1", Address: &clear}); err != nil {
		t.Fatal(err)
	}
	if v, ok := got["address"]; !ok || fmt.Sprint(v) != "[]" {
		t.Errorf("cleared address sent as %q (present %v), want address=", v, ok)
	}

	var bad CreateSubscriptionRequestAddress
	bad.UnmarshalJSON([]byte(`{"city":`))
	sent.Store(0)
	_, err = c.CreateSubscription(context.Background(), CreateSubscriptionRequest{Customer: "cus_1", Address: &bad})
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.End != runtime.EndInvalidRequest || sent.Load() != 0 {
		t.Errorf("an address that does not parse: %v, %d sent; want an invalid request, nothing sent", err, sent.Load())
	}
}
