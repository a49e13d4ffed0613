package runtime

import (
	"errors"
	"fmt"
	"net/http"

	"golang.org/x/net/http/httpguts"
)

// checkRequest reports what net/http would refuse in req before sending
// anything, so that such a request fails as the caller's error instead of
// as a transport failure of the dependency: no URL or host, a scheme other
// than http and https, a method that is not a token, a header or trailer
// name that is not a token or a value with a control character (CR and LF
// above all), RequestURI set, or an idempotency key header name (key, may
// be empty) that is not a token. Values are never quoted in the error, as
// they may carry credentials.
func checkRequest(req *http.Request, key string) error {
	if err := checkURL(req); err != nil {
		return err
	}
	if err := checkHost(req); err != nil {
		return err
	}
	if err := checkMethod(req.Method); err != nil {
		return err
	}
	if req.RequestURI != "" {
		return errors.New("RequestURI is set, which only server requests have; leave it empty")
	}
	if err := checkHeader("header", req.Header); err != nil {
		return err
	}
	if err := checkHeader("trailer", req.Trailer); err != nil {
		return err
	}
	if key != "" && !httpguts.ValidHeaderFieldName(key) {
		return fmt.Errorf("idempotency key header name %q is not an HTTP token; fix idempotencyKey in the policy", key)
	}
	return nil
}

// checkURL reports a request without a URL, or whose URL has no host or
// a scheme other than http and https.
func checkURL(req *http.Request) error {
	if req.URL == nil {
		return errors.New("the request has no URL; build it with http.NewRequestWithContext")
	}
	if req.URL.Host == "" {
		return errors.New("the request URL has no host; the client's base URL must be absolute")
	}
	if s := req.URL.Scheme; s != "http" && s != "https" {
		return fmt.Errorf("the request URL has scheme %q; only http and https are sent", s)
	}
	return nil
}

// checkHost reports a request whose host (req.Host, else its URL's) is
// not a valid Host header, in its punycode form when outside ASCII.
func checkHost(req *http.Request) error {
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	if httpguts.ValidHostHeader(host) {
		return nil
	}
	// A host outside ASCII is sent in its punycode form.
	if h, err := httpguts.PunycodeHostPort(host); err != nil || !httpguts.ValidHostHeader(h) {
		return fmt.Errorf("the request's host %q is not a valid Host header", host)
	}
	return nil
}

// checkMethod reports a method that is not an HTTP token; the usual ones
// are known to be.
func checkMethod(method string) error {
	switch method {
	case "", http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodHead, http.MethodOptions:
		return nil
	}
	if !validToken(method) {
		return fmt.Errorf("method %q is not an HTTP token", method)
	}
	return nil
}

// checkHeader reports the first field of h, in sorted order so that the
// report does not vary, whose name or value net/http would refuse.
func checkHeader(what string, h http.Header) error {
	var (
		bad     error
		badName string
	)
	for name, values := range h {
		if bad != nil && name > badName {
			continue
		}
		if err := checkField(what, name, values); err != nil {
			bad, badName = err, name
		}
	}
	return bad
}

// checkField checks one header field as net/http does.
func checkField(what, name string, values []string) error {
	if !httpguts.ValidHeaderFieldName(name) {
		return fmt.Errorf("%s name %q is not an HTTP token", what, name)
	}
	for _, v := range values {
		if httpguts.ValidHeaderFieldValue(v) {
			continue
		}
		for i := 0; i < len(v); i++ {
			if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
				return fmt.Errorf("%s %q: its value has the control byte %#02x at %d, which net/http refuses; remove CR, LF and other control characters", what, name, c, i)
			}
		}
		return fmt.Errorf("%s %q: its value is not a valid header value", what, name)
	}
	return nil
}

// validToken reports whether s is an HTTP token (RFC 9110 §5.6.2).
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !httpguts.IsTokenRune(r) {
			return false
		}
	}
	return true
}

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
		if !validToken(name) {
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
