package openapi

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// wideSpec is a document of n component schemas, each referring to the
// next one and to a schema in one of n/4 other files, which refer back
// to the entry file's schemas: the work of checking its references
// grows with both the files and the references.
func wideSpec(n int) fstest.MapFS {
	files := n / 4
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Wide, version: \"1\"}\npaths:\n  /w:\n    get:\n      operationId: getW\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/C0'}\ncomponents:\n  schemas:\n")
	for i := range n {
		fmt.Fprintf(&b, "    C%d: {type: object, properties: {next: {$ref: '#/components/schemas/C%d'}, ext: {$ref: 'f%d.yaml#/S'}, alias: {$ref: '#/components/schemas/A%d'}}}\n", i, (i+1)%n, i%files, i)
		fmt.Fprintf(&b, "    A%d: {$ref: '#/components/schemas/C%d'}\n", i, (i+1)%n)
	}
	fsys := fstest.MapFS{"api.yaml": {Data: []byte(b.String())}}
	for i := range files {
		fsys[fmt.Sprintf("f%d.yaml", i)] = &fstest.MapFile{Data: fmt.Appendf(nil,
			"S: {type: object, properties: {back: {$ref: 'api.yaml#/components/schemas/C%d'}, other: {$ref: 'f%d.yaml#/S'}}}\n", i, (i+1)%files)}
	}
	return fsys
}

// TestCheckRefsGrowsLinearly: twice the schemas, references and files
// cost the reference check about twice the work, not four times.
func TestCheckRefsGrowsLinearly(t *testing.T) {
	steps := func(n int) int {
		s := newSource(wideSpec(n), "", 0)
		var diags diag.List
		work := s.checkRefs(s.open("api.yaml"), &diags)
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		return work
	}
	const n = 400
	small, large := steps(n), steps(2*n)
	if ratio := float64(large) / float64(small); ratio > 2.3 {
		t.Errorf("%d schemas take %d steps, %d schemas %d steps: ratio %.2f, want about 2", n, small, 2*n, large, ratio)
	}
}

// TestCheckRefsCycleStillFound: a chain of references that comes back on
// itself is reported once, also when other chains lead into it and when
// a chain that ends at a value was followed before.
func TestCheckRefsCycleStillFound(t *testing.T) {
	spec := "openapi: 3.0.3\ninfo: {title: C, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n" +
		"    V: {type: string}\n    P: {$ref: '#/components/schemas/V'}\n    Q: {$ref: '#/components/schemas/P'}\n" +
		"    X: {$ref: '#/components/schemas/Y'}\n    Y: {$ref: '#/components/schemas/Z'}\n    Z: {$ref: '#/components/schemas/X'}\n" +
		"    W: {$ref: '#/components/schemas/X'}\n"
	s := newSource(fstest.MapFS{"api.yaml": {Data: []byte(spec)}}, "", 0)
	var diags diag.List
	s.checkRefs(s.open("api.yaml"), &diags)
	var cycles []string
	for _, d := range diag.From(diags.Err()) {
		if d.Rule == diag.RuleRefCycle {
			cycles = append(cycles, d.Message)
		}
	}
	if len(cycles) != 1 || !strings.Contains(cycles[0], "api.yaml#/components/schemas/X") {
		t.Errorf("cycles reported: %q", cycles)
	}
}

// wideObject is an object of n properties merged from two allOf parts of
// n properties each, half of them the same names as the other part's.
func wideObject(n int) *openapi3.Schema {
	part := func(from int) *openapi3.SchemaRef {
		s := openapi3.NewObjectSchema()
		for i := from; i < from+n; i++ {
			s.WithProperty(fmt.Sprintf("p%d", i), openapi3.NewStringSchema())
		}
		return s.NewRef()
	}
	s := openapi3.NewObjectSchema()
	s.AllOf = openapi3.SchemaRefs{part(0), part(n / 2)}
	for i := range n {
		s.WithProperty(fmt.Sprintf("p%d", i), openapi3.NewIntegerSchema())
	}
	return s
}

// TestFlattenGrowsLinearly: merging twice as many properties looks each
// name up once, twice the work; the merged struct keeps the first
// place of each name and the last definition.
func TestFlattenGrowsLinearly(t *testing.T) {
	steps := func(n int) int {
		b := &builder{cyclic: map[*openapi3.Schema]bool{}}
		var props propertySet
		b.flatten(wideObject(n), "#/components/schemas/W", &props, map[string]bool{})
		if len(props.list) != n+n/2 {
			t.Fatalf("%d properties, want %d", len(props.list), n+n/2)
		}
		if p := props.list[0]; p.name != "p0" || !p.ref.Value.Type.Is("integer") {
			t.Fatalf("first property %s of type %v, want p0 of the object's own type integer", p.name, p.ref.Value.Type)
		}
		return props.steps
	}
	const n = 2000
	small, large := steps(n), steps(2*n)
	if ratio := float64(large) / float64(small); ratio > 2.3 {
		t.Errorf("%d properties take %d steps, %d properties %d steps: ratio %.2f, want about 2", n, small, 2*n, large, ratio)
	}
}
