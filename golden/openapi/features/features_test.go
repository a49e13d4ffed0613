package features

import (
	"encoding/json"
	"testing"
)

// These tests run against the models generated from openapi.yaml, a copy
// of gen/openapi/testdata/features.yaml.

func TestUnionRoundTrip(t *testing.T) {
	in := `{"id":1,"name":"Tom","kind":{"petType":"cat","lives":9},"parent":{"id":2,"name":"Old Tom","kind":{"petType":"Dog","barks":true}}}`
	var p Pet
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	out, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	if string(out) != in {
		t.Errorf("Marshal(Unmarshal(%s)) = %s", in, out)
	}
	v, err := p.Kind.ValueByDiscriminator()
	if err != nil {
		t.Fatalf("ValueByDiscriminator: %v", err)
	}
	if cat, ok := v.(Cat); !ok || cat.Lives == nil || *cat.Lives != 9 {
		t.Errorf("ValueByDiscriminator() = %#v, want a Cat with 9 lives", v)
	}
	dog, err := p.Parent.Kind.ValueByDiscriminator()
	if _, ok := dog.(Dog); err != nil || !ok {
		t.Errorf("ValueByDiscriminator() = %#v, %v, want a Dog", dog, err)
	}
	var k Kind
	if err := k.FromCat(Cat{PetType: "cat"}); err != nil {
		t.Fatalf("FromCat: %v", err)
	}
	if d, err := k.Discriminator(); d != "cat" || err != nil {
		t.Errorf("Discriminator() = %q, %v, want cat", d, err)
	}
}

func TestEnumsAndRecursion(t *testing.T) {
	if PetStatusSoldOut != "sold out" || PetLevelMinus1 != -1 || PetStatusEmpty != "" {
		t.Errorf("enum constants = %q %d %q", PetStatusSoldOut, PetLevelMinus1, PetStatusEmpty)
	}
	n := Node{Value: "a", Next: &Node{Value: "b"}}
	out, err := json.Marshal(n)
	if err != nil || string(out) != `{"value":"a","next":{"value":"b","next":null}}` {
		t.Errorf("Marshal(Node) = %s, %v", out, err)
	}
}
