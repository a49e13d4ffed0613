package gen

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// hostileNames are Go keywords, predeclared names, the packages generated
// code imports and the locals its methods use.
var hostileNames = []string{
	"type", "func", "go", "select", "range", "map", "chan", "var", "const", "package", "import", "return", "defer",
	"nil", "true", "iota", "string", "error", "len", "make", "append", "new", "any", "init", "main",
	"url", "http", "ctx", "err", "req", "u", "q", "c", "opts", "params", "body", "contentType", "resilient",
	"json", "strings", "context", "fmt", "v", "vs", "i", "k", "data", "zero", "key", "op", "time", "bytes",
	"io", "errors", "slices", "maps", "strconv", "base64", "slog", "multipart", "mime", "cookie", "_", "__",
	"seg", "seg0", "segment_id", "segParam",
}

// TestHostileIdentifiers: parameters, properties, schemas and operations
// named like Go keywords, predeclared identifiers, imported packages and
// the generated code's own locals give a client that type-checks.
func TestHostileIdentifiers(t *testing.T) {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Names, version: \"1\"}\npaths:\n")
	for i, name := range hostileNames {
		opID := name
		if strings.Trim(name, "_") == "" {
			opID = fmt.Sprintf("op%d", i) // no Go name can be formed from it: E-NAME-INVALID
		}
		fmt.Fprintf(&b, "  /p%d/{%s}:\n    get:\n      operationId: %q\n      parameters:\n", i, name, opID)
		fmt.Fprintf(&b, "        - {name: %q, in: path, required: true, schema: {type: string}}\n", name)
		for _, in := range []string{"query", "header", "cookie"} {
			fmt.Fprintf(&b, "        - {name: %q, in: %s, schema: {type: string}}\n", name, in)
		}
		fmt.Fprintf(&b, "      responses:\n        \"200\": {description: ok, content: {application/json: {schema: {$ref: \"#/components/schemas/S%d\"}}}}\n", i)
	}
	b.WriteString("components:\n  schemas:\n")
	for i, name := range hostileNames {
		fmt.Fprintf(&b, "    S%d:\n      type: object\n      properties:\n        %q: {type: string}\n", i, name)
		if upper := strings.ToUpper(name[:1]) + name[1:]; upper != name {
			fmt.Fprintf(&b, "        %q: {type: integer}\n", upper)
		}
	}
	for _, name := range []string{"string", "error", "Context", "Time", "JSON", "URL", "Request", "Response", "Reader"} {
		fmt.Fprintf(&b, "    %q: {type: object, properties: {a: {type: string}}}\n", name)
	}
	res, err := OpenAPI(fstest.MapFS{"names.yaml": {Data: []byte(b.String())}}, "names.yaml", OpenAPIOptions{Package: "names"})
	if err != nil {
		t.Fatalf("OpenAPI: %v", err)
	}
	if err := typeChecker.check("names.go", res.Code); err != nil {
		t.Errorf("the generated client does not type-check: %v", err)
	}
}
