package golang_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/resilientgo/resilient/gen/diag"
	"github.com/resilientgo/resilient/gen/golang"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/openapi"
	"github.com/resilientgo/resilient/gen/policy"
)

// emitAll writes the models and the client of svc into one file.
func emitAll(t *testing.T, svc *ir.Service, pkg, source string) ([]byte, []diag.Diagnostic) {
	t.Helper()
	pol, _, err := policy.Resolve(svc, pkg, nil)
	if err != nil {
		t.Fatalf("policy.Resolve: %v", err)
	}
	f := golang.NewFile(pkg, source)
	golang.EmitModels(f, svc)
	warnings, err := golang.EmitClient(f, svc, pol, golang.ClientOptions{})
	if err != nil {
		t.Fatalf("EmitClient: %v", err)
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		t.Fatalf("Render: %v", err)
	}
	return buf.Bytes(), warnings
}

// loadSpec loads and builds one spec.
func loadSpec(t *testing.T, fsys fs.FS, name string, opts openapi.BuildOptions) *ir.Service {
	t.Helper()
	doc, _, err := openapi.Load(fsys, name, openapi.LoadOptions{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	svc, _, err := openapi.Build(doc, opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return svc
}

// TestClientDeterministic emits the client of the shapes spec twice and
// wants the same bytes.
func TestClientDeterministic(t *testing.T) {
	svc := loadSpec(t, os.DirFS(filepath.Join("testdata", "client")), "shapes.yaml", openapi.BuildOptions{})
	first, _ := emitAll(t, svc, "shapes", "testdata/client/shapes.yaml")
	second, _ := emitAll(t, svc, "shapes", "testdata/client/shapes.yaml")
	if !bytes.Equal(first, second) {
		t.Fatal("two generations differ")
	}
}

// TestClientBehaviour generates the shapes spec's client into a temporary
// module and runs the hand-written tests of testdata/client next to it,
// under the race detector, against httptest servers.
func TestClientBehaviour(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a generated module with -race; skipped with -short")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	svc := loadSpec(t, os.DirFS(filepath.Join("testdata", "client")), "shapes.yaml", openapi.BuildOptions{})
	code, _ := emitAll(t, svc, "shapes", "testdata/client/shapes.yaml")
	mod := t.TempDir()
	writeModule(t, mod, repo)
	dir := filepath.Join(mod, "shapes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tests, err := os.ReadFile(filepath.Join("testdata", "client", "shapes_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"shapes.go": code, "shapes_test.go": tests} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goCmd(t, mod, "vet", "./...")
	goCmd(t, mod, "test", "-race", "-count=1", "./...")
}
