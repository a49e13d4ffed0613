package runtime

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
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
	if key != "" && !validToken(key) {
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
	if !validHostHeader(host) && !sendableHost(host) {
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
	if !validToken(name) {
		return fmt.Errorf("%s name %q is not an HTTP token", what, name)
	}
	for _, v := range values {
		if i := controlByte(v); i >= 0 {
			return fmt.Errorf("%s %q: its value has the control byte %#02x at %d, which net/http refuses; remove CR, LF and other control characters", what, name, v[i], i)
		}
	}
	return nil
}

// controlByte returns the index of the first control byte of v that a
// header value may not hold (all but horizontal tab), or -1.
func controlByte(v string) int {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return i
		}
	}
	return -1
}

// validToken reports whether s is an HTTP token (RFC 9110 §5.6.2).
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return true
}

// isTokenByte reports whether c is a tchar of RFC 9110 §5.6.2: a letter,
// a digit or one of !#$%&'*+-.^_`|~.
func isTokenByte(c byte) bool {
	return tokenBytes[c]
}

// validHostHeader reports whether net/http sends host as it is in the
// Host header: every byte may appear in a host, an IPv6 literal with its
// zone, or a port (RFC 3986 §3.2.2, read as leniently as net/http does).
func validHostHeader(host string) bool {
	for i := 0; i < len(host); i++ {
		if !hostBytes[host[i]] {
			return false
		}
	}
	return true
}

// tokenBytes and hostBytes are the byte sets of isTokenByte and
// validHostHeader, as tables: a lookup per byte keeps the check of every
// request's header names cheap. They are never written.
var (
	tokenBytes = [256]bool{
		'!': true, '#': true, '$': true, '%': true, '&': true, '\'': true,
		'*': true, '+': true, '-': true, '.': true, '0': true, '1': true,
		'2': true, '3': true, '4': true, '5': true, '6': true, '7': true,
		'8': true, '9': true, 'A': true, 'B': true, 'C': true, 'D': true,
		'E': true, 'F': true, 'G': true, 'H': true, 'I': true, 'J': true,
		'K': true, 'L': true, 'M': true, 'N': true, 'O': true, 'P': true,
		'Q': true, 'R': true, 'S': true, 'T': true, 'U': true, 'V': true,
		'W': true, 'X': true, 'Y': true, 'Z': true, '^': true, '_': true,
		'`': true, 'a': true, 'b': true, 'c': true, 'd': true, 'e': true,
		'f': true, 'g': true, 'h': true, 'i': true, 'j': true, 'k': true,
		'l': true, 'm': true, 'n': true, 'o': true, 'p': true, 'q': true,
		'r': true, 's': true, 't': true, 'u': true, 'v': true, 'w': true,
		'x': true, 'y': true, 'z': true, '|': true, '~': true,
	}
	hostBytes = [256]bool{
		'!': true, '$': true, '%': true, '&': true, '\'': true, '(': true,
		')': true, '*': true, '+': true, ',': true, '-': true, '.': true,
		'0': true, '1': true, '2': true, '3': true, '4': true, '5': true,
		'6': true, '7': true, '8': true, '9': true, ':': true, ';': true,
		'=': true, 'A': true, 'B': true, 'C': true, 'D': true, 'E': true,
		'F': true, 'G': true, 'H': true, 'I': true, 'J': true, 'K': true,
		'L': true, 'M': true, 'N': true, 'O': true, 'P': true, 'Q': true,
		'R': true, 'S': true, 'T': true, 'U': true, 'V': true, 'W': true,
		'X': true, 'Y': true, 'Z': true, '[': true, ']': true, '_': true,
		'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true,
		'g': true, 'h': true, 'i': true, 'j': true, 'k': true, 'l': true,
		'm': true, 'n': true, 'o': true, 'p': true, 'q': true, 'r': true,
		's': true, 't': true, 'u': true, 'v': true, 'w': true, 'x': true,
		'y': true, 'z': true, '~': true,
	}
)

// sendableHost reports whether net/http would send a request to host,
// which validHostHeader refused: a host outside ASCII goes out in its
// IDNA (punycode) form when it has one that is a valid Host header. It
// asks net/http itself, by writing a request with that host and nothing
// else, as to a proxy (where net/http refuses a host it cannot send
// instead of leaving the Host header empty), so that the answer is the
// one of the net/http that sends the call. Hosts that need it are rare:
// the cost of the write is not on the common path.
func sendableHost(host string) bool {
	probe := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: "/"}, Host: host}
	return probe.WriteProxy(io.Discard) == nil
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
