// Package httptext holds the checks of text bound for or coming from HTTP
// that the runtime and its codec share: [Printable] makes text from outside
// fit for an error message, [CheckField], [ValidToken] and
// [ValidHostHeader] check what net/http would refuse before a request is
// sent, with tables of their own rather than x/net's, so that a user of
// the runtime inherits no module for them.
package httptext

import (
	"fmt"
	"strings"
	"unicode"
)

// Printable returns s without control characters (C0, DEL, C1) and
// formatting characters (bidirectional overrides, zero-width ones); a tab
// becomes a space.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			return -1
		}
		return r
	}, s)
}

// CheckField checks one header field as net/http does: an error, naming
// the field as what, for a name that is not a token or a value with a
// control byte net/http would refuse.
func CheckField(what, name string, values []string) error {
	if !ValidToken(name) {
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

// ValidToken reports whether s is an HTTP token (RFC 9110 §5.6.2).
func ValidToken(s string) bool {
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

// ValidHostHeader reports whether net/http sends host as it is in the
// Host header: every byte may appear in a host, an IPv6 literal with its
// zone, or a port (RFC 3986 §3.2.2, read as leniently as net/http does).
func ValidHostHeader(host string) bool {
	for i := 0; i < len(host); i++ {
		if !hostBytes[host[i]] {
			return false
		}
	}
	return true
}

// tokenBytes and hostBytes are the byte sets of isTokenByte and
// ValidHostHeader, as tables: a lookup per byte keeps the check of every
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
