package runtime

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

// retryAfterNow is the "now" of the Retry-After tests: Sunday 2026-03-01
// 12:00:00 UTC, as the fuzz seed corpus also uses.
var retryAfterNow = time.Unix(1772366400, 0).UTC()

func TestParseRetryAfter(t *testing.T) {
	now := retryAfterNow
	in := func(d time.Duration, layout string) string { return now.Add(d).Format(layout) }
	const rfc850GMT = "Monday, 02-Jan-06 15:04:05 GMT"
	tests := []struct {
		name   string
		value  string
		want   time.Duration
		wantOK bool
	}{
		{"seconds", "2", 2 * time.Second, true},
		{"zero", "0", 0, true},
		{"leading zeros", "007", 7 * time.Second, true},
		{"surrounding whitespace", " \t3 ", 3 * time.Second, true},
		{"negative", "-1", 0, false},
		{"plus sign", "+1", 0, false},
		{"fraction", "1.5", 0, false},
		{"exponent", "1e3", 0, false},
		{"unit", "5s", 0, false},
		{"empty", "", 0, false},
		{"blank", "  ", 0, false},
		{"garbage", "soon", 0, false},
		{"past IMF-fixdate", "Sun, 06 Nov 1994 08:49:37 GMT", 0, true},
		{"past RFC 850", "Sunday, 06-Nov-94 08:49:37 GMT", 0, true},
		{"past asctime", "Sun Nov  6 08:49:37 1994", 0, true},
		{"future IMF-fixdate", in(90*time.Second, http.TimeFormat), 90 * time.Second, true},
		{"future RFC 850", in(2*time.Minute, rfc850GMT), 2 * time.Minute, true},
		{"future asctime", in(45*time.Second, time.ANSIC), 45 * time.Second, true},
		{"date now", in(0, http.TimeFormat), 0, true},
		{"RFC 850 with another zone", "Sunday, 06-Nov-94 08:49:37 PST", 0, false},
		{"IMF-fixdate in UTC", "Sun, 06 Nov 1994 08:49:37 UTC", 0, false},
		// RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is in
		// the past century; 2070 is 44 years ahead of 2026, 2077 is 51.
		{"RFC 850 year 70 is 2070", "Tuesday, 01-Jan-70 00:00:00 GMT",
			time.Date(2070, 1, 1, 0, 0, 0, 0, time.UTC).Sub(now), true},
		{"RFC 850 year 77 is 1977", "Saturday, 01-Jan-77 00:00:00 GMT", 0, true},
		{"huge delay clamped", "99999999999999999999999", maxRetryAfter, true},
		{"far date clamped", "Fri, 31 Dec 9999 23:59:59 GMT", maxRetryAfter, true},
		{"list agreeing", "30, 30", 30 * time.Second, true},
		{"list disagreeing", "1, 2", 0, false},
		{"list of date and seconds agreeing", in(90*time.Second, http.TimeFormat) + ", 90", 90 * time.Second, true},
		{"list of dates agreeing", in(time.Minute, http.TimeFormat) + "," + in(time.Minute, rfc850GMT), time.Minute, true},
		{"list of date and seconds disagreeing", in(90*time.Second, http.TimeFormat) + ", 91", 0, false},
		{"list with empty members", ", 4,,", 4 * time.Second, true},
		{"list with a bad member", "4, x", 0, false},
		{"list of commas", ",,", 0, false},
		{"dangling day name", "Sun,", 0, false},
		{"day name then seconds", "Sun, 5", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseRetryAfter(tt.value, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("parseRetryAfter(%q) = %v, %v, want %v, %v", tt.value, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestParseRetryAfterHeader(t *testing.T) {
	now := retryAfterNow
	serverNow := now.Add(-time.Hour) // the server's clock is an hour behind
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
		wantOK bool
	}{
		{"absent", http.Header{}, 0, false},
		{"seconds", http.Header{"Retry-After": {"5"}}, 5 * time.Second, true},
		{"date measured from the Date field", http.Header{
			"Date":        {serverNow.Format(http.TimeFormat)},
			"Retry-After": {serverNow.Add(30 * time.Second).Format(http.TimeFormat)},
		}, 30 * time.Second, true},
		{"date without a Date field uses now", http.Header{
			"Retry-After": {now.Add(20 * time.Second).Format(http.TimeFormat)},
		}, 20 * time.Second, true},
		{"invalid Date field uses now", http.Header{
			"Date":        {"yesterday"},
			"Retry-After": {now.Add(20 * time.Second).Format(http.TimeFormat)},
		}, 20 * time.Second, true},
		{"two agreeing lines", http.Header{"Retry-After": {"5", "5"}}, 5 * time.Second, true},
		{"two disagreeing lines", http.Header{"Retry-After": {"5", "6"}}, 0, false},
		{"second line garbage", http.Header{"Retry-After": {"5", "x"}}, 0, false},
		{"garbage", http.Header{"Retry-After": {"-3"}}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseRetryAfterHeader(tt.header, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("parseRetryAfterHeader(%v) = %v, %v, want %v, %v", tt.header, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// FuzzParseRetryAfter checks that no value makes the parser panic or
// return a negative or unbounded delay, and that a plain number of seconds
// is read exactly, up to maxRetryAfter.
func FuzzParseRetryAfter(f *testing.F) {
	now := retryAfterNow.Unix()
	for _, v := range []string{"120", "0", "-1", "1.5", "Sun, 06 Nov 1994 08:49:37 GMT",
		"Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "30, 30", "Sun,"} {
		f.Add(v, now)
	}
	f.Fuzz(func(t *testing.T, value string, unix int64) {
		now := time.Unix(unix, 0)
		d, ok := parseRetryAfter(value, now)
		if d < 0 || d > maxRetryAfter {
			t.Fatalf("parseRetryAfter(%q) = %v, out of [0, %v]", value, d, maxRetryAfter)
		}
		if !ok && d != 0 {
			t.Fatalf("parseRetryAfter(%q) = %v, false; want 0 with false", value, d)
		}
		if n, err := strconv.ParseUint(value, 10, 32); err == nil && value[0] != '+' {
			if want := min(time.Duration(n)*time.Second, maxRetryAfter); !ok || d != want {
				t.Fatalf("parseRetryAfter(%q) = %v, %v, want %v, true", value, d, ok, want)
			}
		}
		h := http.Header{"Retry-After": {value, value}, "Date": {value}}
		if d2, ok2 := parseRetryAfterHeader(h, now); d2 < 0 || (!ok2 && d2 != 0) {
			t.Fatalf("parseRetryAfterHeader(%q) = %v, %v", value, d2, ok2)
		}
	})
}
