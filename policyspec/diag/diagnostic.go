package diag

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Severity tells errors, which stop generation, from warnings, which are
// reported while generation goes on.
type Severity uint8

// Severities. The zero value is Error, so that a diagnostic made without
// one is never silently passed over.
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

// Diagnostic is one finding about an input: a spec, a .proto file, a
// policy file or the plugin's parameters. It is an error; [List.Err] joins
// several.
type Diagnostic struct {
	// Location is where the offending text was written.
	Location Location
	// Rule identifies the finding; see [Rules].
	Rule Rule
	// Message says what is wrong, in lower case, without a final period.
	Message string
	// Fix says how to resolve it, in lower case; empty when there is
	// nothing to add.
	Fix string
	// Severity is Error unless the rule is a warning.
	Severity Severity
}

// MaxQuoted is the most characters of text from an input that a
// diagnostic quotes, its location's path included.
const MaxQuoted = 120

// Error renders "file:line:col: RULE: message (path); fix", leaving out
// the position, the path or the fix when they are unknown. The path is
// cut at its first line break and after [MaxQuoted] characters, with "…"
// where it was cut, and its other control characters are written as
// \xNN, so that one diagnostic is one line of text.
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
		path, cut := FirstLine(d.Location.Path, MaxQuoted)
		for _, r := range path {
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

// FirstLine returns the first line of s (up to a "\r" or "\n"), at most
// n characters of it, and whether anything was cut. Diagnostics quote
// text from an input through it, so that a file that is not what it
// should be (a key, a certificate, a binary) is echoed no further than
// the start of its first line.
func FirstLine(s string, n int) (string, bool) {
	cut := false
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s, cut = s[:i], true
	}
	if utf8.RuneCountInString(s) > n {
		count := 0
		for i := range s {
			if count == n {
				return s[:i], true
			}
			count++
		}
	}
	return s, cut
}
