package gen

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

func TestParseFilters(t *testing.T) {
	got, err := ParseFilters("tag:pets, path:/stores/,op:getPet,/users")
	if err != nil {
		t.Fatal(err)
	}
	want := []Filter{{"tag", "pets"}, {"path", "/stores/"}, {"op", "getPet"}, {"path", "/users"}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("filter %d: got %v, want %v", i, got[i], want[i])
		}
	}
	for _, bad := range []string{"pets", "kind:x", "tag:"} {
		if _, err := ParseFilters(bad); err == nil {
			t.Errorf("ParseFilters(%q): no error", bad)
		}
	}
}

const selectSpec = `openapi: 3.0.3
info: {title: Shop, version: "1"}
paths:
  /pets/{id}:
    get:
      operationId: getPet
      tags: [pets]
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
  /stores:
    get:
      operationId: listStores
      tags: [stores]
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Store"}}}}}
components:
  schemas:
    Pet:
      type: object
      properties:
        owner: {$ref: "#/components/schemas/Owner"}
        kind: {$ref: "#/components/schemas/Kind"}
    Owner: {type: object, properties: {name: {type: string}, pets: {type: array, items: {$ref: "#/components/schemas/Pet"}}}}
    Kind: {type: string, enum: [cat, dog]}
    Store: {type: object, properties: {name: {type: string}}}
    Unused: {type: object, properties: {x: {type: string}}}
`

// TestSelectOperations: only the selected operations and the types they
// reach, through cycles, are generated; filters that select nothing warn,
// and a selection left empty is an error.
func TestSelectOperations(t *testing.T) {
	fsys := fstest.MapFS{"openapi.yaml": {Data: []byte(selectSpec)}}
	res, err := OpenAPI(fsys, "openapi.yaml", OpenAPIOptions{Package: "shop",
		Include: []Filter{{"tag", "pets"}, {"tag", "nothing"}}})
	if err != nil {
		t.Fatal(err)
	}
	code := string(res.Code)
	for _, want := range []string{"func (c *Client) GetPet(", "type Pet struct", "type Owner struct", "type Kind string"} {
		if !strings.Contains(code, want) {
			t.Errorf("the client lacks %q", want)
		}
	}
	for _, absent := range []string{"ListStores", "type Store struct", "type Unused struct"} {
		if strings.Contains(code, absent) {
			t.Errorf("the client has %q", absent)
		}
	}
	if len(res.Warnings) != 1 || res.Warnings[0].Rule != diag.RuleSelectUnused {
		t.Errorf("warnings = %v, want one %s", res.Warnings, diag.RuleSelectUnused)
	}

	_, err = OpenAPI(fsys, "openapi.yaml", OpenAPIOptions{Package: "shop", Exclude: []Filter{{"path", "/"}}})
	if ds := diag.From(err); len(ds) != 1 || ds[0].Rule != diag.RuleSelectEmpty {
		t.Errorf("excluding everything: %v, want %s", err, diag.RuleSelectEmpty)
	}
}

func TestOperationPart(t *testing.T) {
	for tag, want := range map[string]string{"pets": "pets", "Pet Stores": "pet_stores", "users.user": "users_user", "--x--y--": "x_y", "日本": "", "driveItem": "driveitem"} {
		if got := operationPart(&ir.Operation{Tags: []string{tag}}); got != want {
			t.Errorf("operationPart(%q) = %q, want %q", tag, got, want)
		}
	}
	if got := operationPart(&ir.Operation{}); got != "" {
		t.Errorf("no tag: %q", got)
	}
}

