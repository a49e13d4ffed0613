package gen

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// billionLaughs is a YAML alias bomb: ten levels of nine aliases each
// expand to 9^10 strings.
func billionLaughs(key string) string {
	var b strings.Builder
	b.WriteString(key + "0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "%s%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", key, i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	return b.String()
}

// TestHostileYAMLFailsFast: alias bombs and nesting bombs, in the spec or
// in the policy file, end in an error within seconds, not in memory
// growth.
func TestHostileYAMLFailsFast(t *testing.T) {
	const head = "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\n"
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	tests := []struct {
		name   string
		spec   string
		policy string
		// rule is the rule of one of the errors.
		rule diag.Rule
	}{
		{"alias bomb in the spec", head + billionLaughs("x-lol"), "", "E-LOAD"},
		{"alias bomb in x-resilience", head + billionLaughs("x-lol") + "x-resilience: {fallback: {kind: static, value: *a9}}\n", "", "E-LOAD"},
		{"nesting bomb in the spec", head + "x-deep: " + deep + "\n", "", "E-YAML"},
		{"alias bomb in the policy file", head, billionLaughs("x") + "defaults: {fallback: {value: *a9}}\n", "E-YAML"},
		{"nesting bomb in the policy file", head, "defaults: {fallback: {value: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}}\n", "E-YAML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := OpenAPIOptions{}
			if tt.policy != "" {
				opts.PolicyName, opts.PolicyData = "policy.yaml", []byte(tt.policy)
			}
			start := time.Now()
			_, err := Check(fstest.MapFS{"api.yaml": {Data: []byte(tt.spec)}}, "api.yaml", opts)
			if elapsed := time.Since(start); elapsed > 5*time.Second {
				t.Errorf("Check took %v", elapsed)
			}
			found := false
			for _, d := range diag.From(err) {
				found = found || d.Rule == tt.rule
				if len(d.Error()) > 1000 {
					t.Errorf("a diagnostic of %d bytes: %.200s...", len(d.Error()), d.Error())
				}
			}
			if !found {
				t.Errorf("Check error = %v, want an %s", err, tt.rule)
			}
		})
	}
}
