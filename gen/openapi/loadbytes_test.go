package openapi

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v4"
)

// prettyJSON is the Spotify spec of the shared corpus as indented JSON,
// whose first line is its opening brace.
func prettyJSON(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "corpus", "openapi", "spotify", "fixed-spotify-open-api.yml"))
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

// TestWithoutRootKeyLeavesOthers: only JSON whose first line is its
// opening brace gets the marker.
func TestWithoutRootKeyLeavesOthers(t *testing.T) {
	for _, in := range []string{
		`{"openapi": "3.0.3"}`,
		"openapi: 3.0.3\n",
		" {\n\"openapi\": \"3.0.3\"}\n",
		"{\n\"info\": \"\u0085\"}\n",
		"",
	} {
		if got := withoutRootKey([]byte(in)); string(got) != in {
			t.Errorf("withoutRootKey(%q) = %q", in, got)
		}
	}
	if got := string(withoutRootKey([]byte("{\r\n}\r\n"))); got != "--- {\r\n}\r\n" {
		t.Errorf("got %q", got)
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
