package codec

import (
	"net/http"
	"strings"
	"testing"
)

// TestAddCookie: a cookie value net/http would silently cut is refused
// with an error naming the cookie and the byte; a valid one is added.
func TestAddCookie(t *testing.T) {
	tests := []struct {
		name, cookie, value string
		wantErr             string
	}{
		{name: "plain", cookie: "session", value: "abc123"},
		{name: "space is quoted, not cut", cookie: "session", value: "a b"},
		{name: "semicolon", cookie: "session", value: "a;admin=1", wantErr: `cookie "session": its value has the byte 0x3b at 1`},
		{name: "LF", cookie: "session", value: "a\nb", wantErr: "0x0a at 1"},
		{name: "non-ASCII", cookie: "session", value: "é", wantErr: "0xc3 at 0"},
		{name: "bad name", cookie: "ses sion", value: "a", wantErr: `cookie name "ses sion"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, "http://pets.test/", nil)
			err := AddCookie(req, tt.cookie, tt.value)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("AddCookie = %v", err)
			case tt.wantErr == "":
				if c, err := req.Cookie(tt.cookie); err != nil || c.Value != tt.value {
					t.Errorf("cookie = %v, %v; want %q", c, err, tt.value)
				}
			case err == nil || !strings.Contains(err.Error(), tt.wantErr):
				t.Errorf("AddCookie error = %v, want one containing %q", err, tt.wantErr)
			case req.Header.Get("Cookie") != "":
				t.Errorf("refused cookie was added: %q", req.Header.Get("Cookie"))
			}
		})
	}
}
