package diag_test

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// TestCatalogue: every rule is listed once, its ID says its severity, and
// its doc line is one line.
func TestCatalogue(t *testing.T) {
	seen := map[diag.Rule]bool{}
	id := regexp.MustCompile(`^[EW]-[A-Z0-9]+(-[A-Z0-9]+)*$`)
	for _, r := range diag.Rules() {
		switch {
		case seen[r.Rule]:
			t.Errorf("%s is listed twice", r.Rule)
		case !id.MatchString(string(r.Rule)):
			t.Errorf("%s is not a rule ID (E-WORDS or W-WORDS)", r.Rule)
		case r.Doc == "" || strings.ContainsAny(r.Doc, "\n\t") || strings.HasSuffix(r.Doc, "."):
			t.Errorf("%s: doc %q, want one line without a final period", r.Rule, r.Doc)
		case r.Tools == 0:
			t.Errorf("%s is reported by no command", r.Rule)
		case r.Rule.IsWarning() && r.Unusable:
			t.Errorf("%s is a warning that makes the input unusable", r.Rule)
		}
		seen[r.Rule] = true
		if r.Rule.Doc() != r {
			t.Errorf("%s.Doc() = %+v, want %+v", r.Rule, r.Rule.Doc(), r)
		}
	}
	if got := diag.Rule("E-NOT-A-RULE").Doc(); got != (diag.RuleDoc{}) {
		t.Errorf("Doc of a rule outside the catalogue = %+v, want the zero RuleDoc", got)
	}
}

// TestUnusable: the rules of input that cannot be used at all, by which
// oapi-resilient chooses its exit status.
func TestUnusable(t *testing.T) {
	tests := []struct {
		rule diag.Rule
		want bool
	}{
		{diag.RuleYAML, true}, {diag.RuleRead, true}, {diag.RuleVersion, true}, {diag.RuleRefUnresolved, true},
		{diag.RuleRefExternal, true}, {diag.RuleRefCycle, true}, {diag.RuleDupOpID, true}, {diag.RuleOpenAPI, true},
		{diag.RuleLoad, true}, {diag.RuleInternal, true}, {diag.RuleEmit, true},
		{diag.RuleRetryUnsafe, false}, {diag.RuleDuration, false}, {diag.RuleUnknownKey, false},
		{diag.RuleNameCollision, false}, {diag.RuleUnused, false}, {diag.RuleFallbackValue, false},
	}
	for _, tc := range tests {
		if got := tc.rule.Doc().Unusable; got != tc.want {
			t.Errorf("%s: Unusable = %v, want %v", tc.rule, got, tc.want)
		}
	}
}

// ruleLiteral is a rule ID written as a Go string of its own.
var ruleLiteral = regexp.MustCompile(`"[EW]-[A-Z0-9]+(-[A-Z0-9]+)*"`)

// TestNoRuleOutsideTheCatalogue: the module's code names rules only
// through the catalogue's constants, so that no rule escapes the
// catalogue and the commands' documentation. Tests, which check the
// text of diagnostics, and generated files may spell them out.
func TestNoRuleOutsideTheCatalogue(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case "examples", "golden", filepath.Join("policyspec", "diag"), "testdata":
				return filepath.SkipDir
			}
			if strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, ".gen.go") || strings.HasSuffix(path, ".pb.go") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		s := bufio.NewScanner(f)
		for n := 1; s.Scan(); n++ {
			if lit := ruleLiteral.FindString(s.Text()); lit != "" && !strings.HasPrefix(strings.TrimSpace(s.Text()), "//") {
				t.Errorf("%s:%d: rule %s written as a string; use the constant of package diag (add the rule to diag.Rules if it is new)", rel, n, lit)
			}
		}
		return s.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDiagnosticError: one diagnostic is one line of text, whatever its
