package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

const sample = `package p

func flat() {}

func branches(a, b bool, xs []int) int {
	if a && b || !a { // if, &&, ||
		return 1
	}
	for range xs { // range
	}
	for i := 0; i < 3; i++ { // for
	}
	switch { // two cases, the default does not count
	case a:
	case b:
	default:
	}
	f := func() {
		if b { // closures count
		}
	}
	f()
	return 0
}

// kind picks one of many: a switch dispatch over the kinds.
func (k *K) kind() {
	switch {
	}
}

type K struct{}
`

// TestComplexityIsGocyclos: the counts are gocyclo's, closures included,
// and the dispatch mark needs both the switch and the doc comment.
func TestComplexityIsGocyclos(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", sample, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]fn{}
	for _, x := range fileFuncs(fset, f) {
		got[x.name] = x
	}
	for name, want := range map[string]int{"flat": 1, "branches": 9, "(*K).kind": 1} {
		if got[name].complexity != want {
			t.Errorf("%s: complexity %d, want %d", name, got[name].complexity, want)
		}
	}
	if !got["(*K).kind"].dispatch || got["branches"].dispatch {
		t.Errorf("dispatch marks: kind %v, branches %v", got["(*K).kind"].dispatch, got["branches"].dispatch)
	}
}

// TestReport: the rule fails on a function above 25, on a function above
// 15 that is not a documented switch dispatch, and on a sixth dispatch
// above 15; it holds otherwise.
func TestReport(t *testing.T) {
	d := func(c int) fn { return fn{name: "f", pos: "x.go:1", complexity: c, dispatch: true} }
	for _, tc := range []struct {
		funcs []fn
		ok    bool
	}{
		{[]fn{d(15), d(15), d(16), d(25)}, true},
		{[]fn{d(26)}, false},
		{[]fn{{name: "g", pos: "x.go:2", complexity: 16}}, false},
		{[]fn{d(16), d(16), d(16), d(16), d(16)}, true},
		{[]fn{d(16), d(16), d(16), d(16), d(16), d(16)}, false},
	} {
		var out bytes.Buffer
		if ok := report(&out, tc.funcs, nil); ok != tc.ok {
			t.Errorf("%v: ok = %v, want %v\n%s", tc.funcs, ok, tc.ok, out.String())
		}
		if !tc.ok && !strings.Contains(out.String(), "FAIL") {
			t.Errorf("%v: the report does not say FAIL:\n%s", tc.funcs, out.String())
		}
	}
}

// TestReportDebt: a function listed as debt may stay as complex as
// listed, never more; a listed function that no longer breaks the rule,
// or is gone, must leave the list; the rest follow the rule.
func TestReportDebt(t *testing.T) {
	g := func(c int) fn { return fn{name: "g", pos: "x.go:2", complexity: c} }
	debt := map[string]int{"g x.go": 30}
	for _, tc := range []struct {
		name  string
		funcs []fn
		debt  map[string]int
		ok    bool
	}{
		{"as listed", []fn{g(30)}, debt, true},
		{"less, still above", []fn{g(20)}, debt, true},
		{"grown", []fn{g(31)}, debt, false},
		{"split: leaves the list", []fn{g(12)}, debt, false},
		{"gone: leaves the list", []fn{{name: "h", pos: "y.go:1", complexity: 3}}, debt, false},
		{"not listed", []fn{g(30)}, nil, false},
	} {
		var out bytes.Buffer
		if ok := report(&out, tc.funcs, tc.debt); ok != tc.ok {
			t.Errorf("%s: ok = %v, want %v\n%s", tc.name, ok, tc.ok, out.String())
		}
	}
}
