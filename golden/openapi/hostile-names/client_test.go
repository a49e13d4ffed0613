package hostilenames

import (
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/runtime"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestNothingButCode: the descriptions full of comment closers, directives
// and a line "+build ignore" (which gofmt would hoist above the package
// clause) stay comment text: the file has no block comment, no directive,
// no build constraint and no init function.
func TestNothingButCode(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "client.gen.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "init" {
			t.Errorf("%s: func init", fset.Position(fn.Pos()))
		}
	}
	for _, g := range f.Comments {
		for _, c := range g.List {
			switch {
			case strings.HasPrefix(c.Text, "/*"):
				t.Errorf("%s: block comment %q", fset.Position(c.Pos()), c.Text)
			case strings.HasPrefix(c.Text, "//go:"), strings.HasPrefix(c.Text, "//line "), constraint.IsPlusBuild(c.Text):
				t.Errorf("%s: directive %q", fset.Position(c.Pos()), c.Text)
			}
		}
	}
}

// TestDashProperty: a property called "-" is sent and read, not left out
// as the bare tag "-" would; one with a space is too, and one with a
// comma, which no tag can name, through the struct's own methods.
func TestDashProperty(t *testing.T) {
	level := Level3000000000
	space, comma := "s", "c"
	data, err := json.Marshal(Note{Field0: "d", AB: &space, AB2: &comma, Level: &level})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"-":"d","a b":"s","level":3000000000,"a,b":"c"}`; string(data) != want {
		t.Errorf("json.Marshal = %s, want %s", data, want)
	}
	var n Note
	if err := json.Unmarshal([]byte(`{"-":"x","a b":"y","a,b":"z"}`), &n); err != nil || n.Field0 != "x" || n.AB == nil || *n.AB != "y" || n.AB2 == nil || *n.AB2 != "z" {
		t.Errorf("json.Unmarshal = %+v, %v; want Field0 x, AB y and AB2 z", n, err)
	}
}

// TestDiscriminatorCalledDash: the union reads a discriminator called "-".
func TestDiscriminatorCalledDash(t *testing.T) {
	var b Body
	if err := json.Unmarshal([]byte(`{"-":"link","href":"/n/1"}`), &b); err != nil {
		t.Fatal(err)
	}
	d, err := b.Discriminator()
	if err != nil || d != "link" {
		t.Fatalf("Discriminator() = %q, %v; want link", d, err)
	}
	v, err := b.ValueByDiscriminator()
	if l, ok := v.(Link); err != nil || !ok || l.Href == nil || *l.Href != "/n/1" {
		t.Errorf("ValueByDiscriminator() = %#v, %v; want the Link", v, err)
	}
}

// TestWideEnum: an int32 enum with a value beyond 32 bits is an int64.
func TestWideEnum(t *testing.T) {
	var wide int64 = int64(Level3000000000)
	if wide != 3000000000 {
		t.Errorf("Level3000000000 = %d", wide)
	}
}

// TestStaticFallbackAndPath: the static fallback's NUL and byte order mark
// come back as written, and the NUL of the path template goes out
// escaped.
func TestStaticFallbackAndPath(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.EscapedPath())
		mu.Unlock()
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	tr := &http.Transport{}
	defer srv.Close()
	defer tr.CloseIdleConnections()
	c, err := NewClient(srv.URL, WithHTTPClient(&http.Client{Transport: tr}),
		WithPolicy(func(p *Policy) { p.GetNote.Retry.Disabled = true }))
	if err != nil {
		t.Fatal(err)
	}
	n, err := c.GetNote(context.Background(), "n", nil)
	if !errors.Is(err, runtime.ErrDegraded) {
		t.Fatalf("GetNote error = %v, want a degraded answer", err)
	}
	if want := "bom\ufeff nul\x00 end"; n.Field0 != want {
		t.Errorf("fallback Field0 = %q, want %q", n.Field0, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(paths) != 1 || paths[0] != "/notes%00/n" {
		t.Errorf("the server saw %q, want [/notes%%00/n]", paths)
	}
}
