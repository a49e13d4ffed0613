package openapi

import (
	"strings"
	"testing"
)

// TestNestedPointer: the pointer of a schema nested ever deeper stays
// bounded, keeps its head (where the schema is) and its latest tokens,
// and is cut once, at token boundaries.
func TestNestedPointer(t *testing.T) {
	if got := nested("#/paths/~1a/get"); got != "#/paths/~1a/get" {
		t.Errorf("nested(short) = %q, want it unchanged", got)
	}
	const head = "#/paths/~1tree/get/responses/200/content/application~1json/schema"
	p := head
	for i := range 2000 {
		p = nested(pointer(p, "properties", "child"))
		if i == 1999 {
			p = nested(pointer(p, "properties", "last"))
		}
		if len(p) > maxSchemaPointer+len("/properties/child") {
			t.Fatalf("after %d levels the pointer has %d bytes", i+1, len(p))
		}
	}
	switch {
	case !strings.HasPrefix(p, head+"/properties/child/"):
		t.Errorf("pointer %q lost its head", p)
	case !strings.HasSuffix(p, "/properties/child/properties/last"):
		t.Errorf("pointer %q lost its tail", p)
	case strings.Count(p, "/…/") != 1:
		t.Errorf("pointer %q is not cut exactly once", p)
	}
	for tok := range strings.SplitSeq(strings.TrimPrefix(p, "#/"), "/") {
		if tok != "properties" && tok != "child" && tok != "last" && tok != "…" && !strings.HasPrefix(head, "#/"+tok) && !strings.Contains(head, "/"+tok) {
			t.Errorf("pointer %q has a token cut in two: %q", p, tok)
		}
	}
}
