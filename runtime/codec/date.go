package codec

import (
	"errors"
	"fmt"
	"time"

	"github.com/resilientgo/resilient/runtime/internal/httptext"
)

// Date is a civil date, without a time of day or a time zone: what an
// OpenAPI string of format "date" holds (RFC 3339 full-date,
// "2026-12-01"). Its text and JSON forms are that string. The zero value
// is no date (IsZero reports it, the omitzero option leaves it out, and
// marshalling it fails). A Date is comparable with ==; it is safe for
// concurrent reads.
type Date struct {
	Year  int        // the year, 0 to 9999 in text form
	Month time.Month // 1 to 12
	Day   int        // 1 to 31, valid for the month
}

// DateOf returns the date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// ParseDate parses an RFC 3339 full-date, "YYYY-MM-DD", refusing any other
// form and a day the month does not have.
func ParseDate(s string) (Date, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return Date{}, fmt.Errorf("resilient: date %q is not in the form YYYY-MM-DD", httptext.Printable(s))
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 {
		return Date{}, fmt.Errorf("resilient: date %q is not in the form YYYY-MM-DD", httptext.Printable(s))
	}
	date := Date{Year: y, Month: time.Month(m), Day: d}
	if !date.IsValid() {
		return Date{}, fmt.Errorf("resilient: date %q does not exist", s)
	}
	return date, nil
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// IsValid reports whether d is a day of the calendar with a four-digit
// year.
func (d Date) IsValid() bool {
	if d.Year < 0 || d.Year > 9999 || d.Month < time.January || d.Month > time.December || d.Day < 1 {
		return false
	}
	return DateOf(d.In(time.UTC)) == d
}

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// In returns the time at the start of d in loc.
func (d Date) In(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// String returns d as "YYYY-MM-DD".
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// Before reports whether d is before e.
func (d Date) Before(e Date) bool {
	if d.Year != e.Year {
		return d.Year < e.Year
	}
	if d.Month != e.Month {
		return d.Month < e.Month
	}
	return d.Day < e.Day
}

// errInvalidDate is the error of marshalling a date that does not exist.
var errInvalidDate = errors.New("resilient: invalid date")

// MarshalText writes "YYYY-MM-DD"; it fails for a date that does not
// exist (the zero Date included).
func (d Date) MarshalText() ([]byte, error) {
	if !d.IsValid() {
		return nil, fmt.Errorf("%w: %d-%d-%d", errInvalidDate, d.Year, int(d.Month), d.Day)
	}
	return []byte(d.String()), nil
}

// UnmarshalText parses "YYYY-MM-DD" as [ParseDate] does.
func (d *Date) UnmarshalText(text []byte) error {
	v, err := ParseDate(string(text))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
