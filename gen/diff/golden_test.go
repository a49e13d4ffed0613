package diff_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/diff"
	"github.com/resilientgo/resilient/gen/openapigen"
)

var update = flag.Bool("update", false, "rewrite the expected reports of the golden diff cases")

// loadOpenAPI loads name of dir as a diff input, with the policy file
// policy of dir when it exists.
func loadOpenAPI(t *testing.T, dir, name, policy string) diff.Input {
	t.Helper()
	opts := gen.OpenAPIOptions{}
	if data, err := os.ReadFile(filepath.Join(dir, policy)); err == nil {
		opts.PolicyName, opts.PolicyData = policy, data
	}
	snap, err := openapigen.Snapshot(os.DirFS(dir), name, opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	api, err := diff.ParseGoAPI(name, snap.Code)
	if err != nil {
		t.Fatal(err)
	}
	return diff.Input{Name: name, Service: snap.Service, API: api, PolicyErrors: snap.PolicyErrors}
}

// caseReport compares the two versions of a golden case: old.yaml and
// new.yaml (OpenAPI, with policy.yaml, or old.policy.yaml and
// new.policy.yaml), or old.proto and new.proto.
func caseReport(t *testing.T, dir string) *diff.Report {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "old.proto")); err == nil {
		return protoCase(t, dir)
	}
	oldPolicy, newPolicy := "policy.yaml", "policy.yaml"
	if _, err := os.Stat(filepath.Join(dir, "old.policy.yaml")); err == nil {
		oldPolicy, newPolicy = "old.policy.yaml", "new.policy.yaml"
	}
	return diff.Compare(loadOpenAPI(t, dir, "old.yaml", oldPolicy), loadOpenAPI(t, dir, "new.yaml", newPolicy))
}

// TestGolden compares the text and JSON reports of every case of
// testdata/cases with want.txt and want.json; -update rewrites them.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/cases/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	seen := map[string]bool{}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r := caseReport(t, dir)
			js, err := r.JSON()
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range r.Changes {
				seen[c.Rule+" "+string(c.Class)] = true
				seen[c.Rule] = true
			}
			for name, got := range map[string][]byte{"want.txt": []byte(r.Text()), "want.json": js, "want.md": []byte(r.Markdown())} {
				file := filepath.Join(dir, name)
				if *update {
					if err := os.WriteFile(file, got, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (run go test ./gen/diff -update)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs; got:\n%s", file, got)
				}
			}
			var back struct {
				Schema  string
				Changes []diff.Change
			}
			if err := json.Unmarshal(js, &back); err != nil || back.Schema != diff.SchemaVersion || len(back.Changes) != len(r.Changes) {
				t.Errorf("JSON does not read back: %v", err)
			}
		})
	}
	// Every rule id, in every class it may give, is shown by a case.
	var missing []string
	for _, rule := range diff.Rules() {
		for _, c := range rule.Classes {
			if !seen[rule.ID+" "+string(c)] {
				missing = append(missing, rule.ID+" ("+string(c)+")")
			}
		}
	}
	if len(missing) > 0 && !t.Failed() {
		t.Errorf("no golden case shows %s", strings.Join(missing, ", "))
	}
}

// TestRulesDocumented: every rule id is in the package documentation
// and in the catalogue once.
func TestRulesDocumented(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range diff.Rules() {
		if !bytes.Contains(doc, []byte(r.ID+" ")) {
			t.Errorf("%s is not in doc.go", r.ID)
		}
		ids = append(ids, r.ID)
	}
	sort.Strings(ids)
	if c := slices.Compact(slices.Clone(ids)); len(c) != len(ids) {
		t.Errorf("a rule id is listed twice: %q", ids)
	}
}
