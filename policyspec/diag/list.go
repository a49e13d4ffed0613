package diag

import (
	"errors"
	"slices"
	"strings"
)

// List collects diagnostics, of every severity, in the order they were
// found. As an error (see [List.Err]) it prints one diagnostic per line,
// and [errors.As] reaches each [Diagnostic] through Unwrap. The zero value
// is an empty list ready to use. A List is not safe for concurrent
// appending.
type List []Diagnostic

// Add appends d.
func (l *List) Add(d Diagnostic) { *l = append(*l, d) }

// Errorf appends an error of rule at loc.
func (l *List) Errorf(loc Location, rule Rule, message, fix string) {
	l.Add(Diagnostic{Location: loc, Rule: rule, Message: message, Fix: fix, Severity: Error})
}

// Warnf appends a warning of rule at loc.
func (l *List) Warnf(loc Location, rule Rule, message, fix string) {
	l.Add(Diagnostic{Location: loc, Rule: rule, Message: message, Fix: fix, Severity: Warning})
}

// Append appends every diagnostic of other.
func (l *List) Append(other List) { *l = append(*l, other...) }

// AddErr appends the diagnostics err holds (see [From]).
func (l *List) AddErr(err error) { *l = append(*l, From(err)...) }

// Sorted returns a copy of l ordered by location, then rule and message,
// without exact duplicates (a wide policy layer shared by many operations
// reports its problems once).
func (l List) Sorted() List {
	out := slices.Clone(l)
	slices.SortStableFunc(out, func(a, b Diagnostic) int {
		if c := a.Location.Compare(b.Location); c != 0 {
			return c
		}
		if c := strings.Compare(string(a.Rule), string(b.Rule)); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	return slices.Compact(out)
}

// Errors returns the sorted diagnostics of severity Error.
func (l List) Errors() List { return l.filter(Error) }

// Warnings returns the sorted diagnostics of severity Warning.
func (l List) Warnings() List { return l.filter(Warning) }

func (l List) filter(s Severity) List {
	var out List
	for _, d := range l.Sorted() {
		if d.Severity == s {
			out = append(out, d)
		}
	}
	return out
}

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Severity == Error })
}

// Err returns the errors of l, sorted, as an error; nil when there are
// none. Use it instead of returning a List as an error, which would not
// be nil when empty, and would carry the warnings.
func (l List) Err() error {
	errs := l.Errors()
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// Error prints the diagnostics one per line.
func (l List) Error() string {
	lines := make([]string, len(l))
	for i, d := range l {
		lines[i] = d.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns each diagnostic as an error.
func (l List) Unwrap() []error {
	errs := make([]error, len(l))
	for i, d := range l {
		errs[i] = d
	}
	return errs
}

// From takes err apart into its diagnostics: those of a List or of
// errors joined with [errors.Join], a Diagnostic wrapped with %w, each in
// order. Any other error becomes one E-INTERNAL diagnostic without a
// location, its message cut to its first line. From(nil) is empty.
func From(err error) List {
	if err == nil {
		return nil
	}
	var out List
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case Diagnostic:
			out = append(out, e)
			return
		case List:
			out = append(out, e...)
			return
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				walk(inner)
			}
			return
		}
		var d Diagnostic
		if errors.As(err, &d) {
			out = append(out, d)
			return
		}
		msg, _ := FirstLine(err.Error(), len(err.Error()))
		out = append(out, Diagnostic{Rule: RuleInternal, Message: strings.TrimSpace(msg)})
	}
	walk(err)
	return out
}
