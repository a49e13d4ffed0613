package gen

import (
	"go/token"
	"strings"
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

// FuzzPackageAndDependencyNames: any title and file name give a Go
// package name (or the fallback) and a snake-case dependency name.
func FuzzPackageAndDependencyNames(f *testing.F) {
	for _, s := range []string{"", "Swagger Petstore", "type", "2fa", "名前", "seg_ment", "\xff", "  --  "} {
		f.Add(s, "api/"+s+".yaml")
	}
	f.Fuzz(func(t *testing.T, title, spec string) {
		if p := PackageName(title, "fallback"); p != "fallback" && (!token.IsIdentifier(p) || token.IsKeyword(p)) {
			t.Errorf("PackageName(%q) = %q: not a package name", title, p)
		}
		d := DependencyName(title, spec)
		if d == "" || strings.Trim(d, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" || strings.HasPrefix(d, "_") || strings.HasSuffix(d, "_") {
			t.Errorf("DependencyName(%q, %q) = %q: not snake case", title, spec, d)
		}
	})
}
