package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNullableJSON(t *testing.T) {
	type pet struct {
		Nick Nullable[string] `json:"nick,omitzero"`
		Age  Nullable[int]    `json:"age,omitempty"`
	}
	tests := []struct {
		name string
		in   pet
		want string
	}{
		{"absent", pet{}, `{"age":null}`}, // omitempty cannot leave a struct out
		{"null", pet{Nick: Null[string](), Age: Null[int]()}, `{"nick":null,"age":null}`},
		{"set", pet{Nick: NewNullable("Rex"), Age: NewNullable(0)}, `{"nick":"Rex","age":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.in)
			if err != nil || string(b) != tt.want {
				t.Errorf("Marshal = %s, %v, want %s", b, err, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		in            string
		set, null, ok bool
		v             string
	}{
		{`{}`, false, false, false, ""},
		{`{"nick":null}`, true, true, false, ""},
		{`{"nick":"Rex"}`, true, false, true, "Rex"},
		{`{"nick":""}`, true, false, true, ""},
	} {
		var p pet
		if err := json.Unmarshal([]byte(tt.in), &p); err != nil {
			t.Fatal(err)
		}
		v, ok := p.Nick.Get()
		if p.Nick.IsSet() != tt.set || p.Nick.IsNull() != tt.null || ok != tt.ok || v != tt.v {
			t.Errorf("Unmarshal(%s): set %v null %v value %q %v; want %v %v %q %v", tt.in, p.Nick.IsSet(), p.Nick.IsNull(), v, ok, tt.set, tt.null, tt.v, tt.ok)
		}
	}
	var p pet
	if err := json.Unmarshal([]byte(`{"nick":7}`), &p); err == nil {
		t.Errorf("Unmarshal of a number into Nullable[string] succeeded")
	}
	if NewNullable(3).Ptr() == nil || *NewNullable(3).Ptr() != 3 || Null[int]().Ptr() != nil {
		t.Errorf("Ptr")
	}
}

func TestDate(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Date
		ok   bool
	}{
		{"2026-12-01", Date{2026, time.December, 1}, true},
		{"2024-02-29", Date{2024, time.February, 29}, true},
		{"0001-01-01", Date{1, time.January, 1}, true},
		{"2026-02-29", Date{}, false},
		{"2026-13-01", Date{}, false},
		{"2026-00-10", Date{}, false},
		{"2026-1-01", Date{}, false},
		{"2026-12-01T00:00:00Z", Date{}, false},
		{"+026-12-01", Date{}, false},
		{"", Date{}, false},
	} {
		got, err := ParseDate(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseDate(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	type when struct {
		On  Date  `json:"on"`
		Off *Date `json:"off,omitempty"`
		Not Date  `json:"not,omitzero"`
	}
	b, err := json.Marshal(when{On: Date{2026, time.March, 9}})
	if err != nil || string(b) != `{"on":"2026-03-09"}` {
		t.Errorf("Marshal = %s, %v", b, err)
	}
	var w when
	if err := json.Unmarshal([]byte(`{"on":"2026-03-09"}`), &w); err != nil || w.On != (Date{2026, time.March, 9}) {
		t.Errorf("Unmarshal = %v, %v", w, err)
	}
	if err := json.Unmarshal([]byte(`{"on":"2026-02-30"}`), &w); err == nil {
		t.Errorf("Unmarshal of 2026-02-30 succeeded")
	}
	if _, err := json.Marshal(when{}); err == nil {
		t.Errorf("Marshal of the zero Date succeeded")
	}
	d := DateOf(time.Date(2026, 5, 4, 23, 59, 0, 0, time.UTC))
	if d.String() != "2026-05-04" || !d.Before(Date{2026, 5, 5}) || d.In(time.UTC).Hour() != 0 {
		t.Errorf("DateOf = %v", d)
	}
}

// TestSetBodyReplay: in-memory readers and files are replayed from where
// they were; a pipe is one-shot; a file reader replaced by a later
// attempt can no longer be read.
func TestSetBodyReplay(t *testing.T) {
	file := filepath.Join(t.TempDir(), "body")
	if err := os.WriteFile(file, []byte("skip:payload"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Seek(5, io.SeekStart)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	go func() { pw.WriteString("piped"); pw.Close() }()
	br := bytes.NewReader([]byte("skip:payload"))
	br.Seek(5, io.SeekStart)
	tests := []struct {
		name   string
		r      io.Reader
		replay bool
		length int64
		want   string
	}{
		{"bytes.Reader", br, true, 7, "payload"},
		{"strings.Reader", strings.NewReader("payload"), true, 7, "payload"},
		{"bytes.Buffer", bytes.NewBufferString("payload"), true, 7, "payload"},
		{"file at an offset", f, true, 7, "payload"},
		{"pipe", pr, false, 0, "piped"},
		{"plain reader", io.MultiReader(strings.NewReader("payload")), false, 0, "payload"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPut, "http://dep.test/x", nil)
			if err := SetBody(req, tt.r); err != nil {
				t.Fatal(err)
			}
			if (req.GetBody != nil) != tt.replay || req.ContentLength != tt.length {
				t.Fatalf("GetBody set %v, length %d; want %v, %d", req.GetBody != nil, req.ContentLength, tt.replay, tt.length)
			}
			first, _ := io.ReadAll(req.Body)
			if string(first) != tt.want {
				t.Errorf("body %q, want %q", first, tt.want)
			}
			if !tt.replay {
				return
			}
			for range 2 {
				b, err := req.GetBody()
				if err != nil {
					t.Fatal(err)
				}
				got, _ := io.ReadAll(b)
				if string(got) != tt.want {
					t.Errorf("replayed body %q, want %q", got, tt.want)
				}
			}
		})
	}
	t.Run("a replaced file reader", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPut, "http://dep.test/x", nil)
		f.Seek(0, io.SeekStart)
		SetBody(req, f)
		old := req.Body
		if _, err := req.GetBody(); err != nil {
			t.Fatal(err)
		}
		if _, err := old.Read(make([]byte, 4)); !errors.Is(err, errBodyReplaced) {
			t.Errorf("reading the replaced reader: %v, want errBodyReplaced", err)
		}
	})
}

func TestMultipart(t *testing.T) {
	build := func(t *testing.T, photo io.Reader) *http.Request {
		t.Helper()
		m := NewMultipart()
		m.Field("name", "Rex", "", nil)
		m.JSON("tags", []string{"good", "dog"}, "", nil)
		m.File("photo", File{Name: `rex "1".png`, ContentType: "image/png", Body: photo}, "", http.Header{"X-Rate": {"1"}})
		m.File("doc", File{Body: strings.NewReader("%PDF")}, "application/pdf", nil)
		req, _ := http.NewRequest(http.MethodPost, "http://dep.test/pets", nil)
		if err := m.SetBody(req); err != nil {
			t.Fatal(err)
		}
		return req
	}
	read := func(t *testing.T, req *http.Request, body io.Reader) []string {
		t.Helper()
		_, params, err := mime.ParseMediaType(req.Header.Get("Content-Type"))
		if err != nil {
			t.Fatal(err)
		}
		mr := multipart.NewReader(body, params["boundary"])
		var parts []string
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				return parts
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(p)
			parts = append(parts, p.FormName()+"|"+p.FileName()+"|"+p.Header.Get("Content-Type")+"|"+p.Header.Get("X-Rate")+"|"+string(b))
		}
	}
	want := []string{"name||||Rex", `tags||application/json||["good","dog"]`, `photo|rex "1".png|image/png|1|PNG`, "doc||application/pdf||%PDF"}

	req := build(t, bytes.NewReader([]byte("PNG")))
	raw, _ := io.ReadAll(req.Body)
	if int64(len(raw)) != req.ContentLength {
		t.Errorf("ContentLength %d, body %d bytes", req.ContentLength, len(raw))
	}
	if got := read(t, req, bytes.NewReader(raw)); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("parts:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	again, err := req.GetBody()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(again); !bytes.Equal(b, raw) {
		t.Errorf("replayed body differs")
	}

	req = build(t, io.MultiReader(strings.NewReader("PNG")))
	if req.GetBody != nil || req.ContentLength != 0 {
		t.Errorf("with a one-shot file: GetBody set %v, length %d; want none, unknown", req.GetBody != nil, req.ContentLength)
	}
	if got := read(t, req, req.Body); len(got) != 4 || got[2] != want[2] {
		t.Errorf("parts with a one-shot file: %q", got)
	}

	m := NewMultipart()
	m.Field("bad\r\nX-Injected: 1", "v", "", nil)
	if err := m.SetBody(req); err == nil {
		t.Errorf("a part name with CRLF was accepted")
	}
	m = NewMultipart()
	m.JSON("ch", make(chan int), "", nil)
	if err := m.SetBody(req); err == nil {
		t.Errorf("a part that does not marshal was accepted")
	}
}

// FuzzParseDate: a date parses only when it prints back the same.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2026-12-01", "2024-02-29", "2026-02-29", "0000-00-00", "99999-1-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDate(s)
		if err == nil && d.String() != s {
			t.Fatalf("ParseDate(%q) = %v, which prints differently", s, d)
		}
	})
}
