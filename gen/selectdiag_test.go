package gen

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// brokenSpec has one good operation and others whose errors are their
// own: a template variable without a parameter and a header name that is
// no HTTP token (broken, which alone reaches the allOf cycle of Cycle),
// a variable in a query key (odd), an invalid parameter component that
// only odd uses, and an allOf cycle that only the discriminator mapping of
// mapped names.
const brokenSpec = `openapi: 3.0.3
info: {title: Broken, version: "1"}
paths:
  /good:
    get:
      operationId: good
      tags: [fine]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Fine"}
  /mapped:
    get:
      operationId: mapped
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                oneOf: [{$ref: "#/components/schemas/Fine"}]
                discriminator:
                  propertyName: a
                  mapping: {bad: "#/components/schemas/Mapped"}
  /broken/{id}/{missing}:
    get:
      operationId: broken
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: "bad header", in: header, schema: {type: string}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Cycle"}
  /odd?{k}=1:
    get:
      operationId: odd
      parameters:
        - {name: k, in: path, required: true, schema: {type: string}}
        - $ref: "#/components/parameters/BadHeader"
      responses:
        "204": {description: ok}
components:
  parameters:
    BadHeader: {name: "x y", in: header, schema: {type: string}}
  schemas:
    Fine: {type: object, properties: {a: {type: string}}}
    Mapped:
      allOf: [{$ref: "#/components/schemas/Mapped2"}]
    Mapped2:
      allOf: [{$ref: "#/components/schemas/Mapped"}]
    Cycle:
      allOf: [{$ref: "#/components/schemas/Cycle2"}]
    Cycle2:
      allOf: [{$ref: "#/components/schemas/Cycle"}]
`

func rulesOf(err error) []string {
	var rules []string
	for _, d := range diag.From(err) {
		rules = append(rules, string(d.Rule))
	}
	slices.Sort(rules)
	return rules
}

// TestSelectionHidesErrorsLeftOut: the errors of operations left out by
// -include or -exclude, and of the schemas only they reach, do not stop
// generation, and the client type-checks; without selection, or when the
// broken operation is selected, they are reported, located.
func TestSelectionHidesErrorsLeftOut(t *testing.T) {
	fsys := fstest.MapFS{"openapi.yaml": {Data: []byte(brokenSpec)}}
	all := []string{"E-ALLOF-CYCLE", "E-ALLOF-CYCLE", "E-HEADER-NAME", "E-HEADER-NAME", "E-PATH-CHAR", "E-PATH-TEMPLATE"}
	_, err := OpenAPI(fsys, "openapi.yaml", OpenAPIOptions{Package: "broken"})
	if got := rulesOf(err); !slices.Equal(got, all) {
		t.Errorf("no selection: errors %q, want %q", got, all)
	}
	if _, err := Check(fsys, "openapi.yaml", OpenAPIOptions{}); !slices.Equal(rulesOf(err), all) {
		t.Errorf("check, no selection: errors %q, want %q", rulesOf(err), all)
	}
	for _, opts := range []OpenAPIOptions{
		{Exclude: []Filter{{"op", "broken"}, {"op", "odd"}, {"op", "mapped"}}},
		{Include: []Filter{{"op", "good"}}},
		{Include: []Filter{{"tag", "fine"}}},
		{Include: []Filter{{"path", "/good"}}},
	} {
		opts.Package = "broken"
		res, err := OpenAPI(fsys, "openapi.yaml", opts)
		if err != nil {
			t.Errorf("include %v exclude %v: %v", opts.Include, opts.Exclude, err)
			continue
		}
		if !strings.Contains(string(res.Code), "func (c *Client) Good(") || strings.Contains(string(res.Code), "Broken(") {
			t.Errorf("include %v exclude %v: the client is not the good operation alone", opts.Include, opts.Exclude)
		}
		if err := typeChecker.check("client.gen.go", res.Code); err != nil {
			t.Errorf("include %v exclude %v: the client does not type-check: %v", opts.Include, opts.Exclude, err)
		}
		if _, err := Check(fsys, "openapi.yaml", opts); err != nil {
			t.Errorf("check, include %v exclude %v: %v", opts.Include, opts.Exclude, err)
		}
	}
	// Only odd left out: broken's errors, its schema's included, remain,
	// at their places.
	_, err = OpenAPI(fsys, "openapi.yaml", OpenAPIOptions{Package: "broken", Exclude: []Filter{{"op", "odd"}, {"op", "mapped"}}})
	want := []string{"E-ALLOF-CYCLE", "E-HEADER-NAME", "E-PATH-TEMPLATE"}
	if got := rulesOf(err); !slices.Equal(got, want) {
		t.Errorf("-exclude op:odd: errors %q, want %q", got, want)
	}
	for _, d := range diag.From(err) {
		if d.Location.Line == 0 || d.Location.Path == "" {
			t.Errorf("-exclude op:odd: %v is not located", d)
		}
	}
	// Only broken left out: odd's template and the parameter component
	// it alone uses remain.
	_, err = OpenAPI(fsys, "openapi.yaml", OpenAPIOptions{Package: "broken", Exclude: []Filter{{"op", "broken"}, {"op", "mapped"}}})
	if got, want := rulesOf(err), []string{"E-HEADER-NAME", "E-PATH-CHAR"}; !slices.Equal(got, want) {
		t.Errorf("-exclude op:broken,op:mapped: errors %q, want %q", got, want)
	}
	// A schema that only a discriminator's mapping names is reached.
	_, err = OpenAPI(fsys, "openapi.yaml", OpenAPIOptions{Package: "broken", Include: []Filter{{"op", "mapped"}}})
	if got, want := rulesOf(err), []string{"E-ALLOF-CYCLE"}; !slices.Equal(got, want) {
		t.Errorf("-include op:mapped: errors %q, want %q", got, want)
	}
}

