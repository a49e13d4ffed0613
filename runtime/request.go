package runtime

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

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
	if key != "" && !httptext.ValidToken(key) {
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
	if !httptext.ValidHostHeader(host) && !sendableHost(host) {
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
	if !httptext.ValidToken(method) {
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
		if err := httptext.CheckField(what, name, values); err != nil {
			bad, badName = err, name
		}
	}
	return bad
}

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
