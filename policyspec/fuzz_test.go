package policyspec

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// FuzzDecode decodes arbitrary bytes as a policy file, resolves every
// dependency and operation it names and renders the review: whatever the
// input, the result is an error made of diagnostics, never a panic.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(examplePolicy))
	f.Add([]byte("defaults: {timeout: 5}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := DecodeFile("fuzz.yaml", data)
		checkDiagnostics(t, err)
		var deps []ReviewDependency
		for _, fd := range file.Dependencies {
			d, err := ResolveDependency(fd.Name, file.DependencyLayers(fd.Name)...)
			checkDiagnostics(t, err)
			rd := ReviewDependency{Dependency: d}
			for i, fo := range fd.Operations {
				idem := runtime.Idempotency(i % 3)
				op, err := d.ResolveOperation(fo.Name, idem, file.OperationLayers(fd.Name, fo.Name)...)
				checkDiagnostics(t, err)
				rd.Operations = append(rd.Operations, op)
			}
			deps = append(deps, rd)
		}
		_ = RenderReview("fuzz", deps, ReviewPerOperation)
		_ = RenderReview("fuzz", deps, ReviewPerDependency)
	})
}

func checkDiagnostics(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var ds diag.List
	if !errors.As(err, &ds) || len(ds) == 0 {
		t.Fatalf("error %v is not a non-empty diag.List", err)
	}
	for _, d := range ds {
		if d.Rule == "" || d.Message == "" {
			t.Fatalf("diagnostic without rule or message: %#v", d)
		}
	}
}

// FuzzParseDuration checks that ParseDuration either fails with a
// DurationError or returns a duration within (0, MaxDuration].
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"800ms", "5", "1 sec", "-5s", "0", "1.5h", "9999999999999h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration(s)
		if err != nil {
			var de *DurationError
			if !errors.As(err, &de) {
				t.Fatalf("ParseDuration(%q) error %v is not a *DurationError", s, err)
			}
			return
		}
		if d <= 0 || d > MaxDuration {
			t.Fatalf("ParseDuration(%q) = %v, outside (0, %v]", s, d, MaxDuration)
		}
	})
}

// FuzzDecodeValue decodes arbitrary JSON as an x-resilience value, the way
// the OpenAPI front end hands it over (maps, slices, strings, float64,
// bools), in both spellings, and resolves it on a read and on a write: an
// error made of diagnostics, never a panic.
func FuzzDecodeValue(f *testing.F) {
	for _, s := range []string{`{"timeout":"2s","retry":{"maxRetries":2,"budget":"10%"}}`,
		`{"fallback":{"kind":"static","value":{"a":[1,2]}}}`, `{"hedge":{"delay":"-1s"}}`, `[1,2]`, `null`,
		`{"retry_budget":1}`, `{"breaker":{"failureRate":1e309}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		at := diag.Location{File: "api.yaml", Line: 3, Col: 5, Path: "#/x-resilience"}
		spec, err := DecodeValue(v, at)
		checkDiagnostics(t, err)
		if m, ok := v.(map[string]any); ok {
			var ws []Written
			for k, x := range m {
				ws = append(ws, Written{Key: SnakeCase(k), Value: x, Loc: at.Child(k)})
			}
			_, err = DecodeWritten(ws, at)
			checkDiagnostics(t, err)
		}
		d, err := ResolveDependency("dep")
		checkDiagnostics(t, err)
		for _, idem := range []runtime.Idempotency{runtime.ReadOnly, runtime.NotIdempotent} {
			_, err := d.ResolveOperation("Op", idem, Layer{Kind: LayerOperation, Spec: spec})
			checkDiagnostics(t, err)
		}
	})
}
