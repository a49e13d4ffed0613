package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/resilientgo/resilient/runtime"
)

// recorder is a vault that records the credentials of every request,
// answers 503 to the first failFirst requests of each path, then 200 with
// a secret, and can be taken down.
type recorder struct {
	mu        sync.Mutex
	seen      []string
	failFirst int
	failed    map[string]int
	down      atomic.Bool
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var creds []string
	if v := req.Header.Get("Authorization"); v != "" {
		creds = append(creds, "authorization="+v)
	}
	if v := req.Header.Get("X-API-Key"); v != "" {
		creds = append(creds, "x-api-key="+v)
	}
	if v := req.URL.Query().Get("app_id"); v != "" {
		creds = append(creds, "app_id="+v)
	}
	if c, err := req.Cookie("SESSION"); err == nil {
		creds = append(creds, "session="+c.Value)
	}
	r.mu.Lock()
	r.seen = append(r.seen, req.Method+" "+req.URL.Path+" "+strings.Join(creds, " "))
	if r.failed == nil {
		r.failed = map[string]int{}
	}
	fail := r.failed[req.URL.Path] < r.failFirst
	r.failed[req.URL.Path]++
	r.mu.Unlock()
	if fail || r.down.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	switch {
	case req.Method == http.MethodPut, req.URL.Path == "/health":
		w.WriteHeader(http.StatusNoContent)
	case req.URL.Path == "/audit":
		json.NewEncoder(w).Encode([]string{"opened"})
	default:
		json.NewEncoder(w).Encode(Secret{Name: "for " + strings.Join(creds, " ")})
	}
}

func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

// fast makes retries quick: the policy's backoff is for real dependencies.
var fast = WithPolicy(func(p *Policy) {
	for _, op := range []*runtime.OperationPolicy{&p.GetAudit, &p.GetHealth, &p.GetMe, &p.GetSecret, &p.PutSecret} {
		op.Retry.Base, op.Retry.Cap = time.Millisecond, time.Millisecond
	}
})

// counter gives "name-1", "name-2"... one a call.
func counter(name string) func(context.Context) (string, error) {
	var n atomic.Int64
	return func(context.Context) (string, error) { return fmt.Sprintf("%s-%d", name, n.Add(1)), nil }
}

// tokens is an oauth2.TokenSource that gives a new token on every call,
// as a source refreshing on each attempt would.
type tokens struct{ n atomic.Int64 }

func (s *tokens) Token() (*oauth2.Token, error) {
	return &oauth2.Token{AccessToken: fmt.Sprintf("oauth-%d", s.n.Add(1)), TokenType: "bearer"}, nil
}

