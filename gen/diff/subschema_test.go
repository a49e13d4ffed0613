package diff

import (
	"testing"

	"github.com/resilientgo/resilient/gen/ir"
)

// TestSubschemaClass: a subschema keyword the IR's types do not model
// breaks a request when it appears or grows stricter, and an answer when
// it goes or grows looser; inside not the direction turns; a tuple item
// is compared with the items it replaces; a change both ways breaks
// both.
func TestSubschemaClass(t *testing.T) {
	str := &ir.Schema{Types: []string{"string"}}
	integer := &ir.Schema{Types: []string{"integer"}}
	sub := func(k string, s *ir.Schema) *ir.Schema {
		return &ir.Schema{Sub: []*ir.Subschema{{Keyword: k, Schema: s}}}
	}
	min := func(n uint64) *ir.Schema {
		return &ir.Schema{Types: []string{"string"}, Constraints: &ir.Constraints{MinLength: n}}
	}
	for _, tc := range []struct {
		name      string
		old, new  *ir.Schema
		req, resp Class // "" for no change
	}{
		{"contains added", nil, sub("contains", str), Breaking, Compatible},
		{"if removed", sub("if", str), nil, Compatible, Breaking},
		{"then stricter", sub("then", min(1)), sub("then", min(3)), Breaking, Compatible},
		{"propertyNames looser", sub("propertyNames", min(3)), sub("propertyNames", min(1)), Compatible, Breaking},
		{"not stricter", sub("not", min(1)), sub("not", min(3)), Compatible, Breaking},
		{"not looser", sub("not", min(3)), sub("not", min(1)), Breaking, Compatible},
		{"not required added", sub("not", &ir.Schema{}), sub("not", &ir.Schema{Required: []string{"a"}}), Compatible, Breaking},
		{"const changed in dependentSchemas", sub("dependentSchemas/a", &ir.Schema{Enum: []string{`"x"`}}), sub("dependentSchemas/a", &ir.Schema{Enum: []string{`"y"`}}), Breaking, Breaking},
		{"unevaluatedProperties false", nil, sub("unevaluatedProperties", &ir.Schema{False: true}), Breaking, Compatible},
		{"contentEncoding changed", &ir.Schema{ContentEncoding: "base64"}, &ir.Schema{ContentEncoding: "base32"}, Breaking, Breaking},
		{"dependentRequired grows", &ir.Schema{DependentRequired: []string{"a: b"}}, &ir.Schema{DependentRequired: []string{"a: b,c"}}, Breaking, Compatible},
		{"maxContains lowered", &ir.Schema{MaxContains: new(uint64(3))}, &ir.Schema{MaxContains: new(uint64(2))}, Breaking, Compatible},
		{"tuple item as its items", sub("items", str), &ir.Schema{Sub: []*ir.Subschema{{Keyword: "items", Schema: str}, {Keyword: "prefixItems/0", Schema: str}}}, "", ""},
		{"tuple item of another type", sub("items", str), &ir.Schema{Sub: []*ir.Subschema{{Keyword: "items", Schema: str}, {Keyword: "prefixItems/0", Schema: integer}}}, Breaking, Breaking},
		{"integer made number", sub("contains", integer), sub("contains", &ir.Schema{Types: []string{"number"}}), Compatible, Breaking},
		{"whole body's items stricter", &ir.Schema{Whole: true, Sub: []*ir.Subschema{{Keyword: "items", Schema: min(1)}}}, &ir.Schema{Whole: true, Sub: []*ir.Subschema{{Keyword: "items", Schema: min(3)}}}, Breaking, Compatible},
		{"whole body's required property gone", &ir.Schema{Whole: true, Required: []string{"a"}}, &ir.Schema{Whole: true}, Compatible, Breaking},
		{"allOf part added", &ir.Schema{AllOfParts: []string{"$ref A"}}, &ir.Schema{AllOfParts: []string{"$ref A", "$ref B"}}, Breaking, Compatible},
		{"allOf part gone", &ir.Schema{AllOfParts: []string{"$ref A", "$ref B"}}, &ir.Schema{AllOfParts: []string{"$ref A"}}, Compatible, Warning},
		{"became allOf with an inline part", nil, &ir.Schema{AllOfParts: []string{"inline a,b"}}, "", ""},
		{"open enum value gone", &ir.Schema{ExtensibleEnum: []string{`"a"`, `"b"`}}, &ir.Schema{ExtensibleEnum: []string{`"a"`}}, Breaking, Compatible},
		{"open enum value listed", &ir.Schema{ExtensibleEnum: []string{`"a"`}}, &ir.Schema{ExtensibleEnum: []string{`"a"`, `"b"`}}, Compatible, Compatible},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for dir, want := range map[direction]Class{request: tc.req, response: tc.resp} {
				var got []Change
				w := &wire{old: &ir.Service{}, new: &ir.Service{}, sink: &got}
				var o, n *ir.Constraints
				if tc.old != nil {
					o = &ir.Constraints{Unmodeled: tc.old}
				}
				if tc.new != nil {
					n = &ir.Constraints{Unmodeled: tc.new}
				}
				w.constraints(dir, "v", &ir.TypeRef{Kind: ir.KindAny, Constraints: o}, &ir.TypeRef{Kind: ir.KindAny, Constraints: n})
				var worst Class
				for _, c := range got {
					if worst == "" || c.Class == Breaking {
						worst = c.Class
					}
				}
				if worst != want {
					t.Errorf("direction %d: got %+v, want %q", dir, got, want)
				}
			}
		})
	}
}

