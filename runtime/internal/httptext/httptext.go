// Package httptext holds the checks of text bound for or coming from HTTP
// that the runtime and its codec share: [Printable] makes text from outside
// fit for an error message, [CheckField] checks a header field as net/http
// does before a request is sent.
package httptext

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/net/http/httpguts"
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
// the field as what, for a name that is not a token or a value net/http
// would refuse.
func CheckField(what, name string, values []string) error {
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
