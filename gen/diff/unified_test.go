package diff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnifiedEqual(t *testing.T) {
	if got := Unified("a", "b", []byte("x\ny\n"), []byte("x\ny\n")); got != "" {
		t.Fatalf("equal inputs: got %q", got)
	}
}

// TestUnifiedMatchesDiff compares the output with diff -u's on edits of a
// generated-looking file, and checks that applying the hunks with patch
// gives the new file back.
func TestUnifiedMatchesPatch(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("no patch command")
	}
	var base []string
	for i := range 60 {
		base = append(base, "line "+strings.Repeat("x", i%7)+string(rune('a'+i%26)))
	}
	join := func(l []string) string { return strings.Join(l, "\n") + "\n" }
	cases := map[string][2]string{
		"change":    {join(base), join(append(append(append([]string{}, base[:10]...), "changed"), base[11:]...))},
		"add end":   {join(base), join(append(append([]string{}, base...), "new", "lines"))},
		"drop all":  {join(base), ""},
		"from nil":  {"", join(base[:5])},
		"no eol":    {join(base[:5]), join(base[:5]) + "tail"},
		"scattered": {join(base), join(append(append(append(append([]string{"head"}, base[:20]...), base[21:40]...), "mid"), base[45:]...))},
	}
	var many, other []string
	for i := range 3000 {
		many = append(many, strings.Repeat("m", i%5)+string(rune('a'+i%26)))
		other = append(other, strings.Repeat("o", i%3)+string(rune('a'+i%26)))
	}
	// Past maxEditDistance the middle is replaced whole.
	cases["beyond the edit bound"] = [2]string{join(many), join(other)}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			f := filepath.Join(dir, "f")
			if err := os.WriteFile(f, []byte(c[0]), 0o644); err != nil {
				t.Fatal(err)
			}
			d := Unified("f", "f", []byte(c[0]), []byte(c[1]))
			if d == "" {
				t.Fatal("no diff")
			}
			cmd := exec.Command(patch, "-s", f)
			cmd.Stdin = strings.NewReader(d)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("patch: %v\n%s\ndiff:\n%s", err, out, d)
			}
			got, _ := os.ReadFile(f)
			if string(got) != c[1] {
				t.Fatalf("patched file differs:\n%q\nwant\n%q\ndiff:\n%s", got, c[1], d)
			}
		})
	}
}
