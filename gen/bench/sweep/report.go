package main

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// listSpecs returns the specs under root (.json, .yaml and .yml files),
// sorted by name.
func listSpecs(root string) ([]spec, error) {
	var out []spec
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".json", ".yaml", ".yml":
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			out = append(out, spec{Name: filepath.ToSlash(rel), Path: path})
		}
		return nil
	})
	slices.SortFunc(out, func(a, b spec) int { return strings.Compare(a.Name, b.Name) })
	return out, err
}

// sample returns n of specs chosen by seed, sorted by name: the same
// specs and seed always give the same sample, and a larger n the same
// sample plus more. All of them when n is at least their number.
func sample(specs []spec, n int, seed uint64) []spec {
	if n >= len(specs) {
		return slices.Clone(specs)
	}
	perm := rand.New(rand.NewPCG(seed, seed^0x5eed)).Perm(len(specs))
	out := make([]spec, 0, n)
	for _, i := range perm[:n] {
		out = append(out, specs[i])
	}
	slices.SortFunc(out, func(a, b spec) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// errorLine matches a diagnostic of oapi-resilient: "file:line:col:
// E-RULE: message" or "file: E-RULE: message".
var errorLine = regexp.MustCompile(`^(?:[^ ]*: )?(E-[A-Z0-9-]+): `)

// errorRules returns the rules of the errors in the output of a failed
// generation, each once in order of appearance, and the first error line.
// Warnings are skipped; output with no error line is "exit".
func errorRules(stderr string) ([]string, string) {
	var rules []string
	first := ""
	for line := range strings.SplitSeq(stderr, "\n") {
		if strings.HasPrefix(line, "warning: ") {
			continue
		}
		m := errorLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if first == "" {
			first = line
		}
		if !slices.Contains(rules, m[1]) {
			rules = append(rules, m[1])
		}
	}
	if len(rules) == 0 {
		return []string{"exit"}, firstLine(stderr)
	}
	return rules, first
}

// group is the failures of one rule.
type group struct {
	Rule  string
	Specs []result
}

// groupFailures groups the failed results by rule, a spec under each of
// its rules; the largest groups first, then by rule.
func groupFailures(results []result) []group {
	byRule := map[string]*group{}
	for _, r := range results {
		if r.Stage == "ok" {
			continue
		}
		for _, rule := range r.Rules {
			g := byRule[rule]
			if g == nil {
				g = &group{Rule: rule}
				byRule[rule] = g
			}
			g.Specs = append(g.Specs, r)
		}
	}
	var out []group
	for _, g := range byRule {
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b group) int {
		return cmp.Or(cmp.Compare(len(b.Specs), len(a.Specs)), strings.Compare(a.Rule, b.Rule))
	})
	return out
}

// slowest returns the n results with the longest generation plus build,
// longest first.
func slowest(results []result, n int) []result {
	out := slices.Clone(results)
	slices.SortStableFunc(out, func(a, b result) int { return cmp.Compare(b.Generate+b.Build, a.Generate+a.Build) })
	return out[:min(n, len(out))]
}

// report prints the success rate, the failures by rule and the slowest
// specs.
func report(w io.Writer, results []result) {
	ok := 0
	stages := map[string]int{}
	for _, r := range results {
		stages[r.Stage]++
		if r.Stage == "ok" {
			ok++
		}
	}
	pct := 0.0
	if len(results) > 0 {
		pct = 100 * float64(ok) / float64(len(results))
	}
	fmt.Fprintf(w, "generate, build and vet: %d of %d (%.1f %%)\n", ok, len(results), pct)
	fmt.Fprintf(w, "failed at: generate %d, timeout %d, build %d, vet %d\n", stages["generate"], stages["timeout"], stages["build"], stages["vet"])
	if groups := groupFailures(results); len(groups) > 0 {
		fmt.Fprintln(w, "\nfailures by rule:")
		for _, g := range groups {
			fmt.Fprintf(w, "  %-22s %d\n", g.Rule, len(g.Specs))
			for _, r := range g.Specs {
				fmt.Fprintf(w, "      %s\n        %s\n", r.Spec.Name, cut(r.Detail, 300))
			}
		}
	}
	fmt.Fprintln(w, "\nslowest (generate + build):")
	for _, r := range slowest(results, 10) {
		fmt.Fprintf(w, "  %8s + %8s  %6.1f MB  %s (%s)\n", r.Generate.Round(time.Millisecond), r.Build.Round(time.Millisecond), float64(r.Size)/1e6, r.Spec.Name, r.Stage)
	}
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
