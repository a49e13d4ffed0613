package policyspec

import (
	"fmt"
	"strings"
	"time"
)

// MaxDuration is the longest duration a policy accepts. Longer values are
// mistakes (and would overflow the derivations).
const MaxDuration = 7 * 24 * time.Hour

// DurationError is returned by [ParseDuration] for a text that is not a
// policy duration.
type DurationError struct {
	// Text is the text that was parsed.
	Text string
	// Reason says what is wrong, in lower case.
	Reason string
}

// Error returns "policyspec: duration "text" reason".
func (e *DurationError) Error() string {
	return fmt.Sprintf("policyspec: duration %q %s", e.Text, e.Reason)
}

// ParseDuration parses a policy duration: a Go duration string with a unit
// ("800ms", "1.5s", "2m"), greater than zero and at most [MaxDuration]. A
// bare number ("5"), a spaced unit ("1 sec"), a negative or a zero value are
// rejected with a [*DurationError].
func ParseDuration(s string) (time.Duration, error) {
	d, reason := parseDuration(s, false)
	if reason != "" {
		return 0, &DurationError{Text: s, Reason: reason}
	}
	return d, nil
}

// parseDuration parses s and returns why it is not acceptable, or "".
// zeroOK admits "0" and "0s".
func parseDuration(s string, zeroOK bool) (time.Duration, string) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, "is empty"
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		if strings.ContainsAny(t, " \t") {
			return 0, "has a space; write the unit right after the number"
		}
		if strings.Contains(err.Error(), "missing unit") {
			return 0, "has no unit"
		}
		return 0, "is not a Go duration"
	}
	switch {
	case d < 0:
		return 0, "is negative"
	case d == 0 && !zeroOK:
		return 0, "is zero"
	case d > MaxDuration:
		return 0, "is longer than " + MaxDuration.String()
	}
	return d, ""
}
