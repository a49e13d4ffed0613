package runtime

import (
	"net/http"
	"net/url"
	"strings"
)

// NewHTTPClient returns the [*http.Client] a generated client sends with
// when the caller gives none: transport (usually from [NewTransport]), no
// Timeout (the pipeline's deadlines bound every attempt, body included),
// and [CheckRedirect] as its redirect policy. It is safe for concurrent
// use.
func NewHTTPClient(transport http.RoundTripper) *http.Client {
	return &http.Client{Transport: transport, CheckRedirect: CheckRedirect}
}

// CheckRedirect is the redirect policy of [NewHTTPClient], for an
// [http.Client]'s CheckRedirect field. A redirect is followed only when it
// stays on the origin of the first request (same scheme, host and port)
// and that request is a GET or a HEAD, which carry no body, at most
// [MaxRedirects] times. Any other redirect is not followed: the 3xx
// answer itself is returned, which [DoHTTP] reports as a [*RemoteError]
// ([outcome.Rejected], never retried, its Location in the header) for the caller
// to follow if it trusts the target.
//
// This keeps what a request carries to the dependency it was meant for:
// net/http, following a 307 or 308 to another host, would send the body
// again, with header parameters such as an API key, the idempotency key
// and the deadline header, to a host nobody configured. A followed
// redirect is part of the attempt that received it: bounded by the
// attempt's deadline, counted once by the breaker and the retries.
//
// A client given by the caller (a generated client's WithHTTPClient) keeps
// its own policy; set this function as its CheckRedirect to have the same.
func CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) == 0 {
		return nil
	}
	first := via[0]
	if len(via) > MaxRedirects || (first.Method != http.MethodGet && first.Method != http.MethodHead) ||
		!sameOrigin(req.URL, first.URL) {
		return http.ErrUseLastResponse
	}
	return nil
}

// sameOrigin reports whether a and b have the same scheme, host and port,
// a missing port being the scheme's default.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}
