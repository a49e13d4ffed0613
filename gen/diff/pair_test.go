package diff

import (
	"testing"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
)

func service(paths ...string) *resolve.Service {
	s := &resolve.Service{IR: &ir.Service{}}
	for _, p := range paths {
		s.Operations = append(s.Operations, &resolve.Operation{Operation: &ir.Operation{Method: "GET", Path: p}})
	}
	return s
}

// TestPairOperations: operations pair by path as written first, then
// with their path parameters' names aside, each old one once.
func TestPairOperations(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new []string
		want     map[string]string // new path → old path ("" for none)
		removed  []string
	}{
		{"renamed parameter", []string{"/a/{id}"}, []string{"/a/{itemId}"}, map[string]string{"/a/{itemId}": "/a/{id}"}, nil},
		{"kept and renamed beside it", []string{"/a/{x}"}, []string{"/a/{y}", "/a/{x}"}, map[string]string{"/a/{y}": "", "/a/{x}": "/a/{x}"}, nil},
		{"two old of one shape", []string{"/a/{x}", "/a/{y}"}, []string{"/a/{z}"}, map[string]string{"/a/{z}": "/a/{x}"}, []string{"/a/{y}"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pairs := pairOperations(service(tc.old...), service(tc.new...))
			var removed []string
			for _, p := range pairs {
				switch {
				case p.new == nil:
					removed = append(removed, p.old.Path)
				case p.old == nil:
					if w := tc.want[p.new.Path]; w != "" {
						t.Errorf("%s: unpaired, want %s", p.new.Path, w)
					}
				default:
					if w := tc.want[p.new.Path]; w != p.old.Path {
						t.Errorf("%s paired with %s, want %q", p.new.Path, p.old.Path, w)
					}
				}
			}
			if len(removed) != len(tc.removed) || (len(removed) > 0 && removed[0] != tc.removed[0]) {
				t.Errorf("removed %q, want %q", removed, tc.removed)
			}
		})
	}
}