// path holds.
func TestDiagnosticError(t *testing.T) {
	long := strings.Repeat("k", 130)
	tests := []struct {
		name string
		d    diag.Diagnostic
		want string
	}{
		{"everything", diag.Diagnostic{Location: diag.Location{File: "api.yaml", Line: 9, Col: 9, Path: "#/x-resilience/timeout"}, Rule: diag.RuleTimeoutOrder, Message: "attemptTimeout 2s must be below timeout 1s", Fix: "lower it"},
			"api.yaml:9:9: E-TIMEOUT-ORDER: attemptTimeout 2s must be below timeout 1s (#/x-resilience/timeout); lower it"},
		{"no position", diag.Diagnostic{Rule: diag.RuleInternal, Message: "boom"}, "E-INTERNAL: boom"},
		{"a line without a file", diag.Diagnostic{Location: diag.Location{Line: 3, Col: 2}, Rule: diag.RuleYAML, Message: "bad"}, "3:2: E-YAML: bad"},
		{"a path over lines", diag.Diagnostic{Location: diag.Location{File: "p.yaml", Path: "/dependencies/a\nb"}, Rule: diag.RuleUnused, Message: "m"},
			"p.yaml: E-POLICY-UNUSED: m (/dependencies/a…)"},
		{"control characters in a path", diag.Diagnostic{Location: diag.Location{File: "p.yaml", Path: "/a\x1bb"}, Rule: diag.RuleUnused, Message: "m"},
			`p.yaml: E-POLICY-UNUSED: m (/a\x1bb)`},
		{"a long path", diag.Diagnostic{Location: diag.Location{Path: "/" + long}, Rule: diag.RuleUnused, Message: "m"},
			"E-POLICY-UNUSED: m (/" + strings.Repeat("k", 119) + "…)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.d.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestList: a list reports its errors sorted and without duplicates, and
// its warnings apart; as an error, errors.As reaches each diagnostic.
func TestList(t *testing.T) {
	at := func(line int) diag.Location { return diag.Location{File: "a.yaml", Line: line} }
	var l diag.List
	l.Errorf(at(9), diag.RuleRange, "late", "")
	l.Warnf(at(1), diag.RuleShadowed, "shadowed", "")
	l.Errorf(at(2), diag.RuleType, "early", "")
	l.Errorf(at(2), diag.RuleType, "early", "")
	if !l.HasErrors() {
		t.Error("HasErrors() = false")
	}
	var got []string
	for _, d := range diag.From(l.Err()) {
		got = append(got, d.Error())
	}
	if diff := cmp.Diff([]string{"a.yaml:2: E-TYPE: early", "a.yaml:9: E-RANGE: late"}, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if w := l.Warnings(); len(w) != 1 || w[0].Rule != diag.RuleShadowed {
		t.Errorf("Warnings() = %v, want the W-SHADOWED one", w)
	}
	var d diag.Diagnostic
	if !errors.As(l.Err(), &d) || d.Message != "early" {
		t.Errorf("errors.As(l.Err()) = %v, want the first error", d)
	}
	var warnOnly diag.List
	warnOnly.Warnf(at(1), diag.RuleShadowed, "shadowed", "")
	if err := warnOnly.Err(); err != nil {
		t.Errorf("Err() of warnings only = %v, want nil", err)
	}
}

// TestFrom: From takes apart every form an error of the generator takes.
func TestFrom(t *testing.T) {
	a := diag.Diagnostic{Rule: diag.RuleType, Message: "a"}
	b := diag.Diagnostic{Rule: diag.RuleRange, Message: "b", Severity: diag.Warning}
	tests := []struct {
		name string
		err  error
		want diag.List
	}{
		{"nil", nil, nil},
		{"one", a, diag.List{a}},
		{"a list, severities kept", diag.List{a, b}, diag.List{a, b}},
		{"joined", errors.Join(a, diag.List{b}), diag.List{a, b}},
		{"wrapped", fmt.Errorf("context: %w", a), diag.List{a}},
		{"anything else, first line", errors.New("disk on fire\nsecond line"), diag.List{{Rule: diag.RuleInternal, Message: "disk on fire"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, diag.From(tt.err)); diff != "" {
				t.Errorf("From mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLocation(t *testing.T) {
	l := diag.Location{File: "api.yaml", Line: 3, Col: 5, Path: "#/paths"}
	if got := l.Child("/pets").Path; got != "#/paths/~1pets" {
		t.Errorf("Child = %q, want the escaped pointer", got)
	}
	if got := (diag.Location{Path: "p.S"}).Child("A").Path; got != "p.S.A" {
		t.Errorf("Child of a proto name = %q, want p.S.A", got)
	}
	if got := l.At(7, 1).String(); got != "api.yaml:7:1" {
		t.Errorf("At = %q", got)
	}
	if got := (diag.Location{Path: "p.S"}).String(); got != "p.S" {
		t.Errorf("String without position = %q, want the path", got)
	}
	if !l.Before(l.At(4, 1)) || l.At(4, 1).Before(l) || l.Before(l) {
		t.Error("Before does not order by line")
	}
}

// TestStrict: the warnings of sloppy input become errors of catalogued
// error rules; every other diagnostic stays as it is.
func TestStrict(t *testing.T) {
	for _, r := range diag.Rules() {
		d := diag.Diagnostic{Rule: r.Rule, Message: "m", Severity: diag.Warning}
		if !r.Rule.IsWarning() {
			d.Severity = diag.Error
		}
		got := d.Strictly()
		s := r.Rule.Strict()
		switch {
		case s == "" && got != d:
			t.Errorf("%s: Strictly() = %+v, want it unchanged", r.Rule, got)
		case s != "" && (!r.Rule.IsWarning() || s.IsWarning() || s.Doc().Rule != s || got.Rule != s || got.Severity != diag.Error):
			t.Errorf("%s: Strict() = %s, Strictly() = %+v; want a catalogued error rule for a warning", r.Rule, s, got)
		}
	}
	if diag.RuleOpenAPIWarning.Strict() != diag.RuleOpenAPI {
		t.Errorf("W-OPENAPI.Strict() = %s, want E-OPENAPI", diag.RuleOpenAPIWarning.Strict())
	}
	for _, r := range []diag.Rule{diag.RuleKeywordType, diag.RuleRefSchema} {
		if r.Strict() != diag.RuleLoad {
			t.Errorf("%s.Strict() = %s, want E-LOAD: the loader refuses what was repaired", r, r.Strict())
		}
	}
}
