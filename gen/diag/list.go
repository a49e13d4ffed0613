package diag

import (
	"errors"
	"slices"

	"github.com/resilientgo/resilient/gen/ir"
)

// List collects diagnostics. The zero value is an empty list ready to
// use. A List is not safe for concurrent use.
type List struct {
	items []Diagnostic
}

// Add appends d.
func (l *List) Add(d Diagnostic) { l.items = append(l.items, d) }

// Errorf appends an error.
func (l *List) Errorf(loc ir.Location, rule, message, fix string) {
	l.Add(Diagnostic{Location: loc, Rule: rule, Message: message, Fix: fix, Severity: Error})
}

// Warnf appends a warning.
func (l *List) Warnf(loc ir.Location, rule, message, fix string) {
	l.Add(Diagnostic{Location: loc, Rule: rule, Message: message, Fix: fix, Severity: Warning})
}

// Append adds every diagnostic of other.
func (l *List) Append(other List) { l.items = append(l.items, other.items...) }

// All returns the diagnostics sorted by location, then rule and message,
// without duplicates.
func (l *List) All() []Diagnostic {
	out := slices.Clone(l.items)
	slices.SortStableFunc(out, compare)
	return slices.Compact(out)
}

// Errors returns the sorted diagnostics of severity Error.
func (l *List) Errors() []Diagnostic { return l.filter(Error) }

// Warnings returns the sorted diagnostics of severity Warning.
func (l *List) Warnings() []Diagnostic { return l.filter(Warning) }

// HasErrors reports whether any diagnostic is an error.
func (l *List) HasErrors() bool {
	return slices.ContainsFunc(l.items, func(d Diagnostic) bool { return d.Severity == Error })
}

// Err joins the errors, sorted, with [errors.Join]; nil when there are
// none. Each joined error is a [Diagnostic].
func (l *List) Err() error {
	errs := l.Errors()
	if len(errs) == 0 {
		return nil
	}
	joined := make([]error, len(errs))
	for i, d := range errs {
		joined[i] = d
	}
	return errors.Join(joined...)
}

func (l *List) filter(s Severity) []Diagnostic {
	var out []Diagnostic
	for _, d := range l.All() {
		if d.Severity == s {
			out = append(out, d)
		}
	}
	return out
}

func compare(a, b Diagnostic) int {
	switch {
	case a.Location.Before(b.Location):
		return -1
	case b.Location.Before(a.Location):
		return 1
	case a.Rule != b.Rule:
		if a.Rule < b.Rule {
			return -1
		}
		return 1
	case a.Message != b.Message:
		if a.Message < b.Message {
			return -1
		}
		return 1
	}
	return 0
}
