package codec

import (
	"strings"
	"testing"
)

// TestParseBaseURL: a base URL is a scheme, a host and a path; anything
// that appending paths would mangle, or that would send credentials, is
// refused with an error saying what to do, never showing a password.
func TestParseBaseURL(t *testing.T) {
	tests := []struct {
		raw, want, wantErr string
	}{
		{raw: "https://api.example.com/v1/", want: "https://api.example.com/v1"},
		{raw: "http://127.0.0.1:8080", want: "http://127.0.0.1:8080"},
		{raw: "/relative", wantErr: "not an absolute http or https URL"},
		{raw: "ftp://files.example.com", wantErr: "not an absolute http or https URL"},
		{raw: "https:///v1", wantErr: "has no host"},
		{raw: "https://api.example.com/v1?key=1", wantErr: "has a query"},
		{raw: "https://api.example.com/v1?", wantErr: "has a query"},
		{raw: "https://api.example.com/v1#top", wantErr: "has a fragment"},
		{raw: "https://user:s3cret@api.example.com", wantErr: "has userinfo"},
		{raw: "https://user:s3cret@api.example.com:bad", wantErr: "does not parse"},
	}
	for _, tt := range tests {
		u, err := ParseBaseURL(tt.raw)
		var got string
		if u != nil {
			got = u.String()
		}
		switch {
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("ParseBaseURL(%q) = %q, %v; want %q", tt.raw, got, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("ParseBaseURL(%q) error = %v, want one saying %q", tt.raw, err, tt.wantErr)
		case err != nil && strings.Contains(err.Error(), "s3cret"):
			t.Errorf("ParseBaseURL(%q) error %q shows the password", tt.raw, err)
		}
	}
}
