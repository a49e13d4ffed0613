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

// TestRealTypes checks the types of formats and nullability: a date
// decodes into a codec.Date, and an optional nullable property tells
// absent, null and set apart in both directions.
func TestRealTypes(t *testing.T) {
	tests := []struct {
		name, in       string
		set, null, has bool
	}{
		{name: "absent", in: `{"id":1,"name":"Tom","kind":{"petType":"cat"},"born":"2020-02-29"}`},
		{name: "null", in: `{"id":1,"name":"Tom","kind":{"petType":"cat"},"born":"2020-02-29","nickname":null}`, null: true, has: true},
		{name: "set", in: `{"id":1,"name":"Tom","kind":{"petType":"cat"},"born":"2020-02-29","nickname":"Tommy"}`, set: true, has: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Pet
			if err := json.Unmarshal([]byte(tt.in), &p); err != nil {
				t.Fatalf("Unmarshal: %v", err)
			}
			if p.Born == nil || p.Born.String() != "2020-02-29" {
				t.Errorf("Born = %v, want 2020-02-29", p.Born)
			}
			if v, ok := p.Nickname.Get(); ok != tt.set || ok && v != "Tommy" {
				t.Errorf("Nickname.Get() = %q, %t, want set %t", v, ok, tt.set)
			}
			if p.Nickname.IsNull() != tt.null || p.Nickname.IsSet() != tt.has {
				t.Errorf("Nickname null %t set %t, want %t %t", p.Nickname.IsNull(), p.Nickname.IsSet(), tt.null, tt.has)
			}
			out, err := json.Marshal(p)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if string(out) != tt.in {
				t.Errorf("Marshal = %s, want %s", out, tt.in)
			}
		})
	}
}
