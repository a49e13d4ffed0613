package policyspec

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
	"go.yaml.in/yaml/v4"
)

// decodeYAML decodes src as one policy object of file "api.yaml" at path
// "#/x-resilience".
func decodeYAML(t *testing.T, src string) (Spec, error) {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatalf("yaml.Unmarshal: %v", err)
	}
	return DecodeNode(&n, diag.Location{File: "api.yaml", Path: "#/x-resilience"})
}

// mustSpec decodes src and fails the test on any diagnostic.
func mustSpec(t *testing.T, src string) Spec {
	t.Helper()
	s, err := decodeYAML(t, src)
	if err != nil {
		t.Fatalf("decode %q: %v", src, err)
	}
	return s
}

// messages returns the Error text of each diagnostic in err.
func messages(err error) []string {
	if err == nil {
		return nil
	}
	var ds diag.List
	if !errors.As(err, &ds) {
		return []string{"not diagnostics: " + err.Error()}
	}
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Error()
	}
	return out
}

// rules returns the rule of each diagnostic in err.
func rules(err error) []diag.Rule {
	var ds diag.List
	if !errors.As(err, &ds) {
		return nil
	}
	out := make([]diag.Rule, len(ds))
	for i, d := range ds {
		out[i] = d.Rule
	}
	return out
}

// flat renders every set field of s as "key=value@line:col", in vocabulary
// order, for comparisons.
func flat(s Spec) []string {
	var out []string
	for _, def := range keyTable() {
		f := def.field(&s)
		loc, set := fieldSet(f)
		if !set {
			continue
		}
		out = append(out, fmt.Sprintf("%s=%v@%d:%d", def.name, fieldValue(f), loc.Line, loc.Col))
	}
	return out
}

func fieldValue(f any) any {
	switch f := f.(type) {
	case *Field[bool]:
		return f.Value
	case *Field[string]:
		return f.Value
	case *Field[int]:
		return f.Value
	case *Field[float64]:
		return f.Value
	case *Field[time.Duration]:
		return f.Value
	case *Field[runtime.FallbackKind]:
		return f.Value
	case *Field[any]:
		return f.Value
	case *Field[StoreName]:
		return f.Value
	case *Field[KeyPrefix]:
		return f.Value
	}
	return nil
}

func containsStr(s, sub string) bool { return strings.Contains(s, sub) }

func indexStr(s, sub string) int { return strings.Index(s, sub) }

func splitDot(s string) []string { return strings.Split(s, ".") }
