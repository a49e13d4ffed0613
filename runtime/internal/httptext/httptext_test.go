package httptext

import (
	"strings"
	"testing"
)

// TestRequestByteSets: the bytes of an HTTP token (RFC 9110 §5.6.2) and of
// a Host header as net/http sends it, checked for each of the 256.
func TestRequestByteSets(t *testing.T) {
	const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	token := alnum + "!#$%&'*+-.^_`|~"
	host := alnum + "!$%&'()*+,-.:;=[]_~"
	for c := range 256 {
		b := byte(c)
		if got, want := isTokenByte(b), strings.IndexByte(token, b) >= 0; got != want {
			t.Errorf("isTokenByte(%#02x) = %v, want %v", b, got, want)
		}
		if got, want := ValidHostHeader(string(b)), strings.IndexByte(host, b) >= 0; got != want {
			t.Errorf("ValidHostHeader(%q) = %v, want %v", b, got, want)
		}
	}
}
