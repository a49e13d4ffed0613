package codec

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ParseBaseURL checks the base URL of a generated client, to which the
// operations' paths are appended, and returns it parsed, without a
// trailing slash on its path. It must be absolute, with an http or https
// scheme and a host, and may have a path ("https://api.example.com/v1"); a
// query, a fragment or userinfo would be mangled by appending paths or
// would send credentials nobody sees in the code, so each is an error
// saying what to do instead. The error never shows a password.
func ParseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// Not quoted: it may hold a password that did not parse.
		return nil, fmt.Errorf("base URL does not parse: %w", errors.Unwrap(err))
	}
	shown := u.Redacted()
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("base URL %q is not an absolute http or https URL; give one such as \"https://api.example.com/v1\"", shown)
	case u.Host == "":
		return nil, fmt.Errorf("base URL %q has no host; give one such as \"https://api.example.com/v1\"", shown)
	case u.User != nil:
		return nil, fmt.Errorf("base URL %q has userinfo; remove it, and send credentials from the transport (WithHTTPClient) or as header parameters", shown)
	case u.RawQuery != "" || u.ForceQuery:
		return nil, fmt.Errorf("base URL %q has a query, which the operations' paths would be appended after; remove it and give query parameters with the calls", shown)
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return nil, fmt.Errorf("base URL %q has a fragment, which is never sent and would swallow the operations' paths; remove it", shown)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	return u, nil
}
