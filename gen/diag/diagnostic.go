package diag

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/resilientgo/resilient/gen/ir"
)

// Severity tells errors, which stop generation, from warnings, which are
// reported and generation goes on.
type Severity int

// Severities. The zero value is Error, so a diagnostic built without one
// is never silently ignored.
const (
	Error Severity = iota
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one finding about an input document.
type Diagnostic struct {
	Location ir.Location
	// Rule is a stable identifier: "E-..." for errors, "W-..." for
	// warnings.
	Rule string
	// Message says what is wrong, in lower case, without a final period.
	Message string
	// Fix says how to resolve it; empty when there is nothing to add.
	Fix      string
	Severity Severity
}

// Error renders "file:line:col: RULE: message (path); fix", leaving out
// the position, the path or the fix when they are unknown. A path that
// spans lines (a key written with line breaks) is cut at the first, and
// its other control characters are written as \xNN, so that one
// diagnostic is one line of text.
func (d Diagnostic) Error() string {
	var b strings.Builder
	if pos := d.Location.String(); d.Location.File != "" {
		b.WriteString(pos)
		b.WriteString(": ")
	}
	b.WriteString(d.Rule)
	b.WriteString(": ")
	b.WriteString(d.Message)
	if d.Location.Path != "" {
		b.WriteString(" (")
		path, _, cut := strings.Cut(d.Location.Path, "\n")
		for _, r := range strings.TrimSuffix(path, "\r") {
			if unicode.IsControl(r) {
				fmt.Fprintf(&b, "\\x%02x", r)
				continue
			}
			b.WriteRune(r)
		}
		if cut {
			b.WriteString("…")
		}
		b.WriteString(")")
	}
	if d.Fix != "" {
		b.WriteString("; ")
		b.WriteString(d.Fix)
	}
	return b.String()
}
