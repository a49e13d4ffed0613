package gen

import (
	"testing"
)

func TestPackageName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"petstore", "petstore"},
		{"pet-store", "petstore"},
		{"Billing_API", "billingapi"},
		{"2fa", "p2fa"},
		{"type", "typeapi"},
		{"main", "main"},
		{"名前", "fallback"},
		{"", "fallback"},
	}
	for _, tc := range tests {
		if got := PackageName(tc.in, "fallback"); got != tc.want {
			t.Errorf("PackageName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDependencyName(t *testing.T) {
	tests := []struct{ title, spec, want string }{
		{"Swagger Petstore", "petstore.yaml", "swagger_petstore"},
		{"PetStore", "x.yaml", "pet_store"},
		{"Feature Flags v2", "x.yaml", "feature_flags_v2"},
		{"  --  ", "api/billing-v1.yaml", "billing_v1"},
		{"", "stripe/spec3.yaml", "spec3"},
		{"", "!!.yaml", "api"},
	}
	for _, tc := range tests {
		if got := DependencyName(tc.title, tc.spec); got != tc.want {
			t.Errorf("DependencyName(%q, %q) = %q, want %q", tc.title, tc.spec, got, tc.want)
		}
	}
}
