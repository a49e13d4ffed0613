package modulecheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/internal/testtier"
)

// examplesOnly are module path prefixes that only the examples module may
// require: the fault injector and its tail.
var examplesOnly = []string{
	"github.com/Shopify/toxiproxy",
	"github.com/prometheus/",
	"github.com/rs/zerolog",
	"github.com/gorilla/mux",
	"github.com/resilientgo/resilient/examples",
}

// TestUserModuleGraph makes a fresh module that imports the runtime
// package, requiring github.com/resilientgo/resilient with a replace to
// this checkout, and checks that go list -m all names none of
// examplesOnly.
func TestUserModuleGraph(t *testing.T) {
	testtier.Slow(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// The user's module asks for the lowest Go the library supports.
	goLine := ""
	for line := range strings.Lines(string(gomod)) {
		if strings.HasPrefix(line, "go ") {
			goLine = line
		}
	}
	if goLine == "" {
		t.Fatalf("%s/go.mod has no go directive", root)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/user\n\n" + goLine + "\nrequire github.com/resilientgo/resilient v0.0.0\n\nreplace github.com/resilientgo/resilient => " + root + "\n",
		"main.go": `package main

import "github.com/resilientgo/resilient/runtime"

func main() { _ = runtime.DefaultMaxRetries }
`,
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = string(sum)
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gocmd(t, dir, "mod", "tidy")
	gocmd(t, dir, "build", "./...")
	mods := strings.Fields(gocmd(t, dir, "list", "-m", "-f", "{{.Path}}", "all"))
	if len(mods) < 2 {
		t.Fatalf("go list -m all = %q, want the user module and its dependencies", mods)
	}
	for _, m := range mods {
		for _, bad := range examplesOnly {
			if strings.HasPrefix(m, bad) {
				t.Errorf("a module that imports the runtime requires %s; only examples/go.mod may require it", m)
			}
		}
	}
	t.Logf("go list -m all: %d modules: %s", len(mods), strings.Join(mods, " "))
}

// gocmd runs the go command in dir, outside any workspace, and returns
// its standard output.
func gocmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return string(out)
}
