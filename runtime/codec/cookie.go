package codec

import (
	"fmt"
	"net/http"

	"github.com/resilientgo/resilient/runtime/internal/httptext"
)

// AddCookie adds the cookie name=value to req, as [http.Request.AddCookie]
// does, but refuses a name or value that net/http would change: where
// AddCookie drops the bytes of a value that a cookie cannot carry (control
// characters, '"', ';', '\\', bytes outside ASCII) and sends the rest,
// this returns an error and leaves req alone. Generated clients set their
// cookie parameters with it, and return the error as an invalid request.
func AddCookie(req *http.Request, name, value string) error {
	c := &http.Cookie{Name: name, Value: value}
	if err := c.Valid(); err != nil {
		// Cookie.Valid's message names neither the cookie nor the byte.
		if !httptext.ValidToken(name) { // a token, as a field name is
			return fmt.Errorf("cookie name %q is not an HTTP token", name)
		}
		for i := 0; i < len(value); i++ {
			if b := value[i]; !validCookieValueByte(b) {
				return fmt.Errorf("cookie %q: its value has the byte %#02x at %d, which a cookie cannot carry; encode the value (for example with url.QueryEscape)", name, b, i)
			}
		}
		return fmt.Errorf("cookie %q: %w", name, err)
	}
	req.AddCookie(c)
	return nil
}

// validCookieValueByte reports whether b may appear in a cookie value as
// net/http sends it (RFC 6265 cookie-octet, plus space and comma, which it
// quotes).
func validCookieValueByte(b byte) bool {
	return 0x20 <= b && b < 0x7f && b != '"' && b != ';' && b != '\\'
}
