package openapi

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/gen/ir"
)

func ptr[T any](v T) *T { return &v }

// TestConstraints: a type use carries the validation keywords that apply
// to its value's type, exclusive bounds written the OpenAPI 3.0 way
// (booleans) and the 3.1 way (numbers) alike, the keywords its type does
// not model (subschemas, tuple items with the items they replace, a
// oneOf that null matches twice, an open enum, the boolean schema
// false), and its default as JSON; a text body carries its schema's, and
// its types and values; the service its OpenAPI version.
func TestConstraints(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		param         string // the schema of query parameter p
		body          string // the schema of a text/plain request body, if any
		want          *ir.Constraints
		wantDefault   string
		wantBody      *ir.Constraints
	}{
		{name: "none", version: "3.0.3", param: "{type: integer}"},
		{name: "3.0 exclusive", version: "3.0.3", param: "{type: number, minimum: 0, exclusiveMinimum: true, maximum: 10, multipleOf: 0.5, default: 1}",
			want:        &ir.Constraints{Min: &ir.Bound{Value: 0, Exclusive: true}, Max: &ir.Bound{Value: 10}, MultipleOf: 0.5},
			wantDefault: "1"},
		{name: "3.1 exclusive", version: "3.1.0", param: "{type: integer, minimum: 1, exclusiveMinimum: 2, exclusiveMaximum: 9}",
			want: &ir.Constraints{Min: &ir.Bound{Value: 2, Exclusive: true}, Max: &ir.Bound{Value: 9, Exclusive: true}}},
		{name: "3.1 inclusive tighter", version: "3.1.0", param: "{type: integer, minimum: 5, exclusiveMinimum: 2}",
			want: &ir.Constraints{Min: &ir.Bound{Value: 5}}},
		{name: "string", version: "3.0.3", param: "{type: string, minLength: 1, maxLength: 8, pattern: '^[a-z]+$', default: abc}",
			want: &ir.Constraints{MinLength: 1, MaxLength: ptr[uint64](8), Pattern: "^[a-z]+$"}, wantDefault: `"abc"`},
		{name: "keywords of another type", version: "3.0.3", param: "{type: string, maximum: 5, maxItems: 3}"},
		{name: "array", version: "3.0.3", param: "{type: array, minItems: 1, maxItems: 3, uniqueItems: true, maxLength: 4, items: {type: string}}",
			want: &ir.Constraints{MinItems: 1, MaxItems: ptr[uint64](3), UniqueItems: true}},
		{name: "text body", version: "3.0.3", param: "{type: integer}", body: "{type: number, maximum: 15}",
			wantBody: &ir.Constraints{Max: &ir.Bound{Value: 15}, Unmodeled: &ir.Schema{Types: []string{"number"}, Whole: true}}},
		{name: "text body const", version: "3.1.0", param: "{type: integer}", body: "{type: string, const: draft}",
			wantBody: &ir.Constraints{Unmodeled: &ir.Schema{Types: []string{"string"}, Enum: []string{`"draft"`}, Whole: true}}},
		{name: "not and contains", version: "3.1.0", param: "{type: array, items: {type: string}, contains: {type: string, minLength: 2}, not: {maxItems: 1}}",
			want: &ir.Constraints{Unmodeled: &ir.Schema{Sub: []*ir.Subschema{
				{Keyword: "contains", Schema: &ir.Schema{Types: []string{"string"}, Constraints: &ir.Constraints{MinLength: 2}}},
				{Keyword: "not", Schema: &ir.Schema{Constraints: &ir.Constraints{MaxItems: ptr[uint64](1)}}},
			}}}},
		{name: "tuple items beside items", version: "3.1.0", param: "{type: array, items: {type: string}, prefixItems: [{type: integer}]}",
			want: &ir.Constraints{Unmodeled: &ir.Schema{Sub: []*ir.Subschema{
				{Keyword: "items", Schema: &ir.Schema{Types: []string{"string"}}},
				{Keyword: "prefixItems/0", Schema: &ir.Schema{Types: []string{"integer"}}},
			}}}},
		{name: "null matched twice", version: "3.1.0", param: "{oneOf: [{type: 'null'}, {type: [string, 'null']}]}",
			want: &ir.Constraints{Unmodeled: &ir.Schema{NullTwice: true}}},
		{name: "open enum", version: "3.0.3", param: "{type: string, x-extensible-enum: [b, a]}",
			want: &ir.Constraints{Unmodeled: &ir.Schema{ExtensibleEnum: []string{`"a"`, `"b"`}}}},
		{name: "boolean false", version: "3.1.0", param: "false",
			want: &ir.Constraints{Unmodeled: &ir.Schema{False: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := "openapi: " + tc.version + "\ninfo: {title: T, version: '1'}\npaths:\n  /x:\n    post:\n      operationId: x\n" +
				"      parameters:\n        - {name: p, in: query, schema: " + tc.param + "}\n"
			if tc.body != "" {
				spec += "      requestBody:\n        content:\n          text/plain:\n            schema: " + tc.body + "\n"
			}
			spec += "      responses:\n        '204': {description: none}\n"
			doc, _, err := Load(fstest.MapFS{"api.yaml": {Data: []byte(spec)}}, "api.yaml", LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			svc, _, err := Build(doc, BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if svc.OpenAPI != tc.version {
				t.Errorf("OpenAPI = %q, want %q", svc.OpenAPI, tc.version)
			}
			op := svc.Operations[0]
			pt := op.Params[0].Type
			if diff := cmp.Diff(tc.want, pt.Constraints); diff != "" {
				t.Errorf("parameter constraints (-want +got):\n%s", diff)
			}
			if pt.Default != tc.wantDefault {
				t.Errorf("default = %q, want %q", pt.Default, tc.wantDefault)
			}
			if tc.body != "" {
				if diff := cmp.Diff(tc.wantBody, op.Body.Contents[0].Type.Constraints); diff != "" {
					t.Errorf("body constraints (-want +got):\n%s", diff)
				}
			}
		})
	}
}
