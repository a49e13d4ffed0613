// Command complexity enforces the repository's rule on the cyclomatic
// complexity of functions: in the trees it is given (.ci/run gives runtime
// and gen), tests and generated files aside,
//
//   - no function above 25;
//   - at most 5 functions above 15, each of them a switch dispatch: its
//     body holds a switch statement and its doc comment says why with a
//     line containing "switch dispatch".
//
// The complexity is gocyclo's (github.com/fzipp/gocyclo): 1, plus one for
// each if, for, range, non-default case, non-default select case, && and
// ||, closures included. The command lists every function above 15, those
// that break the rule marked, and exits with status 1 when the rule is
// broken:
//
//	go run ./internal/complexity -debt internal/complexity/debt.txt runtime gen
//
// The debt file lists, one a line as "complexity name file", the functions
// that broke the rule when it was introduced and are still to be split: a
// listed function may stay as complex as listed, never more, and a listed
// function that no longer breaks the rule must leave the list (the check
// says so), so that the list only shrinks. Every other function follows
// the rule.
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The limits of the rule.
const (
	maxComplexity = 25 // no function above
	highLimit     = 15 // functions above it must be switch dispatches
	maxHigh       = 5  // and at most this many of them
)

func main() {
	args := os.Args[1:]
	debt := map[string]int{}
	if len(args) >= 2 && args[0] == "-debt" {
		var err error
		if debt, err = readDebt(args[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		args = args[2:]
	}
	if len(args) < 1 {
		fmt.Fprintln(os.Stderr, "usage: complexity [-debt FILE] dir...")
		os.Exit(2)
	}
	var funcs []fn
	for _, dir := range args {
		found, err := scanTree(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		funcs = append(funcs, found...)
	}
	if !report(os.Stdout, funcs, debt) {
		os.Exit(1)
	}
}

// readDebt reads a debt file: lines "complexity name file", blank lines
// and lines starting with # aside. The key is "name file".
func readDebt(path string) (map[string]int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	debt := map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var c int
		var name, file string
		if n, err := fmt.Sscanf(line, "%d %s %s", &c, &name, &file); n != 3 || err != nil {
			return nil, fmt.Errorf("%s:%d: want \"complexity name file\", got %q", path, i+1, line)
		}
		debt[name+" "+file] = c
	}
	return debt, nil
}

// debtKey is the key of f in a debt file: its name and file.
func debtKey(f fn) string {
	file, _, _ := strings.Cut(f.pos, ":")
	return f.name + " " + file
}

// fn is one function declaration and what the rule needs to know of it.
type fn struct {
	pos        string // file:line
	name       string // "(*T).Method" or "Func"
	complexity int
	// dispatch is true when the body holds a switch and the doc comment
	// says it is a switch dispatch.
	dispatch bool
}

// report writes the functions above the limit, sorted by complexity,
// and the verdict; it returns whether the rule holds. A function listed in
// debt may keep the complexity listed (see the package documentation).
func report(w io.Writer, funcs []fn, debt map[string]int) bool {
	var high []fn
	owed, seen := 0, map[string]bool{}
	ok := true
	for _, f := range funcs {
		limit, listed := debt[debtKey(f)]
		seen[debtKey(f)] = listed
		switch {
		case listed && f.complexity <= highLimit:
			fmt.Fprintf(w, "✗  %s %s: now %d, no longer above %d: remove it from the debt file\n", f.name, f.pos, f.complexity, highLimit)
			ok = false
		case listed && f.complexity > limit:
			fmt.Fprintf(w, "✗ %3d %s %s: listed as debt at %d, and debt may not grow: split it\n", f.complexity, f.name, f.pos, limit)
			ok = false
		case listed:
			owed++
		case f.complexity > highLimit:
			high = append(high, f)
		}
	}
	for k := range debt {
		if !seen[k] {
			fmt.Fprintf(w, "✗  %s: listed as debt but not found: remove it from the debt file\n", k)
			ok = false
		}
	}
	slices.SortStableFunc(high, func(a, b fn) int { return b.complexity - a.complexity })
	ok = ok && len(high) <= maxHigh
	for _, f := range high {
		var why []string
		if f.complexity > maxComplexity {
			why = append(why, fmt.Sprintf("above %d", maxComplexity))
			ok = false
		}
		if !f.dispatch {
			why = append(why, `not a switch dispatch with a doc comment saying "switch dispatch"`)
			ok = false
		}
		mark := "  "
		if len(why) > 0 {
			mark = "✗ "
		}
		fmt.Fprintf(w, "%s%3d %s %s", mark, f.complexity, f.name, f.pos)
		if len(why) > 0 {
			fmt.Fprintf(w, ": %s", strings.Join(why, "; "))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d functions above %d (at most %d allowed, each a documented switch dispatch, none above %d); %d more listed as debt, none grown\n",
		len(high), highLimit, maxHigh, maxComplexity, owed)
	if !ok {
		fmt.Fprintln(w, "FAIL: split the functions marked ✗ into well-named helpers")
	}
	return ok
}

// scanTree returns the functions of the Go files under dir, tests and
// generated files aside.
func scanTree(dir string) ([]fn, error) {
	var out []fn
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		out = append(out, fileFuncs(fset, f)...)
		return nil
	})
	return out, err
}

// fileFuncs returns the function declarations of one file.
func fileFuncs(fset *token.FileSet, f *ast.File) []fn {
	var out []fn
	for _, d := range f.Decls {
		decl, ok := d.(*ast.FuncDecl)
		if !ok || decl.Body == nil {
			continue
		}
		p := fset.Position(decl.Pos())
		out = append(out, fn{
			pos:        fmt.Sprintf("%s:%d", filepath.ToSlash(p.Filename), p.Line),
			name:       funcName(decl),
			complexity: complexity(decl),
			dispatch:   hasSwitch(decl.Body) && strings.Contains(decl.Doc.Text(), "switch dispatch"),
		})
	}
	return out
}

// funcName names a function as gocyclo does: "(*T).M", "(T).M" or "F".
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	return "(" + typeName(d.Recv.List[0].Type) + ")." + d.Name.Name
}

func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return "*" + typeName(t.X)
	case *ast.IndexExpr:
		return typeName(t.X)
	case *ast.IndexListExpr:
		return typeName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// complexity is gocyclo's cyclomatic complexity of a function.
func complexity(d *ast.FuncDecl) int {
	c := 1
	ast.Inspect(d, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// hasSwitch reports whether the body holds a switch or type switch
// statement, closures aside.
func hasSwitch(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.SwitchStmt, *ast.TypeSwitchStmt:
			found = true
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}
