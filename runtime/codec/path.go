package codec

import (
	"errors"
	"strconv"
	"strings"
)

// ErrDotSegment is matched through [errors.Is] by a [*DotSegmentError].
var ErrDotSegment = errors.New("resilient: path value forms a dot segment")

// DotSegmentError reports a request path that [CheckPath] refused: path
// values formed a "." or ".." segment, which a server or proxy would resolve
// to another resource. The request was not sent; the caller's values are
// to blame, and sending them again gives the same error.
type DotSegmentError struct {
	// Path is the escaped path as assembled, without base URL and query.
	Path string
	// Segment is the offending segment, as escaped.
	Segment string
}

// Error describes the refused path.
func (e *DotSegmentError) Error() string {
	return "resilient: path " + strconv.Quote(e.Path) + " has the dot segment " + strconv.Quote(e.Segment) +
		", which a server resolves to another resource; a path value must not be \".\" or \"..\""
}

// Is reports whether target is [ErrDotSegment].
func (e *DotSegmentError) Is(target error) bool { return target == ErrDotSegment }

// CheckPath checks the escaped path of a request, as a generated request
// builder assembles it from the literal pieces of its template and its
// escaped path values, before anything is sent. It returns a
// [*DotSegmentError] when a segment is a dot segment, and nil otherwise,
// without allocating.
//
// A dot segment is "." or "..", also when its dots are written "%2E" or
// "%2e", and also before a ";" (servlet containers drop such path
// parameters before they resolve dot segments, so "..;x" climbs too).
// Servers and proxies remove dot segments before routing (RFC 3986
// §5.2.4): Go's ServeMux redirects "/a/b/.." to "/a/", nginx and Envoy
// rewrite it in place, and several decode "%2E" first. No escape of "."
// survives all of them, so such a value cannot be sent as one segment
// and is refused instead.
//
// CheckPath is safe for concurrent use.
func CheckPath(path string) error {
	start := 0
	for i := 0; i <= len(path); i++ {
		if i < len(path) && path[i] != '/' {
			continue
		}
		if seg := path[start:i]; isDotSegment(seg) {
			return &DotSegmentError{Path: path, Segment: seg}
		}
		start = i + 1
	}
	return nil
}

// isDotSegment reports whether seg, up to its first ";", is one or two
// dots, each written "." or "%2E" in either case.
func isDotSegment(seg string) bool {
	if i := strings.IndexByte(seg, ';'); i >= 0 {
		seg = seg[:i]
	}
	dots := 0
	for i := 0; i < len(seg); dots++ {
		switch {
		case dots == 2:
			return false
		case seg[i] == '.':
			i++
		case seg[i] == '%' && i+2 < len(seg) && seg[i+1] == '2' && (seg[i+2] == 'e' || seg[i+2] == 'E'):
			i += 3
		default:
			return false
		}
	}
	return dots > 0
}
