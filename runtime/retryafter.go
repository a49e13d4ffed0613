package runtime

import (
	"net/http"
	"strings"
	"time"
)

// maxRetryAfter bounds the delays parseRetryAfter returns. A larger value
// (a delay of centuries, a date in the year 9999) is clamped to it, so that
// the result can be added to a time or a duration without overflow; it is
// still far beyond any deadline, so the call fails fast with it attached.
const maxRetryAfter = 100 * 365 * 24 * time.Hour

// parseRetryAfter parses the value of a Retry-After header field (RFC 9110
// §10.2.3) and returns the delay it asks for, relative to now.
//
// The value is either delay-seconds, a non-negative decimal integer without
// sign, fraction or exponent ("120"), or an HTTP-date in any of the three
// forms of RFC 9110 §5.6.7: IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"),
// the obsolete RFC 850 form ("Sunday, 06-Nov-94 08:49:37 GMT", whose
// two-digit year is read as the most recent year that is not more than 50
// years after now) and asctime ("Sun Nov  6 08:49:37 1994"). A date in the
// past gives 0. Surrounding spaces and tabs are ignored.
//
// A comma-separated list, as produced by combining repeated header lines, is
// accepted when all its members agree (empty members are ignored). An empty
// value, garbage, a negative number, a fraction, or members that disagree
// give (0, false): the caller should then use its own backoff.
//
// The result is never negative and never above maxRetryAfter.
func parseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	value = trimOWS(value)
	if d, ok := parseRetryAfterOne(value, now); ok {
		return d, true
	}
	if !strings.Contains(value, ",") {
		return 0, false
	}
	// A list. HTTP-dates contain a comma after the day name, so a member
	// that is only a day name is joined with the member that follows it.
	var (
		d     time.Duration
		found bool
		day   string
	)
	for member := range strings.SplitSeq(value, ",") {
		if day != "" {
			member, day = day+","+member, ""
		} else if m := trimOWS(member); isDayName(m) {
			day = m
			continue
		}
		m := trimOWS(member)
		if m == "" {
			continue
		}
		v, ok := parseRetryAfterOne(m, now)
		if !ok || (found && v != d) {
			return 0, false
		}
		d, found = v, true
	}
	if day != "" {
		return 0, false
	}
	return d, found
}

// parseRetryAfterHeader returns the delay asked for by the Retry-After field
// of the response header h, as parseRetryAfter reads it. An HTTP-date is
// measured from the response's own Date field when it is present and valid,
// so that a skew between the server's clock and ours does not matter, and
// from now otherwise. Repeated Retry-After lines must agree, like members
// of a list.
func parseRetryAfterHeader(h http.Header, now time.Time) (time.Duration, bool) {
	values := h["Retry-After"]
	if len(values) == 0 {
		return 0, false
	}
	if date := h["Date"]; len(date) == 1 {
		if t, err := http.ParseTime(date[0]); err == nil {
			now = t
		}
	}
	d, ok := parseRetryAfter(values[0], now)
	if !ok {
		return 0, false
	}
	for _, v := range values[1:] {
		if o, ok := parseRetryAfter(v, now); !ok || o != d {
			return 0, false
		}
	}
	return d, true
}

// parseRetryAfterOne parses one member: delay-seconds or an HTTP-date.
func parseRetryAfterOne(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if c := v[0]; c >= '0' && c <= '9' {
		return parseDelaySeconds(v)
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	switch last := v[len(v)-1]; {
	case last >= '0' && last <= '9': // asctime: no zone, GMT implied
	case !strings.HasSuffix(v, " GMT"):
		// time.RFC850 accepts any zone abbreviation; HTTP allows only GMT.
		return 0, false
	case strings.IndexByte(v, '-') > 0:
		t = fixTwoDigitYear(t, now)
	}
	d := t.Sub(now)
	switch {
	case d < 0:
		return 0, true
	case d > maxRetryAfter:
		return maxRetryAfter, true
	}
	return d, true
}

// parseDelaySeconds parses 1*DIGIT, clamping to maxRetryAfter.
func parseDelaySeconds(v string) (time.Duration, bool) {
	const maxSeconds = int64(maxRetryAfter / time.Second)
	var n int64
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n <= maxSeconds {
			n = n*10 + int64(c-'0')
		}
	}
	if n > maxSeconds {
		return maxRetryAfter, true
	}
	return time.Duration(n) * time.Second, true
}

// fixTwoDigitYear applies RFC 9110 §5.6.7 to an RFC 850 date: a two-digit
// year that would be more than 50 years in the future means the most recent
// past year with the same last two digits.
func fixTwoDigitYear(t, now time.Time) time.Time {
	yy := t.Year() % 100
	year := now.Year() - now.Year()%100 + yy
	if year > now.Year()+50 {
		year -= 100
	}
	if year == t.Year() {
		return t
	}
	return time.Date(year, t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
}

// isDayName reports whether s is a day name as the HTTP-date forms that
// contain a comma start with it ("Sun" or "Sunday").
func isDayName(s string) bool {
	for _, d := range [...]string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"} {
		if s == d {
			return true
		}
	}
	switch s {
	case "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday":
		return true
	}
	return false
}

// trimOWS removes optional whitespace (spaces and tabs) around s.
func trimOWS(s string) string {
	return strings.Trim(s, " \t")
}
