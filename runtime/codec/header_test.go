package codec

import (
	"errors"
	"net/http"
	"strconv"
	"testing"
)

func TestHeaderDecoder(t *testing.T) {
	resp := &http.Response{StatusCode: 200, Header: http.Header{
		"Etag":                   {`"a"`},
		"X-Rate-Limit-Remaining": {"12"},
		"X-Bad":                  {"twelve"},
	}}
	d := NewHeaderDecoder(resp)
	if got := d.Text("ETag", true); got != `"a"` {
		t.Errorf("Text(ETag) = %q", got)
	}
	if got := DecodeHeader(&d, "X-Rate-Limit-Remaining", false, strconv.Atoi); got == nil || *got != 12 {
		t.Errorf("DecodeHeader(X-Rate-Limit-Remaining) = %v, want 12", got)
	}
	if got := DecodeHeader(&d, "X-Absent", false, ParseInt64); got != nil || d.Err() != nil {
		t.Errorf("DecodeHeader(absent, optional) = %v, %v, want nil, nil", got, d.Err())
	}
	if got := DecodeHeader(&d, "X-Bad", false, strconv.Atoi); got != nil {
		t.Errorf("DecodeHeader(X-Bad) = %v, want nil", *got)
	}
	var he *HeaderError
	if err := d.Err(); !errors.As(err, &he) || he.Field != "X-Bad" || he.Status != 200 {
		t.Fatalf("Err() = %v, want a *HeaderError for X-Bad", err)
	}
	d2 := NewHeaderDecoder(resp)
	d2.Text("X-Required", true)
	if err := d2.Err(); !errors.As(err, &he) || he.Field != "X-Required" || he.Problem != "is absent" {
		t.Errorf("Err() = %v, want X-Required is absent", err)
	}
}

func TestHeaderParsers(t *testing.T) {
	if v, err := ParseInt32("-5"); v != -5 || err != nil {
		t.Errorf("ParseInt32 = %v, %v", v, err)
	}
	if _, err := ParseInt32("3000000000"); err == nil {
		t.Error("ParseInt32(3e9) did not fail")
	}
	if v, err := ParseUint64("18446744073709551615"); v != 1<<64-1 || err != nil {
		t.Errorf("ParseUint64 = %v, %v", v, err)
	}
	if _, err := ParseUint("-1"); err == nil {
		t.Error("ParseUint(-1) did not fail")
	}
	if v, err := ParseDateTime("2026-12-01T10:00:00Z"); err != nil || v.Day() != 1 {
		t.Errorf("ParseDateTime = %v, %v", v, err)
	}
	type kind string
	if v, _ := ParseText[kind]("cat"); v != "cat" {
		t.Errorf("ParseText = %q", v)
	}
}
