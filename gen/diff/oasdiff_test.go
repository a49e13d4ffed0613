package diff_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/diff"
	"github.com/resilientgo/resilient/gen/openapigen"
	"github.com/resilientgo/resilient/internal/testtier"
)

// oasdiffCase is one line of testdata/oasdiff/cases.tsv.
type oasdiffCase struct {
	line           int
	base, revision string
	// breaking is oasdiff's verdict: an error-level change among the
	// rules that concern a client.
	breaking bool
	rules    string
	// why is set when the Wire section is known to disagree.
	why string
}

func readOasdiffCases(t *testing.T) []oasdiffCase {
	t.Helper()
	f, err := os.Open("testdata/oasdiff/cases.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []oasdiffCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < 4 || len(fields) > 5 || fields[2] != "breaking" && fields[2] != "compatible" {
			t.Fatalf("testdata/oasdiff/cases.tsv:%d: want BASE, REVISION, breaking or compatible, RULES and an optional reason, tab-separated", n)
		}
		c := oasdiffCase{line: n, base: fields[0], revision: fields[1], breaking: fields[2] == "breaking", rules: fields[3]}
		if len(fields) == 5 {
			c.why = fields[4]
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// wireBreaking compares the two documents of a case and returns whether
// the Wire section has a breaking change, with the breaking changes.
func wireBreaking(dir, base, revision string) (bool, string, error) {
	load := func(name string) (diff.Input, error) {
		snap, err := openapigen.Snapshot(os.DirFS(dir), name, gen.OpenAPIOptions{})
		if err != nil {
			return diff.Input{}, err
		}
		return diff.Input{Name: name, Service: snap.Service}, nil
	}
	o, err := load(base)
	if err != nil {
		return false, "", err
	}
	n, err := load(revision)
	if err != nil {
		return false, "", err
	}
	var found []string
	for _, c := range diff.Compare(o, n).Changes {
		if c.Section == diff.SectionWire && c.Class == diff.Breaking {
			found = append(found, c.Rule+" "+c.Operation+": "+c.Subject)
		}
	}
	return len(found) > 0, strings.Join(found, "; "), nil
}

// TestOasdiffAgreement runs the Wire section on the pairs of oasdiff's
// own checker test data that concern a client (testdata/oasdiff) and
// compares its verdict, a breaking change or not, with oasdiff's.
//
// The pairs are every two different files a test of oasdiff's checker
// package loads and compares as written, in each order its tests use,
// and every NAME_base.yaml and NAME_revision.yaml of its data/checker in
// both orders. Of oasdiff's changes, those that do not concern a client
// are set aside: webhooks (the server calls them; a generated client
// does not), component security schemes and schemas no operation uses,
// and info.version. A pair left with none of its changes, or whose files
// differ only in webhooks, is not a case (skipped.tsv).
//
// A pair that disagrees must say why in cases.tsv, and a pair that says
// why must disagree, so that the list of disagreements stays the true
// one; the agreement is logged and must stay at 95 % or more.
func TestOasdiffAgreement(t *testing.T) {
	testtier.Slow(t)
	dir := filepath.Join("testdata", "oasdiff", "checker")
	cases := readOasdiffCases(t)
	agree := 0
	for _, c := range cases {
		got, detail, err := wireBreaking(dir, c.base, c.revision)
		verdict := func(b bool) string {
			if b {
				return "breaking"
			}
			return "compatible"
		}
		ours := verdict(got)
		if err != nil {
			ours = "refused: " + err.Error()
		}
		same := err == nil && got == c.breaking
		if same {
			agree++
		}
		switch {
		case !same && c.why == "":
			t.Errorf("cases.tsv:%d: %s → %s: oasdiff says %s (%s), the diff %s %s; fix the diff or give the reason in a fifth field", c.line, c.base, c.revision, verdict(c.breaking), c.rules, ours, detail)
		case same && c.why != "":
			t.Errorf("cases.tsv:%d: %s → %s: both say %s now; remove the reason %q", c.line, c.base, c.revision, ours, c.why)
		}
	}
	pct := 100 * float64(agree) / float64(len(cases))
	t.Logf("the Wire section agrees with oasdiff on %d of %d pairs (%.1f %%)", agree, len(cases), pct)
	if pct < 95 {
		t.Errorf("agreement %.1f %% is below 95 %%", pct)
	}
}
