package codec

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// HeaderDecoder reads the documented header fields of an answer into
// typed values, keeping the first error: a required field that is absent,
// or a value that does not parse. Generated decoders make one per answer,
// read each field, then return Err. Its zero value reads nothing; use
// [NewHeaderDecoder]. It is not safe for concurrent use.
type HeaderDecoder struct {
	h      http.Header
	status int
	err    error
}

// NewHeaderDecoder returns a decoder of resp's header.
func NewHeaderDecoder(resp *http.Response) HeaderDecoder {
	return HeaderDecoder{h: resp.Header, status: resp.StatusCode}
}

// Text returns the first value of the field name; empty when it is absent,
// which is an error when required.
func (d *HeaderDecoder) Text(name string, required bool) string {
	vs := d.h.Values(name)
	if len(vs) == 0 {
		if required {
			d.fail(name, "is absent", nil)
		}
		return ""
	}
	return vs[0]
}

// Err returns the first error met, a [*HeaderError]; nil when every field
// read was well formed.
func (d *HeaderDecoder) Err() error { return d.err }

func (d *HeaderDecoder) fail(name, what string, err error) {
	if d.err == nil {
		d.err = &HeaderError{Status: d.status, Field: name, Problem: what, Err: err}
	}
}

// DecodeHeader returns the first value of the field name parsed by parse,
// nil when the field is absent (an error of d when required) or does not
// parse (an error of d).
func DecodeHeader[T any](d *HeaderDecoder, name string, required bool, parse func(string) (T, error)) *T {
	vs := d.h.Values(name)
	if len(vs) == 0 {
		if required {
			d.fail(name, "is absent", nil)
		}
		return nil
	}
	v, err := parse(vs[0])
	if err != nil {
		d.fail(name, fmt.Sprintf("%q does not parse", vs[0]), err)
		return nil
	}
	return &v
}

// HeaderError says that a documented header field of a successful answer
// is not as the API describes it: a required field is absent, or its
// value does not parse as its type. A generated decoder returns it, so the
// call fails with it as with any decode error (runtime.DoHTTP: permanent, not
// retried); errors.As finds it in the call's error.
type HeaderError struct {
	// Status is the answer's status code.
	Status int
	// Field is the header field's name.
	Field string
	// Problem says what is wrong ("is absent", `"x" does not parse`).
	Problem string
	// Err is the parser's error, nil for an absent field.
	Err error
}

// Error describes the problem.
func (e *HeaderError) Error() string {
	msg := "resilient: header " + e.Field + " of the " + strconv.Itoa(e.Status) + " answer " + e.Problem
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the parser's error.
func (e *HeaderError) Unwrap() error { return e.Err }

// Parsers of header values for [DecodeHeader], beside strconv.Atoi,
// strconv.ParseBool, [ParseDate] and uuid.Parse, which have the shape
// already.

// ParseInt32 parses a decimal int32.
func ParseInt32(s string) (int32, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	return int32(n), err
}

// ParseInt64 parses a decimal int64.
func ParseInt64(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) }

// ParseUint parses a decimal uint.
func ParseUint(s string) (uint, error) {
	n, err := strconv.ParseUint(s, 10, 0)
	return uint(n), err
}

// ParseUint32 parses a decimal uint32.
func ParseUint32(s string) (uint32, error) {
	n, err := strconv.ParseUint(s, 10, 32)
	return uint32(n), err
}

// ParseUint64 parses a decimal uint64.
func ParseUint64(s string) (uint64, error) { return strconv.ParseUint(s, 10, 64) }

// ParseFloat32 parses a float32.
func ParseFloat32(s string) (float32, error) {
	f, err := strconv.ParseFloat(s, 32)
	return float32(f), err
}

// ParseFloat64 parses a float64.
func ParseFloat64(s string) (float64, error) { return strconv.ParseFloat(s, 64) }

// ParseDateTime parses an RFC 3339 date-time.
func ParseDateTime(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// ParseText converts the text to a string type (a string enum) as is.
func ParseText[T ~string](s string) (T, error) { return T(s), nil }