// TestCredentialsPerOperation: each operation sends the credentials of its
// requirement, chosen among its alternatives, read afresh on every
// attempt (every request answered 503 once, then retried), and nothing on
// an operation with security: [].
func TestCredentialsPerOperation(t *testing.T) {
	tests := []struct {
		name string
		opts []Option
		call func(*Client) error
		want []string
	}{
		{"no credential on security: []", []Option{WithBearerToken(counter("bearer")), WithAPIKey(counter("key"))},
			func(c *Client) error { return c.GetHealth(t.Context()) },
			[]string{"GET /health ", "GET /health "}},
		{"the document's bearer token, refreshed per attempt", []Option{WithBearerToken(counter("bearer"))},
			func(c *Client) error { _, err := c.GetMe(t.Context()); return err },
			// The first token is read for the cached fallback's key.
			[]string{"GET /me authorization=Bearer bearer-2", "GET /me authorization=Bearer bearer-3"}},
		{"OAuth 2.0 first", []Option{WithOAuth2(&tokens{}), WithAPIKey(counter("key")), WithAPIKeyAppID(counter("app"))},
			func(c *Client) error { _, err := c.GetSecret(t.Context(), "s"); return err },
			[]string{"GET /secrets/s authorization=Bearer oauth-1", "GET /secrets/s authorization=Bearer oauth-2"}},
		{"else an API key with the application's id", []Option{WithAPIKey(counter("key")), WithAPIKeyAppID(counter("app"))},
			func(c *Client) error { _, err := c.GetSecret(t.Context(), "s"); return err },
			[]string{"GET /secrets/s x-api-key=key-1 app_id=app-1", "GET /secrets/s x-api-key=key-2 app_id=app-2"}},
		{"basic and a session cookie together", []Option{WithBasicAuth(func(context.Context) (string, string, error) { return "ann", "pw", nil }),
			WithAPIKeySession(counter("sid")), WithBearerToken(counter("bearer"))},
			func(c *Client) error { return c.PutSecret(t.Context(), "s", Secret{Name: "s"}) },
			[]string{"PUT /secrets/s authorization=Basic YW5uOnB3 session=sid-1", "PUT /secrets/s authorization=Basic YW5uOnB3 session=sid-2"}},
		{"OpenID Connect when given", []Option{WithOpenIDConnect(&tokens{})},
			func(c *Client) error { _, err := c.GetAudit(t.Context()); return err },
			[]string{"GET /audit authorization=Bearer oauth-1", "GET /audit authorization=Bearer oauth-2"}},
		{"anonymous otherwise", nil,
			func(c *Client) error { _, err := c.GetAudit(t.Context()); return err },
			[]string{"GET /audit ", "GET /audit "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{failFirst: 1}
			srv := httptest.NewServer(rec)
			t.Cleanup(srv.Close)
			c, err := NewClient(srv.URL, append([]Option{fast}, tt.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.call(c); err != nil {
				t.Fatal(err)
			}
			if got := rec.requests(); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("server saw\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestMissingCredential: an operation none of whose alternatives the
// client has every credential of fails at once, nothing sent, with a
// typed error that names the schemes, not retried and not counted.
func TestMissingCredential(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	// Basic alone: PutSecret needs the session cookie too.
	c, err := NewClient(srv.URL, WithBasicAuth(func(context.Context) (string, string, error) { return "ann", "pw", nil }))
	if err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"GetMe":     func() error { _, err := c.GetMe(t.Context()); return err },
		"PutSecret": func() error { return c.PutSecret(t.Context(), "s", Secret{Name: "s"}) },
		"GetSecret": func() error { _, err := c.GetSecret(t.Context(), "s"); return err },
	} {
		err := call()
		var missing *runtime.MissingCredentialError
		var ce *runtime.CallError
		if !errors.As(err, &missing) || missing.Operation != name || !errors.As(err, &ce) || ce.End != runtime.EndInvalidRequest || ce.Attempts != 0 {
			t.Errorf("%s: err = %v, want a *runtime.MissingCredentialError, nothing sent", name, err)
		}
		if !errors.Is(err, runtime.ErrNotSent) || runtime.IsDegraded(err) {
			t.Errorf("%s: err = %v, want not sent, no fallback", name, err)
		}
	}
	if got := rec.requests(); len(got) != 0 {
		t.Errorf("server saw %q, want nothing", got)
	}
	if n := c.Dependency().BreakerCounts().Requests; n != 0 {
		t.Errorf("breaker counted %d requests, want 0", n)
	}
}

// TestNoCredentialAcrossOrigins: a redirect to another origin is not
// followed, so no credential reaches it; the caller gets the redirect.
func TestNoCredentialAcrossOrigins(t *testing.T) {
	other := &recorder{}
	elsewhere := httptest.NewServer(other)
	t.Cleanup(elsewhere.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL, fast, WithAPIKey(counter("key")), WithAPIKeyAppID(counter("app")), WithBearerToken(counter("bearer")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetSecret(t.Context(), "s")
	var re *runtime.RemoteError
	if !errors.As(err, &re) || re.Status != http.StatusTemporaryRedirect || re.Header.Get("Location") == "" {
		t.Errorf("err = %v, want the 307 with its Location", err)
	}
	if _, err := c.GetMe(t.Context()); !errors.As(err, &re) {
		t.Errorf("GetMe: err = %v, want the 307", err)
	}
	if got := other.requests(); len(got) != 0 {
		t.Errorf("the other origin saw %q, want nothing", got)
	}
}

type userKey struct{}

// TestFallbackPerCredential: GetMe's cached answer is served, during an
// outage, only to a call carrying the credential it was stored for.
func TestFallbackPerCredential(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL, fast, WithBearerToken(func(ctx context.Context) (string, error) {
		return ctx.Value(userKey{}).(string) + "-token", nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	as := func(user string) context.Context { return context.WithValue(t.Context(), userKey{}, user) }
	alice, err := c.GetMe(as("alice"))
	if err != nil {
		t.Fatal(err)
	}
	rec.down.Store(true)
	if v, err := c.GetMe(as("bob")); runtime.IsDegraded(err) || err == nil || v.Name != "" {
		t.Errorf("bob during the outage: %+v, %v; want an error, not alice's answer", v, err)
	}
	v, err := c.GetMe(as("alice"))
	if !runtime.IsDegraded(err) || v != alice {
		t.Errorf("alice during the outage: %+v, %v; want her cached answer, degraded", v, err)
	}
	if strings.Contains(err.Error(), "alice-token") {
		t.Errorf("error %q shows the credential", err)
	}
}

// TestCredentialFailure: a token source that fails ends the call as the
// caller's error, nothing sent, the failure reachable with errors.Is.
func TestCredentialFailure(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	boom := errors.New("token endpoint down")
	c, err := NewClient(srv.URL, WithOAuth2(oauth2.TokenSource(failing{boom})))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetSecret(t.Context(), "s")
	var ce *runtime.CredentialError
	if !errors.As(err, &ce) || ce.Scheme != "oauth" || !errors.Is(err, boom) || !errors.Is(err, runtime.ErrInvalidRequest) {
		t.Errorf("err = %v, want a *runtime.CredentialError for oauth, an invalid request", err)
	}
	if got := rec.requests(); len(got) != 0 {
		t.Errorf("server saw %q, want nothing", got)
	}
}

type failing struct{ err error }

func (f failing) Token() (*oauth2.Token, error) { return nil, f.err }

// TestHooks: the client's and the call's request editors run on every
// attempt after the credentials; an editor's error is the caller's, and
// WithDoer takes any Doer.
func TestHooks(t *testing.T) {
	rec := &recorder{failFirst: 1}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	var doer atomic.Int64
	var sent []string
	var mu sync.Mutex
	c, err := NewClient(srv.URL, fast, WithBearerToken(counter("bearer")),
		WithDoer(doerFunc(func(r *http.Request) (*http.Response, error) {
			doer.Add(1)
			mu.Lock()
			sent = append(sent, r.Header.Get("X-Client")+" "+r.Header.Get("X-Call"))
			mu.Unlock()
			return http.DefaultClient.Do(r)
		})),
		WithRequestEditor(func(ctx context.Context, r *http.Request) error {
			r.Header.Set("X-Client", "saw "+r.Header.Get("Authorization"))
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	if _, err := c.GetAudit(t.Context(), runtime.WithRequestEditor(func(ctx context.Context, r *http.Request) error {
		r.Header.Set("X-Call", fmt.Sprint(n.Add(1)))
		return nil
	})); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(sent, "|"), "saw  1|saw  2"; got != want || doer.Load() != 2 {
		t.Errorf("sent %q through %d calls of the Doer, want %q through 2", got, doer.Load(), want)
	}
	boom := errors.New("cannot sign")
	_, err = c.GetMe(t.Context(), runtime.WithRequestEditor(func(context.Context, *http.Request) error { return boom }))
	var ce *runtime.CallError
	if !errors.Is(err, boom) || !errors.As(err, &ce) || ce.End != runtime.EndInvalidRequest {
		t.Errorf("err = %v, want an invalid request wrapping the editor's error", err)
	}
}

type doerFunc func(*http.Request) (*http.Response, error)

func (f doerFunc) Do(r *http.Request) (*http.Response, error) { return f(r) }

// TestServers: the server constants and the function of the server
// template, its enum checked; NewClient("") takes the first server and a
// base URL given wins.
func TestServers(t *testing.T) {
	if u, err := ServerRegional("us", ""); err != nil || u != "https://us.vault.example.com/v1" {
		t.Errorf(`ServerRegional("us", "") = %q, %v`, u, err)
	}
	if u, err := ServerRegional("", ""); err != nil || u != ServerRegionalDefault {
		t.Errorf(`ServerRegional("", "") = %q, %v; want %q`, u, err, ServerRegionalDefault)
	}
	if _, err := ServerRegional("mars", ""); err == nil || err.Error() != `auth: ServerRegional: region "mars" is not one of "eu", "us", "ap"` {
		t.Errorf(`ServerRegional("mars", "") err = %v`, err)
	}
	if _, err := ServerRegional("eu", "v1?x=1"); err == nil {
		t.Error(`ServerRegional("eu", "v1?x=1") accepted a query`)
	}
	c, err := NewClient("")
	if err != nil || c.baseURL != ServerProduction {
		t.Errorf(`NewClient("") base %q, %v; want %q`, c.baseURL, err, ServerProduction)
	}
	c, err = NewClient("https://staging.example.com/v1")
	if err != nil || c.baseURL != "https://staging.example.com/v1" {
		t.Errorf("NewClient(staging) base %q, %v", c.baseURL, err)
	}
}