// TestOperationParts: operations without a tag go to the file of their
// path's first segment, and no part holds more than OperationsPerFile
// operations, the rest continuing in numbered parts in order.
func TestOperationParts(t *testing.T) {
	var ops []*ir.Operation
	add := func(n int, path string, tags ...string) {
		for range n {
			ops = append(ops, &ir.Operation{Path: path, Tags: tags})
		}
	}
	add(OperationsPerFile+1, "/users/{id}", "users")
	add(2, "/me/events")
	add(1, "/{tenant}/items")
	add(1, "/")
	add(1, "/v1.0?x=1")
	parts := operationParts(ops)
	count := map[string]int{}
	for _, op := range ops {
		count[parts[op]]++
	}
	want := map[string]int{"users": OperationsPerFile, "users_2": 1, "path_me": 2, "": 2, "path_v1_0": 1}
	if !maps.Equal(count, want) {
		t.Errorf("operations per part = %v, want %v", count, want)
	}
	if p := parts[ops[OperationsPerFile]]; p != "users_2" {
		t.Errorf("the operation after the first %d of a tag is in %q, want users_2", OperationsPerFile, p)
	}
	var many []*ir.Operation
	for range 2*OperationsPerFile + 1 {
		many = append(many, &ir.Operation{Path: "/{id}"})
	}
	count = map[string]int{}
	for _, p := range operationParts(many) {
		count[p]++
	}
	if want := map[string]int{"": OperationsPerFile, "operations_2": OperationsPerFile, "operations_3": 1}; !maps.Equal(count, want) {
		t.Errorf("untagged operations without a named segment: %v, want %v", count, want)
	}
}

func TestSplitMode(t *testing.T) {
	perOp := AutoSplitBytes / opBytes
	tests := []struct {
		mode       SplitMode
		ops, types int
		want       bool
	}{
		{SplitOff, 100000, 100000, false},
		{SplitOn, 0, 0, true},
		{SplitAuto, 0, 0, false},
		{SplitAuto, perOp, 0, false},
		{SplitAuto, perOp + 1, 0, true},
		{SplitAuto, 0, AutoSplitBytes / typeBytes, false},
		{SplitAuto, 0, AutoSplitBytes/typeBytes + 1, true},
		{SplitAuto, 1224, 7912, true}, // GitHub's REST spec
		{SplitAuto, 198, 630, false},  // Twilio's, 1.8 MB as one file
	}
	for _, tt := range tests {
		if got := tt.mode.splits(tt.ops, tt.types); got != tt.want {
			t.Errorf("%v.splits(%d, %d) = %v, want %v", tt.mode, tt.ops, tt.types, got, tt.want)
		}
	}
	for _, s := range []string{"auto", "on", "off"} {
		var m SplitMode
		if err := m.Set(s); err != nil || m.String() != s {
			t.Errorf("Set(%q) = %v, String() %q", s, err, m.String())
		}
	}
	var m SplitMode
	if m.Set("true"); m != SplitOn {
		t.Errorf(`Set("true") = %v, want on`, m)
	}
	if m.Set("false"); m != SplitOff {
		t.Errorf(`Set("false") = %v, want off`, m)
	}
	if err := m.Set("maybe"); err == nil {
		t.Error(`Set("maybe") accepted`)
	}
}

// TestSplitPartsTypeCheck: a split client whose part names differ only by
// an underscore before a digit ("users_2", the continuation of a tag of
// more than OperationsPerFile operations, and "users2", a tag) still gets
// set-up methods of distinct names, and its files type-check together.
func TestSplitPartsTypeCheck(t *testing.T) {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Parts, version: \"1\"}\npaths:\n")
	op := func(path, id, tag string) {
		fmt.Fprintf(&b, "  %s:\n    get:\n      operationId: %s\n      tags: [%s]\n      responses:\n        \"204\": {description: ok}\n", path, id, tag)
	}
	for i := range OperationsPerFile + 1 {
		op(fmt.Sprintf("/users/u%d", i), fmt.Sprintf("user%d", i), "users")
	}
	op("/other", "other", "users2")
	op("/plain", "plain", `"%%"`)
	fsys := fstest.MapFS{"openapi.yaml": {Data: []byte(b.String())}}
	res, err := OpenAPI(fsys, "openapi.yaml", OpenAPIOptions{Package: "parts", Split: SplitOn})
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, f := range res.Files {
		parts = append(parts, f.Part)
	}
	for _, want := range []string{"users", "users_2", "users2", "path_plain"} {
		if !slices.Contains(parts, want) {
			t.Errorf("parts %q, want %q among them", parts, want)
		}
	}
	if err := typeChecker.checkFiles(res.Files); err != nil {
		t.Errorf("the split client does not type-check: %v", err)
	}
}
