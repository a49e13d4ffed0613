package golang_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/gen/golang"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/openapi"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/internal/repomod"
	"github.com/resilientgo/resilient/internal/testtier"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// nonEntry lists the corpus files that are only reached through $ref.
// The test fails when one of them disappears, so the list cannot go stale.
var nonEntry = []string{
	"oai-examples/v2.0/petstore-separate/common/Error.yaml",
	"oai-examples/v2.0/petstore-separate/spec/NewPet.yaml",
	"oai-examples/v2.0/petstore-separate/spec/Pet.yaml",
	"oai-examples/v2.0/petstore-separate/spec/parameters.yaml",
}

// corpusCase says what to expect of one entry file beyond "generates,
// builds and vets".
type corpusCase struct {
	// collisions is the number of E-NAME-COLLISION errors the default
	// build reports: the spec's x-go-name values were written for another
	// generator's package layout. The models are then built with
	// IgnoreGoNames.
	collisions int
}

// corpusCases is empty since the front end renames colliding names
// (W-NAME-RENAMED): docker-engine's x-go-name values no longer collide.
var corpusCases = map[string]corpusCase{}

// TestCorpus generates the models and the client of every OpenAPI entry file of the
// corpus (gen/testdata/corpus), and of the feature specs in gen/openapi/testdata, into
// one temporary module, then runs go build and go vet on it. Generating
// twice must give identical bytes. (The feature spec's behaviour tests
// live with its golden case, golden/openapi/features.)
func TestCorpus(t *testing.T) {
	testtier.Slow(t)
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(repo, "gen", "testdata", "corpus", "openapi")
	if _, err := os.Stat(corpus); err != nil {
		t.Fatalf("the corpus belongs at %s: %v", corpus, err)
	}
	for _, f := range nonEntry {
		if _, err := os.Stat(filepath.Join(corpus, filepath.FromSlash(f))); err != nil {
			t.Errorf("non-entry file %s is gone; remove it from nonEntry", f)
		}
	}
	entries := corpusEntries(t, corpus)

	mod := t.TempDir()
	writeModule(t, mod, repo)
	for _, rel := range entries {
		t.Run(rel, func(t *testing.T) {
			generate(t, os.DirFS(corpus), "corpus", rel, corpusCases[rel], filepath.Join(mod, packageDir(rel)))
		})
	}
	testdata := filepath.Join(repo, "gen", "openapi", "testdata")
	for _, rel := range []string{"features.yaml", "features31.yaml"} {
		generate(t, os.DirFS(testdata), "testdata", rel, corpusCase{}, filepath.Join(mod, packageDir(rel)))
	}
	if t.Failed() {
		return
	}
	goCmd(t, mod, "build", "./...")
	goCmd(t, mod, "vet", "./...")
	// The generated files are a fixed point of gofmt, doc comments
	// written from the specs' Markdown included.
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	cmd := exec.Command(filepath.Join(strings.TrimSpace(string(goroot)), "bin", "gofmt"), "-l", ".")
	cmd.Dir = mod
	out, err := cmd.CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("gofmt -l lists generated files (%v):\n%s", err, out)
	}
}

// corpusEntries lists the corpus's OpenAPI files that are not fragments.
func corpusEntries(t *testing.T, corpus string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(corpus, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".yaml", ".yml", ".json":
		default:
			return nil
		}
		rel, err := filepath.Rel(corpus, path)
		if err != nil {
			return err
		}
		if rel = filepath.ToSlash(rel); !slices.Contains(nonEntry, rel) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no OpenAPI files under %s", corpus)
	}
	return out
}

// generate loads, builds and emits one spec into dir, twice, and checks
// the two outputs are identical.
func generate(t *testing.T, fsys fs.FS, shownAs, rel string, c corpusCase, dir string) {
	t.Helper()
	start := time.Now()
	doc, loadWarnings, err := openapi.Load(fsys, rel, openapi.LoadOptions{Dir: shownAs})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	loaded := time.Now()
	opts := openapi.BuildOptions{}
	if c.collisions > 0 {
		_, _, err := openapi.Build(doc, opts)
		if got := countRule(err, "E-NAME-COLLISION"); got != c.collisions {
			t.Errorf("Build: %d E-NAME-COLLISION errors, want %d; errors:\n%v", got, c.collisions, err)
		}
		opts.IgnoreGoNames = true
	}
	svc, buildWarnings, err := openapi.Build(doc, opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	built := time.Now()
	first := emit(t, svc, filepath.Base(dir), shownAs+"/"+rel)
	emitted := time.Now()
	if second := emit(t, svc, filepath.Base(dir), shownAs+"/"+rel); !bytes.Equal(first, second) {
		t.Errorf("two generations differ")
	}
	t.Logf("%s: load %v, IR %v, emit %v; %d load and %d build warnings; %d operations, %d types, %d bytes",
		rel, loaded.Sub(start).Round(time.Millisecond), built.Sub(loaded).Round(time.Millisecond),
		emitted.Sub(built).Round(time.Millisecond), len(loadWarnings), len(buildWarnings),
		len(svc.Operations), len(svc.Types), len(first))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "models.go"), first, 0o644); err != nil {
		t.Fatal(err)
	}
}

func emit(t *testing.T, svc *ir.Service, pkg, source string) []byte {
	t.Helper()
	f := golang.NewFile(pkg, source)
	golang.EmitModels(f, svc)
	res, _, err := resolve.HTTP(svc, pkg, nil)
	if err != nil {
		t.Fatalf("resolve.HTTP: %v", err)
	}
	if _, err := golang.EmitClient(f, res, golang.ClientOptions{}); err != nil {
		t.Fatalf("EmitClient: %v", err)
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		t.Fatalf("Render: %v", err)
	}
	return buf.Bytes()
}

// countRule counts the diagnostics of a rule in a joined error.
func countRule(err error, rule diag.Rule) int {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return 0
	}
	n := 0
	for _, e := range j.Unwrap() {
		if d, ok := e.(diag.Diagnostic); ok && d.Rule == rule {
			n++
		}
	}
	return n
}

// packageDir turns a spec path into a package directory name:
// "oai-examples/v3.0/petstore.yaml" → "oai_examples_v3_0_petstore".
func packageDir(rel string) string {
	name := strings.TrimSuffix(rel, filepath.Ext(rel))
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return '_'
	}, name)
}

// writeModule writes a module whose go.mod points at the repository's
// modules, so generated code may import the runtime.
func writeModule(t *testing.T, dir, repo string) {
	t.Helper()
	if err := repomod.WriteModule(dir, repo, "corpustest", "1.26", ""); err != nil {
		t.Fatal(err)
	}
}

// goCmd runs the go command in dir and fails the test with its output.
func goCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
