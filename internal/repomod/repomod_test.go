package repomod

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestModules: the checkout's root module and the runtime's modules, each
// with its path and folder, the examples left out.
func TestModules(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mods, err := Modules(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, m := range mods {
		paths = append(paths, m.Path)
		rel := strings.TrimPrefix(strings.TrimPrefix(m.Path, Path), "/")
		if want := filepath.Join(root, filepath.FromSlash(rel)); m.Dir != want {
			t.Errorf("%s in %s, want %s", m.Path, m.Dir, want)
		}
	}
	want := []string{Path, Path + "/runtime", Path + "/runtime/otelobserver", Path + "/runtime/oteltrace", Path + "/runtime/redisfleet", Path + "/runtime/resilientgrpc"}
	if paths[0] != Path || !slices.Equal(slices.Sorted(slices.Values(paths)), want) {
		t.Errorf("Modules = %q, want %q, root first", paths, want)
	}
}

// TestModulesNotARoot: a folder without go.mod, or without the runtime's
// own module, is an error that says so.
func TestModulesNotARoot(t *testing.T) {
	dir := t.TempDir()
	if _, err := Modules(dir); err == nil || !strings.Contains(err.Error(), "not the repository's root") {
		t.Errorf("Modules(empty folder) error = %v, want not the repository's root", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+Path+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "runtime"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Modules(dir); err == nil || !strings.Contains(err.Error(), "runtime/go.mod") {
		t.Errorf("Modules(no runtime module) error = %v, want one naming runtime/go.mod", err)
	}
}

// TestWriteModule: the go.mod written requires and replaces every module,
// and the go.sum holds the runtime's checksums.
func TestWriteModule(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join("..", "..")
	if err := WriteModule(dir, root, "example.com/built", "1.26.0", "require example.com/other v1.0.0\n"); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mods, err := Modules(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"module example.com/built\n", "\ngo 1.26.0\n", "\nrequire example.com/other v1.0.0\n"} {
		if !strings.Contains(string(gomod), want) {
			t.Errorf("go.mod has no %q:\n%s", want, gomod)
		}
	}
	for _, m := range mods {
		if !strings.Contains(string(gomod), "\t"+m.Path+" v0.0.0\n") || !strings.Contains(string(gomod), "\t"+m.Path+" => "+m.Dir+"\n") {
			t.Errorf("go.mod does not require and replace %s:\n%s", m.Path, gomod)
		}
	}
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sum), "github.com/sony/gobreaker/v2 ") {
		t.Errorf("go.sum has no checksum of the runtime's gobreaker:\n%s", sum)
	}
}
