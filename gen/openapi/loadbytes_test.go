package openapi

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// prettyJSON is the Spotify spec of the corpus as indented JSON,
// whose first line is its opening brace.
func prettyJSON(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "openapi", "spotify", "fixed-spotify-open-api.yml"))
	if err != nil {
		t.Skip("no corpus:", err)
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// TestWithoutRootKeyKeepsPositions: the document start marker the loader
// is given leaves every node of the parsed tree where it was, except the
// top-level object, four columns right; and kin-openapi loads the same
// document, every origin included.
func TestWithoutRootKeyKeepsPositions(t *testing.T) {
	data := prettyJSON(t)
	marked := withoutRootKey(data)
	if string(marked[:len(documentStart)]) != documentStart {
		t.Fatalf("no marker: %.20q", marked)
	}
	var plain, withMarker yaml.Node
	if err := yaml.Unmarshal(data, &plain); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(marked, &withMarker); err != nil {
		t.Fatal(err)
	}
	root := withMarker.Content[0]
	if root.Column != 1+len(documentStart) {
		t.Errorf("the top-level object is at column %d, want %d", root.Column, 1+len(documentStart))
	}
	root.Column = 1
	if d := compareNodes("#", root, plain.Content[0]); d != "" {
		t.Fatal(d)
	}

	load := func(data []byte) *openapi3.T {
		loader := openapi3.NewLoader()
		loader.IncludeOrigin = true
		loader.ReadFromURIFunc = func(*openapi3.Loader, *url.URL) ([]byte, error) { return data, nil }
		doc, err := loader.LoadFromURI(&url.URL{Path: "spec/api.json"})
		if err != nil {
			t.Fatal(err)
		}
		doc.Origin = nil
		return doc
	}
	if !reflect.DeepEqual(load(data), load(marked)) {
		t.Error("kin-openapi loads another document when given the marker")
	}
}

// TestWithoutRootKeyLeavesOthers: only JSON that starts with its opening
// brace gets the marker.
func TestWithoutRootKeyLeavesOthers(t *testing.T) {
	for _, in := range []string{
		"openapi: 3.0.3\n",
		" {\n\"openapi\": \"3.0.3\"}\n",
		"{\n\"info\": \"\u0085\"}\n",
		"",
	} {
		if got := withoutRootKey([]byte(in)); string(got) != in {
			t.Errorf("withoutRootKey(%q) = %q", in, got)
		}
	}
	for in, want := range map[string]string{
		"{\r\n}\r\n":           "--- {\r\n}\r\n",
		`{"openapi": "3.0.3"}`: `--- {"openapi": "3.0.3"}`,
	} {
		if got := string(withoutRootKey([]byte(in))); got != want {
			t.Errorf("withoutRootKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOneLineJSONPositions: a document written on one line, whose every
// position the marker moves, reports each diagnostic (the validator's,
// the builder's and x-resilience's) at the column it reports for the
// same line with a space before it, which gets no marker, one column to
// the left.
func TestOneLineJSONPositions(t *testing.T) {
	const spec = `{"openapi": "3.0.3", "info": {"title": "One line", "version": "1"},` +
		` "x-resilience": {"timeout": "2s", "retries": 3},` +
		` "paths": {"/a": {"get": {"operationId": "getA", "x-resilience": {"retry": {"maxAttempts": "many"}},` +
		` "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}}},` +
		` "/b": {"get": {"responses": {"200": {"description": "ok"}}}}},` +
		` "components": {"schemas": {"A": {"type": "object", "properties": {"bad\"name": {"type": "string"}, "n": {"type": "integer", "default": "x"},` +
		` "c": {"type": "string", "example": 5}, "d": {"not": {"type": "string"}}}}}}}`
	diagnostics := func(data string) []diag.Diagnostic {
		fsys := fstest.MapFS{"api.json": {Data: []byte(data)}}
		doc, warnings, err := Load(fsys, "api.json", LoadOptions{Dir: "specs"})
		all := append(warnings, diag.From(err)...)
		if doc != nil {
			_, warnings, err = Build(doc, BuildOptions{})
			all = append(all, warnings...)
			all = append(all, diag.From(err)...)
		}
		return all
	}
	got := diagnostics(spec)
	want := diagnostics(" " + spec)
	for i := range want {
		if want[i].Location.Line == 1 {
			want[i].Location.Col--
		}
	}
	if len(got) < 5 {
		t.Fatalf("only %d diagnostics: %v", len(got), got)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("diagnostics differ (-want +got):\n%s", d)
	}
	for _, d := range got {
		if l := d.Location; l.Line == 1 && l.Col > 1 && spec[l.Col-2] != ' ' && spec[l.Col-2] != '{' {
			t.Errorf("%v: column %d is not at the start of a value", d, d.Location.Col)
		}
	}
}

// TestTopLevelKey: the version key is read off the top level only; a
// description mentioning Swagger does not make a document Swagger.
func TestTopLevelKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"openapi": "3.0.3", "info": {"description": "converted from swagger"}}`, "openapi"},
		{`{"info": {"swagger": "x", "d": "a \"swagger\": b"}, "swagger": "2.0"}`, "swagger"},
		{`{"info": {"title": "swagger"}, "openapi": "3.1.0"}`, "openapi"},
		{`{"paths": ["swagger"], "x": {"openapi": 1}}`, ""},
		{"{\n  \"swagger\": \"2.0\"\n}\n", "swagger"},
		{"info:\n  description: |\n    swagger: 2.0\nopenapi: 3.0.3\n", "openapi"},
		{"# a swagger document\nswagger: \"2.0\"\n", "swagger"},
		{"'swagger' : '2.0'\n", "swagger"},
		{"\"openapi\": 3.0.0\n", "openapi"},
		{"{openapi: 3.0.0}", ""},
		{`{"unterminated`, ""},
		{"", ""},
	} {
		if got := topLevelKey([]byte(tc.in)); got != tc.want {
			t.Errorf("topLevelKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSwaggerTakenForOpenAPI3: a Swagger document whose version key the
// quick look cannot find (flow style) is loaded as OpenAPI 3 beside the
// parse, and still converted, by a loader of its own.
func TestSwaggerTakenForOpenAPI3(t *testing.T) {
	const spec = `{swagger: "2.0", info: {title: Flow, version: "1"}, paths: {/pets: {get: {operationId: listPets, responses: {"200": {description: ok, schema: {type: array, items: {type: string}}}}}}}}`
	if topLevelKey([]byte(spec)) != "" {
		t.Fatal("the quick look finds the key; the test needs one it does not")
	}
	doc, _, err := Load(fstest.MapFS{"api.yaml": {Data: []byte(spec)}}, "api.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !doc.IsSwagger() || doc.T.Paths.Find("/pets") == nil || len(doc.given) != 0 {
		t.Errorf("swagger %v, /pets %v, edits %v", doc.IsSwagger(), doc.T.Paths.Find("/pets") != nil, doc.given)
	}
}
