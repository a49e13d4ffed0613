package policyspec

import (
	"errors"
	"slices"
	"strings"
)

// Rule identifies the kind of a [Diagnostic]. Rules starting with "E-" are
// errors, rules starting with "W-" are warnings.
type Rule string

// The rules this package reports.
const (
	// RuleYAML: the policy file is not valid YAML.
	RuleYAML Rule = "E-YAML"
	// RuleUnknownKey: a key that is not part of the policy vocabulary.
	RuleUnknownKey Rule = "E-EXT-UNKNOWN"
	// RuleType: a value of the wrong kind (a list where a number belongs).
	RuleType Rule = "E-TYPE"
	// RuleDuration: a duration that does not parse, has no unit, or is
	// negative, zero where zero is not allowed, or too long.
	RuleDuration Rule = "E-DURATION"
	// RuleRange: a number or a pair of settings out of its allowed range.
	RuleRange Rule = "E-RANGE"
	// RuleBreakerWindow: a breaker window that is not a positive whole
	// number of seconds.
	RuleBreakerWindow Rule = "E-BREAKER-WINDOW"
	// RuleScope: a key written at a level where it has no meaning, such as a
	// dependency-wide breaker on one operation.
	RuleScope Rule = "E-SCOPE"
	// RuleRetryUnsafe: an operation asks for retries but is not idempotent
	// and carries no idempotency key.
	RuleRetryUnsafe Rule = "E-RETRY-UNSAFE"
	// RuleHedgeUnsafe: an operation asks for hedging but is not a read.
	RuleHedgeUnsafe Rule = "E-HEDGE-UNSAFE"
	// RuleHedgeDelay: hedging without a delay or a measured p95, or with a
	// delay the attempt timeout never reaches.
	RuleHedgeDelay Rule = "E-HEDGE-DELAY"
	// RuleFallbackUnsafe: an operation asks for a fallback but is not a read.
	RuleFallbackUnsafe Rule = "E-FALLBACK-UNSAFE"
	// RuleFallbackValue: a static fallback without a value, a value for a
	// fallback that is not static, or shared for one that is not cached.
	RuleFallbackValue Rule = "E-FALLBACK-VALUE"
	// RuleTimeoutOrder: an attempt timeout not below the total timeout.
	RuleTimeoutOrder Rule = "E-TIMEOUT-ORDER"
	// RuleTimeoutBelowP99: a timeout below the measured p99 latency.
	RuleTimeoutBelowP99 Rule = "E-TIMEOUT-BELOW-P99"
	// RuleUnused: a policy file entry that names no known dependency or
	// operation.
	RuleUnused Rule = "E-POLICY-UNUSED"
	// RuleShadowed: a policy file value that a specification overrides,
	// so that it has no effect.
	RuleShadowed Rule = "W-SHADOWED"
)

// Severity says whether a [Diagnostic] fails generation.
type Severity uint8

const (
	// SeverityError fails generation. It is the zero value.
	SeverityError Severity = iota
	// SeverityWarning is reported but does not fail generation.
	SeverityWarning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one problem found in a policy, with where it is and how to
// fix it. Its Error method reads
// "file:line:col: E-RULE: what (where); fix".
type Diagnostic struct {
	// Location is where the offending value was written.
	Location Location
	// Rule identifies the problem.
	Rule Rule
	// Message says what is wrong, in lower case.
	Message string
	// Fix says how to fix it, in lower case; empty when obvious.
	Fix string
	// Severity is SeverityError unless the rule is a warning.
	Severity Severity
}

// Error formats d as "file:line:col: E-RULE: what (where); fix". The
// "(where)" part is the location's Path; parts that are unknown are left
// out.
func (d Diagnostic) Error() string {
	var b strings.Builder
	if pos := d.Location.position(); pos != "" {
		b.WriteString(pos)
		b.WriteString(": ")
	}
	b.WriteString(string(d.Rule))
	b.WriteString(": ")
	b.WriteString(d.Message)
	if d.Location.Path != "" {
		b.WriteString(" (")
		b.WriteString(shortPath(d.Location.Path))
		b.WriteString(")")
	}
	if d.Fix != "" {
		b.WriteString("; ")
		b.WriteString(d.Fix)
	}
	return b.String()
}

// Diagnostics is a list of problems. As an error it prints one diagnostic
// per line; [errors.As] reaches each [Diagnostic] through Unwrap.
type Diagnostics []Diagnostic

// Error prints the diagnostics one per line.
func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns each diagnostic as an error.
func (ds Diagnostics) Unwrap() []error {
	errs := make([]error, len(ds))
	for i, d := range ds {
		errs[i] = d
	}
	return errs
}

// Sorted returns a copy of ds ordered by location, then rule and message,
// with exact duplicates removed (a wide layer shared by many operations
// reports its problems once).
func (ds Diagnostics) Sorted() Diagnostics {
	out := slices.Clone(ds)
	slices.SortStableFunc(out, func(a, b Diagnostic) int {
		if c := a.Location.compare(b.Location); c != 0 {
			return c
		}
		if c := strings.Compare(string(a.Rule), string(b.Rule)); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	return slices.Compact(out)
}

// HasErrors reports whether any diagnostic has [SeverityError].
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Err returns ds sorted as an error, or nil when ds is empty. Use it instead
// of returning a nil Diagnostics as an error, which would not be nil.
func (ds Diagnostics) Err() error {
	if len(ds) == 0 {
		return nil
	}
	return ds.Sorted()
}

// Join collects the diagnostics of every non-nil error into one sorted,
// de-duplicated [Diagnostics] error; nil when there are none. Errors that
// hold no diagnostics are kept, joined in front with [errors.Join].
func Join(errs ...error) error {
	var all Diagnostics
	var others []error
	for _, err := range errs {
		if err == nil {
			continue
		}
		var ds Diagnostics
		var d Diagnostic
		switch {
		case errors.As(err, &ds):
			all = append(all, ds...)
		case errors.As(err, &d):
			all = append(all, d)
		default:
			others = append(others, err)
		}
	}
	if len(others) == 0 {
		return all.Err()
	}
	if len(all) > 0 {
		others = append(others, all.Sorted())
	}
	return errors.Join(others...)
}
