package diff

import (
	"testing"

	"github.com/resilientgo/resilient/gen/ir"
)

// TestConstraintClass: a validation keyword made stricter breaks a
// request and not an answer, made looser the reverse; a pattern replaced
// is a warning both ways; the same bound made exclusive is stricter.
func TestConstraintClass(t *testing.T) {
	u := func(v uint64) *uint64 { return &v }
	for _, tc := range []struct {
		name     string
		old, new ir.Constraints
		req      Class // the class in a request; the answer's is its mirror
	}{
		{"maximum lowered", ir.Constraints{Max: &ir.Bound{Value: 10}}, ir.Constraints{Max: &ir.Bound{Value: 5}}, Breaking},
		{"maximum set", ir.Constraints{}, ir.Constraints{Max: &ir.Bound{Value: 5}}, Breaking},
		{"maximum removed", ir.Constraints{Max: &ir.Bound{Value: 5}}, ir.Constraints{}, Compatible},
		{"minimum lowered", ir.Constraints{Min: &ir.Bound{Value: 5}}, ir.Constraints{Min: &ir.Bound{Value: 1}}, Compatible},
		{"minimum made exclusive", ir.Constraints{Min: &ir.Bound{Value: 5}}, ir.Constraints{Min: &ir.Bound{Value: 5, Exclusive: true}}, Breaking},
		{"maximum made inclusive", ir.Constraints{Max: &ir.Bound{Value: 5, Exclusive: true}}, ir.Constraints{Max: &ir.Bound{Value: 5}}, Compatible},
		{"multipleOf finer", ir.Constraints{MultipleOf: 10}, ir.Constraints{MultipleOf: 5}, Compatible},
		{"multipleOf coarser", ir.Constraints{MultipleOf: 5}, ir.Constraints{MultipleOf: 10}, Breaking},
		{"multipleOf unrelated", ir.Constraints{MultipleOf: 4}, ir.Constraints{MultipleOf: 6}, Warning},
		{"maxLength raised", ir.Constraints{MaxLength: u(5)}, ir.Constraints{MaxLength: u(8)}, Compatible},
		{"maxLength set", ir.Constraints{}, ir.Constraints{MaxLength: u(8)}, Breaking},
		{"minItems raised", ir.Constraints{MinItems: 1}, ir.Constraints{MinItems: 2}, Breaking},
		{"maxItems removed", ir.Constraints{MaxItems: u(3)}, ir.Constraints{}, Compatible},
		{"uniqueItems set", ir.Constraints{}, ir.Constraints{UniqueItems: true}, Breaking},
		{"minProperties lowered", ir.Constraints{MinProperties: 2}, ir.Constraints{MinProperties: 1}, Compatible},
		{"pattern added", ir.Constraints{}, ir.Constraints{Pattern: "^a"}, Breaking},
		{"pattern removed", ir.Constraints{Pattern: "^a"}, ir.Constraints{}, Compatible},
		{"pattern replaced", ir.Constraints{Pattern: "^a"}, ir.Constraints{Pattern: "^b"}, Warning},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mirror := map[Class]Class{Breaking: Compatible, Compatible: Breaking, Warning: Warning}
			for dir, want := range map[direction]Class{request: tc.req, response: mirror[tc.req]} {
				var got []Change
				w := &wire{old: &ir.Service{}, new: &ir.Service{}, sink: &got}
				o, n := tc.old, tc.new
				w.constraints(dir, "v", &ir.TypeRef{Kind: ir.KindInt, Constraints: &o}, &ir.TypeRef{Kind: ir.KindInt, Constraints: &n})
				if len(got) != 1 || got[0].Rule != RuleWireConstraint || got[0].Class != want {
					t.Errorf("direction %d: got %+v, want one %s %s", dir, got, RuleWireConstraint, want)
				}
			}
		})
	}
}
