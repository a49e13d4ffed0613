package policyspec

import (
	"strings"
	"testing"

	"github.com/resilientgo/resilient/runtime"
)

func TestMDText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Swagger Petstore", "Swagger Petstore"},
		{"swagger_petstore/GetPet", "swagger_petstore/GetPet"},
		{"a|b", `a\|b`},
		{"two\nlines\r\nand\ttabs", "two lines and tabs"},
		{"  padded  ", "padded"},
		{"sep\u2028line\u0085next", "sep line next"},
		{"<!-- hidden", `\<!-- hidden`},
		{"<script>x</script>", `\<script\>x\</script\>`},
		{"`code` [link](http://x) ![img](y)", "\\`code\\` \\[link\\](http://x) !\\[img\\](y)"},
		{"Title ##", `Title \#\#`},
		{`back\slash`, `back\\slash`},
		{"AT&T &#124;", `AT\&T \&\#124;`},
		{"- item", `\- item`},
		{"+ item", `\+ item`},
		{"===", `\===`},
		{"1. first", `1\. first`},
		{"12) twelfth", `12\) twelfth`},
		{"2024 report", "2024 report"},
		{"> quote", `\> quote`},
		{"nul\x00and\ufeffbom", "nul and bom"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := mdText(tt.in); got != tt.want {
			t.Errorf("mdText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestReviewCannotBeForged renders a review whose service, dependency and
// operation names try to add rows, hide the table in an HTML comment, add
// headings and links, and checks the structure: one heading line, the
// header, the separator and one line per operation, each with exactly
// seven cells, and no raw "<", ">", "`", "[" or "]" anywhere.
func TestReviewCannotBeForged(t *testing.T) {
	d, err := ResolveDependency("evil|dep\n| fake/Op (HTTP) | 1 ms | 5 retries | x | x | x | yes |")
	if err != nil {
		t.Fatal(err)
	}
	var ops []*Operation
	for _, name := range []string{"Get<!--", "Post\n\n## Approved", "`x`[click](http://evil)", "Put -->"} {
		op, err := d.ResolveOperation(name, runtime.ReadOnly)
		if err != nil {
			t.Fatal(err)
		}
		ops = append(ops, op)
	}
	title := "Payments\n| payments/CreatePayment (HTTP) | 1 s / 2 s | 2, full jitter | - | - | none | yes |\n<!--"
	for _, mode := range []ReviewMode{ReviewPerOperation, ReviewPerDependency} {
		out := RenderReview(title, []ReviewDependency{{Dependency: d, Protocol: "HTTP\n<b>", Operations: ops}}, mode)
		rows := len(ops)
		if mode == ReviewPerDependency {
			rows = 1
		}
		checkReviewStructure(t, out, rows)
	}
}

// checkReviewStructure checks the invariants of a rendered review with
// rows table rows.
func checkReviewStructure(t *testing.T, out string, rows int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "## Resilience review: ") {
		t.Fatalf("first line %q is not the heading", lines[0])
	}
	table := 0
	for i, l := range lines {
		if i > 0 && strings.HasPrefix(l, "#") {
			t.Errorf("line %d is a second heading: %q", i+1, l)
		}
		if strings.HasPrefix(l, "|") {
			table++
			if n := unescapedPipes(l); n != 8 || !strings.HasSuffix(l, " |") && i != 2 {
				t.Errorf("line %d has %d cell separators, want 8: %q", i+1, n, l)
			}
		}
		if i < 3+rows && !strings.HasPrefix(l, "|") && i > 0 {
			t.Errorf("line %d should be a table line: %q", i+1, l)
		}
		for _, c := range []string{"<", ">", "`", "[", "]"} {
			if unescaped(l, c[0]) {
				t.Errorf("line %d holds a raw %q: %q", i+1, c, l)
			}
		}
	}
	if table != 2+rows {
		t.Errorf("%d table lines, want %d:\n%s", table, 2+rows, out)
	}
}

// unescapedPipes counts the "|" of l that no backslash escapes.
func unescapedPipes(l string) int {
	n := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

// unescaped reports whether l holds c without a backslash before it.
func unescaped(l string, c byte) bool {
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '\\':
			i++
		case c:
			return true
		}
	}
	return false
}
