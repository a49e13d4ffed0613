package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestEmitJoined: the models and the client rendered apart and joined
// give the bytes of one rendering, on every spec of the corpus and the
// golden cases (and on GitHub's when RESILIENT_GITHUB_SPEC names it).
func TestEmitJoined(t *testing.T) {
	specs, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "openapi", "*", "*.yaml"))
	golden, _ := filepath.Glob(filepath.Join("..", "golden", "openapi", "*", "openapi.yaml"))
	specs = append(specs, golden...)
	if p := os.Getenv("RESILIENT_GITHUB_SPEC"); p != "" {
		specs = append(specs, p)
	}
	compared := 0
	for _, spec := range specs {
		dir, file := filepath.Split(spec)
		opts := OpenAPIOptions{Package: "client"}
		s, err := prepare(os.DirFS(dir), file, opts, false)
		if err == nil {
			err = s.validated()
		}
		if err != nil {
			continue // the corpus holds specs that do not generate
		}
		joined, err := emit(s, opts)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		pkg, source := s.fileNames(opts)
		f, err := s.emitFile(pkg, source)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := render(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(joined, whole) {
			t.Errorf("%s: the joined file differs from one rendering", spec)
		}
		compared++
	}
	if compared < len(golden) {
		t.Errorf("compared %d specs, want at least the %d golden cases", compared, len(golden))
	}
	t.Logf("compared %d specs", compared)
}

func TestJoinFilesRefuses(t *testing.T) {
	file := func(imports string) []byte {
		return []byte("// Code generated. DO NOT EDIT.\n\npackage p\n\n" + imports + "var x = 1\n")
	}
	for _, c := range []struct{ a, b string }{
		{"import a \"x/y\"\n\n", "import b \"x/y\"\n\n"},
		{"import \"x/y\"\n\n", "import \"z/y\"\n\n"},
	} {
		if _, ok := joinFiles(file(c.a), file(c.b)); ok {
			t.Errorf("joined %q and %q", c.a, c.b)
		}
	}
	got, ok := joinFiles(file(""), file("import \"fmt\"\n\n"))
	want := "// Code generated. DO NOT EDIT.\n\npackage p\n\nimport \"fmt\"\n\nvar x = 1\n\nvar x = 1\n"
	if !ok || string(got) != want {
		t.Errorf("got %q, %v", got, ok)
	}
}

// FuzzEmitJoined: on every spec the fuzzer assembles (see
// FuzzOpenAPIPipeline), the models and the client rendered apart and
// joined give the bytes of one rendering, or the join declines and the
// one rendering is used.
//
//	go test -run '^$' -fuzz FuzzEmitJoined -fuzztime 5m ./gen
func FuzzEmitJoined(f *testing.F) {
	goldens, _ := filepath.Glob(filepath.Join("..", "golden", "openapi", "*", "openapi.yaml"))
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, seed := range []string{"", "\x05\x03\x07\x02\x09\x01\x04\x06\x08", strings.Repeat("\x07\x03", 40)} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		spec := data
		trimmed := bytes.TrimSpace(data)
		if !bytes.HasPrefix(trimmed, []byte("openapi")) && !bytes.HasPrefix(trimmed, []byte("swagger")) && !bytes.HasPrefix(trimmed, []byte("{")) {
			spec = buildSpec(&program{data: data})
		}
		opts := OpenAPIOptions{Package: "fuzzed"}
		s, err := prepare(fstest.MapFS{"api.yaml": {Data: spec}}, "api.yaml", opts, false)
		if err == nil {
			err = s.validated()
		}
		if err != nil {
			return
		}
		joined, err := emit(s, opts)
		if err != nil {
			return
		}
		pkg, source := s.fileNames(opts)
		whole, err := s.emitFile(pkg, source)
		if err != nil {
			t.Fatalf("one rendering fails where the joined one did not: %v\nspec:\n%s", err, spec)
		}
		code, err := render(whole)
		if err != nil {
			t.Fatalf("one rendering fails where the joined one did not: %v\nspec:\n%s", err, spec)
		}
		if !bytes.Equal(joined, code) {
			t.Fatalf("the joined file differs from one rendering\nspec:\n%s\njoined:\n%s\nwhole:\n%s", spec, joined, code)
		}
	})
}
