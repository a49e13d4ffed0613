package openapi

import (
	"fmt"
	"strings"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// schemaRefKeys are the members whose value is a schema, and
// schemaListKeys those holding schemas by name or index: a $ref inside
// them must name a schema.
var (
	schemaRefKeys  = map[string]bool{"schema": true, "items": true, "additionalProperties": true, "not": true}
	schemaListKeys = map[string]bool{"properties": true, "allOf": true, "anyOf": true, "oneOf": true}
)

// misplacedSchemaRefs reports each $ref of the entry file that stands for
// a schema but names another kind of component ("schema: {$ref:
// '#/components/responses/Caption'}"), which the loader refuses without
// saying where. It is called only once the loader has failed, and reports
// whether it found any.
func (s *source) misplacedSchemaRefs(entry *file, diags *diag.List) bool {
	if entry.root == nil {
		return false
	}
	var sites []refSite
	collectRefs(entry, entry.root, nil, &sites)
	found := false
	for _, site := range sites {
		at := site.at
		if at == nil || !(at.index < 0 && schemaRefKeys[at.key] || at.parent != nil && at.parent.index < 0 && schemaListKeys[at.parent.key]) {
			continue
		}
		rest, ok := strings.CutPrefix(site.value, "#/components/")
		if !ok {
			continue
		}
		kind, _, _ := strings.Cut(rest, "/")
		if kind == "schemas" {
			continue
		}
		found = true
		diags.Errorf(site.location(), diag.RuleRefUnresolved,
			fmt.Sprintf("$ref %q stands for a schema but names a %s component, which is no schema: the document is not OpenAPI there, the loader refuses it whole, and no type can be read from what the $ref names", site.value, strings.TrimSuffix(kind, "s")),
			"point the $ref at a schema under #/components/schemas, or write the schema in place")
	}
	return found
}