// TestTextTypes: a body sent as text takes any type's values once it is
// a string, and a string become another type is structured now; an
// answer that was text and is structured is still text.
func TestTextTypes(t *testing.T) {
	for _, tc := range []struct {
		old, new  []string
		req, resp Class
	}{
		{[]string{"object"}, []string{"string"}, Compatible, Breaking},
		{[]string{"string"}, []string{"object"}, Breaking, Compatible},
		{[]string{"integer"}, []string{"object"}, Breaking, Breaking},
	} {
		for dir, want := range map[direction]Class{request: tc.req, response: tc.resp} {
			var got []Change
			w := &wire{old: &ir.Service{}, new: &ir.Service{}, sink: &got}
			w.constraints(dir, "body", &ir.TypeRef{Kind: ir.KindBinary, Constraints: &ir.Constraints{Unmodeled: &ir.Schema{Types: tc.old}}},
				&ir.TypeRef{Kind: ir.KindBinary, Constraints: &ir.Constraints{Unmodeled: &ir.Schema{Types: tc.new}}})
			if len(got) != 1 || got[0].Rule != RuleWireTypeChanged || got[0].Class != want {
				t.Errorf("%v → %v, direction %d: got %+v, want one %s %s", tc.old, tc.new, dir, got, RuleWireTypeChanged, want)
			}
		}
	}
}

// TestNullMatchedTwice: a oneOf of which two variants admit null refuses
// it, whatever the IR's nullable type says; one that names no type
// admits it.
func TestNullMatchedTwice(t *testing.T) {
	use := func(nullable bool, u *ir.Schema) *ir.TypeRef {
		return &ir.TypeRef{Kind: ir.KindAny, Nullable: nullable, Constraints: &ir.Constraints{Unmodeled: u}}
	}
	for _, tc := range []struct {
		name      string
		old, new  *ir.TypeRef
		req, resp Class
	}{
		{"a variant made nullable beside a null one", use(true, nil), use(true, &ir.Schema{NullTwice: true}), Breaking, Compatible},
		{"a variant without type beside ones that are not nullable", use(false, nil), use(false, &ir.Schema{NullUntyped: true}), Compatible, Breaking},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for dir, want := range map[direction]Class{request: tc.req, response: tc.resp} {
				var got []Change
				w := &wire{old: &ir.Service{}, new: &ir.Service{}, sink: &got}
				w.typeRef(dir, "v", tc.old, tc.new)
				if len(got) != 1 || got[0].Rule != RuleWireNullable || got[0].Class != want {
					t.Errorf("direction %d: got %+v, want one %s %s", dir, got, RuleWireNullable, want)
				}
			}
		})
	}
}

// TestMediaChange: an answer's media type written otherwise breaks a
// client that reads the Content-Type when a parameter goes or changes
// or a structured suffix is dropped.
func TestMediaChange(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		want     Class
	}{
		{"application/json; charset=utf-8", "application/json", Breaking},
		{"application/json; charset=utf-8", "application/json; charset=utf-16", Breaking},
		{"application/json", "application/json; charset=utf-8", Compatible},
		{"application/problem+json", "application/json", Breaking},
		{"application/json", "application/problem+json", Compatible},
		{"application/json", "application/problem+json;q=1", Warning},
		{"application/vnd.a+json", "application/vnd.b+json", Warning},
	} {
		if got, _ := mediaChange(tc.old, tc.new); got != tc.want {
			t.Errorf("%s → %s: %s, want %s", tc.old, tc.new, got, tc.want)
		}
	}
}

// TestSubschemaSharing: a subschema reached many ways is compared once
// for a use, so that a deep graph of shared subschemas (2^40 paths here)
// compares in as many steps as it has pairs.
func TestSubschemaSharing(t *testing.T) {
	graph := func(leaf uint64) *ir.Schema {
		s := &ir.Schema{Types: []string{"string"}, Constraints: &ir.Constraints{MinLength: leaf}}
		for range 40 {
			s = &ir.Schema{Sub: []*ir.Subschema{{Keyword: "properties/a", Schema: s}, {Keyword: "properties/b", Schema: s}}}
		}
		return &ir.Schema{Sub: []*ir.Subschema{{Keyword: "not", Schema: s}}}
	}
	var got []Change
	w := &wire{old: &ir.Service{}, new: &ir.Service{}, sink: &got}
	w.constraints(request, "v", &ir.TypeRef{Kind: ir.KindAny, Constraints: &ir.Constraints{Unmodeled: graph(1)}},
		&ir.TypeRef{Kind: ir.KindAny, Constraints: &ir.Constraints{Unmodeled: graph(3)}})
	if len(got) != 1 || got[0].Class != Compatible {
		t.Errorf("got %+v, want one compatible change (a minLength raised inside a not)", got)
	}
}
