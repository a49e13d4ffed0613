package golang

import (
	"go/token"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/gen/golang/naming"
)

// FuzzPathNames: the arguments and segment locals of any list of path
// parameters (comma-separated names; a name starting with "[" is an
// array, whose value needs a local) are named in finite time, and every
// name is a Go identifier, unique, and none of the builder's fixed
// locals.
func FuzzPathNames(f *testing.F) {
	for _, s := range []string{
		"[ids,seg0,seg,segment_id,[tags",
		"seg,seg,seg,seg",
		"[seg0,[seg1,[seg2,seg3,seg4,seg5",
		"ctx,err,u,q,[v,,,type,segParam",
		"Seg,SEG_0,seg-0,名前,Ⅻ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		names := strings.Split(list, ",")
		if len(names) > 64 {
			names = names[:64]
		}
		taken := map[string]bool{}
		var args []*paramView
		for _, n := range names {
			v := &paramView{shape: shapeScalar}
			if rest, ok := strings.CutPrefix(n, "["); ok {
				n, v.shape = rest, shapeArray
			}
			ident, ok := naming.Exported(n, "P")
			if !ok {
				ident = n
			}
			v.name = argName(ident, taken)
			args = append(args, v)
		}
		segLocals(args, taken)
		seen := map[string]bool{}
		for _, a := range args {
			ids := []string{a.name}
			if a.shape != shapeScalar {
				ids = append(ids, a.local)
			}
			for _, id := range ids {
				if !token.IsIdentifier(id) || fixedLocals[id] || seen[id] {
					t.Errorf("names of %q: %q is not an identifier, is a fixed local, or is used twice", list, id)
				}
				seen[id] = true
			}
		}
		if len(seen) != len(taken) {
			t.Errorf("names of %q: %d names given, %d taken", list, len(seen), len(taken))
		}
	})
}
