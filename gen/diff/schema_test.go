package diff_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/resilientgo/resilient/gen/diff"
)

// TestJSONSchema: the JSON report of every golden case validates against
// report.schema.json, whose rule ids are the catalogue's.
func TestJSONSchema(t *testing.T) {
	raw, err := os.ReadFile("report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("report.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var decl struct {
		Defs struct {
			Change struct {
				Properties struct {
					Rule struct{ Enum []string }
				}
			}
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &decl); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range diff.Rules() {
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	if got := slices.Sorted(slices.Values(decl.Defs.Change.Properties.Rule.Enum)); !slices.Equal(got, ids) {
		t.Errorf("the schema's rule ids %q are not the catalogue's %q", got, ids)
	}
	files, _ := filepath.Glob("testdata/cases/*/want.json")
	if len(files) == 0 {
		t.Fatal("no want.json")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