// TestSelectionKeepsDocumentErrors: an error of the document itself stops
// generation whatever is selected.
func TestSelectionKeepsDocumentErrors(t *testing.T) {
	spec := strings.Replace(brokenSpec, "info: {title: Broken, version: \"1\"}", "info: {title: Broken, version: \"1\"}\nx-resilience:\n  retry: {attempts: 3}", 1)
	fsys := fstest.MapFS{"openapi.yaml": {Data: []byte(spec)}}
	_, err := OpenAPI(fsys, "openapi.yaml", OpenAPIOptions{Package: "broken", Include: []Filter{{"op", "good"}}})
	if err == nil {
		t.Fatal("an unknown key in the document's x-resilience: generated")
	}
	for _, d := range diag.From(err) {
		if !strings.HasPrefix(d.Location.Path, "#/x-resilience") {
			t.Errorf("error %v: want only the document's x-resilience errors", d)
		}
	}
}

// TestSelectionHidesWarningsLeftOut: the warnings inside an operation left
// out (a fixed query in its path template) or a schema only it reaches (a
// stray key in a discriminator) are not reported; selected, they are.
func TestSelectionHidesWarningsLeftOut(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: Warned, version: "1"}
paths:
  /good:
    get:
      operationId: good
      responses:
        "204": {description: ok}
  /warned?fixed=1:
    get:
      operationId: warned
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Odd"}
components:
  schemas:
    Odd: {type: object, properties: {n: {type: string}}, discriminator: {propertyName: n, type: stray}}
`
	fsys := fstest.MapFS{"openapi.yaml": {Data: []byte(spec)}}
	rules := func(ds []diag.Diagnostic) []string {
		var out []string
		for _, d := range ds {
			out = append(out, string(d.Rule))
		}
		slices.Sort(out)
		return out
	}
	all, err := OpenAPI(fsys, "openapi.yaml", OpenAPIOptions{Package: "warned"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rules(all.Warnings), []string{"W-OPENAPI", "W-PATH-QUERY"}; !slices.Equal(got, want) {
		t.Fatalf("no selection: warnings %q, want %q", got, want)
	}
	for _, opts := range []OpenAPIOptions{{Include: []Filter{{"op", "good"}}}, {Exclude: []Filter{{"op", "warned"}}}} {
		opts.Package = "warned"
		res, err := OpenAPI(fsys, "openapi.yaml", opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Warnings) != 0 {
			t.Errorf("include %v exclude %v: warnings %v, want none of what is left out", opts.Include, opts.Exclude, res.Warnings)
		}
	}
	res, err := OpenAPI(fsys, "openapi.yaml", OpenAPIOptions{Package: "warned", Include: []Filter{{"op", "warned"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rules(res.Warnings), []string{"W-OPENAPI", "W-PATH-QUERY"}; !slices.Equal(got, want) {
		t.Errorf("-include op:warned: warnings %q, want %q", got, want)
	}
}
