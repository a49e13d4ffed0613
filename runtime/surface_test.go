package runtime_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxCoreSymbols bounds the lines `go doc -short` lists for the core
// package: what a user of a generated client programs against. Helpers
// only generated code calls live in codec, the server side in server,
// the fleet protocol in fleetstore, the classes of outcomes in outcome,
// the stream readers in stream, the route transport in route, the
// fallback store in fallbackstore. Lower the bound as the core shrinks,
// never raise it.
const maxCoreSymbols = 100

// coreSurface counts the lines `go doc -short` prints for the package in
// dir: one per top-level const or var group, function and type, and one
// per const or var group and constructor listed under a type.
func coreSurface(t *testing.T, dir string) (int, []string) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/resilientgo/resilient/runtime")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			lines = append(lines, strings.Join(v.Names, ","))
		}
	}
	funcs := func(fs []*doc.Func) {
		for _, f := range fs {
			lines = append(lines, f.Name)
		}
	}
	values(p.Consts)
	values(p.Vars)
	funcs(p.Funcs)
	for _, typ := range p.Types {
		lines = append(lines, typ.Name)
		values(typ.Consts)
		values(typ.Vars)
		funcs(typ.Funcs)
	}
	return len(lines), lines
}

// TestCoreSurface: the core package lists at most maxCoreSymbols symbols.
func TestCoreSurface(t *testing.T) {
	n, lines := coreSurface(t, ".")
	if n > maxCoreSymbols {
		t.Errorf("go doc -short lists %d symbols of the core runtime, above %d: move what only generated code calls to codec, server-side pieces to server, a topic of its own to a sub-package of its own, or unexport what nobody outside needs.\nThe listing: %s",
			n, maxCoreSymbols, strings.Join(lines, " "))
	}
}

// TestCoreSurfaceCounts: the count is the one `go doc -short` gives, on a
// package of known shape.
func TestCoreSurfaceCounts(t *testing.T) {
	dir := t.TempDir()
	src := `// Package p is a test.
package p

// A is a group of two.
const (
	A = 1
	B = 2
)

// C alone.
const C = 3

// E is an error.
var E error

// T is a type.
type T int

// T1 and T2 are Ts.
const (
	T1 T = iota
	T2
)

// NewT makes a T.
func NewT() T { return 0 }

// M is a method, not listed.
func (T) M() {}

// F is a function.
func F() {}

type hidden int

// G returns an unexported type.
func G() hidden { return 0 }
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// const A group, const C, var E, func F, func G, type T, its const
	// group, NewT: 8, as go doc -short prints.
	if n, lines := coreSurface(t, dir); n != 8 {
		t.Errorf("counted %d (%v), want 8", n, lines)
	}
}
