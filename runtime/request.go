package runtime

import (
	"errors"
	"fmt"
	"net/http"

	"golang.org/x/net/http/httpguts"

	"github.com/resilientgo/resilient/runtime/internal/httptext"
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
	if req.URL == nil {
		return errors.New("the request has no URL; build it with http.NewRequestWithContext")
	}
	if req.URL.Host == "" {
		return errors.New("the request URL has no host; the client's base URL must be absolute")
	}
	if s := req.URL.Scheme; s != "http" && s != "https" {
		return fmt.Errorf("the request URL has scheme %q; only http and https are sent", s)
	}
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	if !httpguts.ValidHostHeader(host) {
		// A host outside ASCII is sent in its punycode form.
		if h, err := httpguts.PunycodeHostPort(host); err != nil || !httpguts.ValidHostHeader(h) {
			return fmt.Errorf("the request's host %q is not a valid Host header", host)
		}
	}
	switch req.Method {
	case "", http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodHead, http.MethodOptions:
	default:
		if !validToken(req.Method) {
			return fmt.Errorf("method %q is not an HTTP token", req.Method)
		}
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
		if err := httptext.CheckField(what, name, values); err != nil {
			bad, badName = err, name
		}
	}
	return bad
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
