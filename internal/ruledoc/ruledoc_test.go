package ruledoc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// TestCheck: a section that lists every rule of a command with the
// catalogue's doc line passes; a missing rule, another doc line, a rule of
// the other command and an unknown rule are reported.
func TestCheck(t *testing.T) {
	var complete []string
	for _, r := range diag.Rules() {
		if r.Tools&diag.Proto != 0 {
			complete = append(complete, "//\t"+string(r.Rule)+"  "+r.Doc)
		}
	}
	doc := func(lines ...string) string {
		return "// Command x.\n//\n// # Rules\n//\n" + strings.Join(lines, "\n") + "\n//\n// # Next\npackage main\n"
	}
	without := func(rule diag.Rule) []string {
		var out []string
		for _, l := range complete {
			if !strings.HasPrefix(l, "//\t"+string(rule)+" ") {
				out = append(out, l)
			}
		}
		return out
	}
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"complete", doc(complete...), nil},
		{"a rule missing", doc(without(diag.RuleEdition)...),
			[]string{"E-EDITION-UNSUPPORTED is missing; add the line\n//\tE-EDITION-UNSUPPORTED  " + diag.RuleEdition.Doc().Doc}},
		{"another doc line", doc(append(without(diag.RuleEdition), "//\tE-EDITION-UNSUPPORTED  too new")...),
			[]string{`E-EDITION-UNSUPPORTED reads "too new", the catalogue "` + diag.RuleEdition.Doc().Doc + `"`}},
		{"a rule of the other command", doc(append(complete, "//\tE-PATH-DOT  "+diag.RulePathDot.Doc().Doc)...),
			[]string{"E-PATH-DOT is listed, but the command does not report it"}},
		{"an unknown rule", doc(append(complete, "//\tE-NOPE  nothing")...),
			[]string{"E-NOPE is listed but is not in the catalogue"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "doc.go")
			if err := os.WriteFile(path, []byte(tt.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Check(path, diag.Proto)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Check mismatch (-want +got):\n%s", diff)
			}
		})
	}
	path := filepath.Join(t.TempDir(), "doc.go")
	os.WriteFile(path, []byte("// Command x.\npackage main\n"), 0o644)
	if _, err := Check(path, diag.Proto); err == nil {
		t.Error("Check of a doc without a # Rules section: no error")
	}
}
