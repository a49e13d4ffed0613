package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func names(specs []spec) []string {
	var out []string
	for _, s := range specs {
		out = append(out, s.Name)
	}
	return out
}

func TestSample(t *testing.T) {
	var specs []spec
	for i := range 1000 {
		specs = append(specs, spec{Name: fmt.Sprintf("api/%04d.json", i)})
	}
	a, b := sample(specs, 300, 1), sample(specs, 300, 1)
	if diff := cmp.Diff(names(a), names(b)); diff != "" {
		t.Errorf("two samples with seed 1 differ (-first +second):\n%s", diff)
	}
	if len(a) != 300 || !slices.IsSorted(names(a)) {
		t.Errorf("sample(1000 specs, 300, 1) has %d specs, sorted %v; want 300, sorted", len(a), slices.IsSorted(names(a)))
	}
	if len(slices.Compact(names(a))) != 300 {
		t.Error("sample(1000 specs, 300, 1) holds a spec twice")
	}
	if other := sample(specs, 300, 2); slices.Equal(names(a), names(other)) {
		t.Error("seeds 1 and 2 give the same sample")
	}
	larger := names(sample(specs, 400, 1))
	for _, n := range names(a) {
		if !slices.Contains(larger, n) {
			t.Errorf("sample of 400 lacks %s of the sample of 300 with the same seed", n)
		}
	}
	if all := sample(specs[:10], 300, 1); len(all) != 10 {
		t.Errorf("sample of 300 of 10 specs has %d, want all 10", len(all))
	}
}

func TestErrorRules(t *testing.T) {
	tests := []struct {
		name, stderr string
		rules        []string
		first        string
	}{
		{
			name: "errors and warnings",
			stderr: "warning: a.json:1:2: W-OPENAPI: fine\n" +
				"a.json:1:5: E-REF-UNRESOLVED: $ref \"x.json\" does not resolve\n" +
				"a.json:1:9: E-PATH-CHAR: bad\n" +
				"a.json:2:1: E-REF-UNRESOLVED: again\n",
			rules: []string{"E-REF-UNRESOLVED", "E-PATH-CHAR"},
			first: `a.json:1:5: E-REF-UNRESOLVED: $ref "x.json" does not resolve`,
		},
		{
			name:   "no location",
			stderr: "spec: E-READ: open spec: no such file\n",
			rules:  []string{"E-READ"},
			first:  "spec: E-READ: open spec: no such file",
		},
		{
			name:   "no diagnostic",
			stderr: "panic: boom\ngoroutine 1\n",
			rules:  []string{"exit"},
			first:  "panic: boom",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, first := errorRules(tt.stderr)
			if !slices.Equal(rules, tt.rules) || first != tt.first {
				t.Errorf("errorRules = %q, %q; want %q, %q", rules, first, tt.rules, tt.first)
			}
		})
	}
}

func TestGroupFailures(t *testing.T) {
	results := []result{
		{Spec: spec{Name: "a"}, Stage: "ok"},
		{Spec: spec{Name: "b"}, Stage: "generate", Rules: []string{"E-OPENAPI", "E-REF-UNRESOLVED"}},
		{Spec: spec{Name: "c"}, Stage: "generate", Rules: []string{"E-REF-UNRESOLVED"}},
		{Spec: spec{Name: "d"}, Stage: "build", Rules: []string{"go build"}},
	}
	var got []string
	for _, g := range groupFailures(results) {
		got = append(got, g.Rule+": "+strings.Join(names(specsOf(g.Specs)), " "))
	}
	want := []string{"E-REF-UNRESOLVED: b c", "E-OPENAPI: b", "go build: d"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("groupFailures (-want +got):\n%s", diff)
	}
	var out strings.Builder
	report(&out, results)
	if !strings.Contains(out.String(), "generate, build and vet: 1 of 4 (25.0 %)") {
		t.Errorf("report does not give the rate 1 of 4:\n%s", out.String())
	}
}

func specsOf(rs []result) []spec {
	var out []spec
	for _, r := range rs {
		out = append(out, r.Spec)
	}
	return out
}
