// Package repomod describes the modules of this repository to programs
// that build code against a checkout of it in a module of their own: the
// slow tests that build generated clients, the module-graph check and the
// generation benchmark. Such a module must require and replace every
// module of the repository its code reaches, not the root module alone:
// the runtime and its subpackages are modules of their own, which the
// root module requires at v0.0.0 through replace directives that apply
// only when the root is the main module.
package repomod

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Path is the module path of the repository's root module.
const Path = "github.com/resilientgo/resilient"

// Module is one module of the repository.
type Module struct {
	// Path is the module path, Path or a path below it.
	Path string
	// Dir is the module's folder, absolute.
	Dir string
}

// Modules returns the root module of the checkout at root and the modules
// below its runtime folder (each folder there with a go.mod), root first.
// The examples' module is left out: nothing built outside it imports it.
func Modules(root string) ([]Module, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return nil, fmt.Errorf("%s is not the repository's root: %w", root, err)
	}
	mods := []Module{{Path: Path, Dir: root}}
	err = filepath.WalkDir(filepath.Join(root, "runtime"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "go.mod" {
			return nil
		}
		dir := filepath.Dir(path)
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			return err
		}
		mods = append(mods, Module{Path: Path + "/" + filepath.ToSlash(rel), Dir: dir})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(mods) == 1 {
		return nil, fmt.Errorf("%s has no runtime/go.mod: the runtime is a module of its own", root)
	}
	return mods, nil
}

// Directives returns the go.mod lines that make a module use every module
// of mods from its folder: a v0.0.0 requirement and a replace each.
// go mod tidy drops the requirements the module does not need; the
// replace directives stay, harmless.
func Directives(mods []Module) string {
	var b strings.Builder
	b.WriteString("require (\n")
	for _, m := range mods {
		fmt.Fprintf(&b, "\t%s v0.0.0\n", m.Path)
	}
	b.WriteString(")\n\nreplace (\n")
	for _, m := range mods {
		fmt.Fprintf(&b, "\t%s => %s\n", m.Path, m.Dir)
	}
	b.WriteString(")\n")
	return b.String()
}

// Sums returns the go.sum files of mods, one after the other, so that a
// module built against them finds the checksums of their requirements.
func Sums(mods []Module) ([]byte, error) {
	var all []byte
	for _, m := range mods {
		sum, err := os.ReadFile(filepath.Join(m.Dir, "go.sum"))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a module without requirements
		}
		if err != nil {
			return nil, err
		}
		all = append(all, sum...)
	}
	return all, nil
}

// WriteModule writes go.mod and go.sum in dir for a module named name, at
// the Go version goVersion (as a go directive writes it), that uses every
// module of the checkout at root from its folder; extra is appended to
// go.mod as it is (more requirements, say).
func WriteModule(dir, root, name, goVersion, extra string) error {
	mods, err := Modules(root)
	if err != nil {
		return err
	}
	sums, err := Sums(mods)
	if err != nil {
		return err
	}
	gomod := "module " + name + "\n\ngo " + goVersion + "\n\n" + Directives(mods)
	if extra != "" {
		gomod += "\n" + extra
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), sums, 0o644)
}
