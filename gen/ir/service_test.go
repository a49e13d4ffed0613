package ir

import "testing"

func TestServiceType(t *testing.T) {
	named := func(names ...string) []*Type {
		var ts []*Type
		for _, n := range names {
			ts = append(ts, &Type{Name: n})
		}
		return ts
	}
	tests := []struct {
		what  string
		types []*Type
		name  string
		found bool
	}{
		{"sorted, first", named("A", "B", "C", "D"), "A", true},
		{"sorted, last", named("A", "B", "C", "D"), "D", true},
		{"sorted, absent", named("A", "B", "D"), "C", false},
		{"not sorted yet", named("D", "A", "C", "B"), "B", true},
		{"not sorted yet, absent", named("D", "A", "C"), "B", false},
		{"none", nil, "A", false},
	}
	for _, tt := range tests {
		got := (&Service{Types: tt.types}).Type(tt.name)
		switch {
		case !tt.found && got != nil:
			t.Errorf("%s: Type(%q) = %q, want nil", tt.what, tt.name, got.Name)
		case tt.found && (got == nil || got.Name != tt.name):
			t.Errorf("%s: Type(%q) = %v, want the type %q", tt.what, tt.name, got, tt.name)
		}
	}
}
