package golang

import (
	"net/url"
	"strings"
	"testing"
)

func TestEscapePathLiteral(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/pets/", "/pets/"},
		{"/files/café/", "/files/caf%C3%A9/"},
		{"/files/a b|c^d/", "/files/a%20b%7Cc%5Ed/"},
		{`/x/{"<>\` + "`" + `[]}/`, "/x/%7B%22%3C%3E%5C%60%5B%5D%7D/"},
		{"/files/50%25/", "/files/50%25/"},
		{"/files/%2e%C3%A9/", "/files/%2e%C3%A9/"},
		{"/files/50%/", "/files/50%25/"},
		{"/files/50%2", "/files/50%252"},
		{"/a?b#c", "/a%3Fb%23c"},
		{"/keep/-._~!$&'()*+,;=:@/", "/keep/-._~!$&'()*+,;=:@/"},
		{"/nul\x00/tab\t", "/nul%00/tab%09"},
	}
	for _, tt := range tests {
		if got := escapePathLiteral(tt.in); got != tt.want {
			t.Errorf("escapePathLiteral(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzEscapePathLiteral: whatever the literal, the path built from it and
// an escaped value is kept by net/url exactly as written, so the value's
// "%2F" stays escaped; and literal text without "%" means what it says.
func FuzzEscapePathLiteral(f *testing.F) {
	for _, s := range []string{"/files/café/", "/a b|c^d/", "/50%25/", "/50%/", "/a?b#c", "\x00\xff"} {
		f.Add(s, "../../admin")
	}
	f.Fuzz(func(t *testing.T, literal, value string) {
		lit := escapePathLiteral(literal)
		path := "/" + lit + "/" + url.PathEscape(value)
		u, err := url.Parse("http://127.0.0.1" + path)
		if err != nil {
			t.Fatalf("url.Parse(%q): %v", path, err)
		}
		if got := u.EscapedPath(); got != path {
			t.Fatalf("EscapedPath() = %q, want %q as written (literal %q)", got, path, literal)
		}
		if !strings.Contains(literal, "%") {
			if back, err := url.PathUnescape(lit); err != nil || back != literal {
				t.Fatalf("PathUnescape(%q) = %q, %v; want %q", lit, back, err, literal)
			}
		}
	})
}
