package naming

import (
	"go/token"
	"testing"
)

// FuzzNames: every name function ends on any input, and what it reports
// as ok is a Go identifier of the promised kind.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"", "segment_id", "seg", "seg0", "IDs", "listURLs", "type", "ctx", "2fa", "名前", "Ⅻ", "a.b-c_d e/f", "HTTPServer", "ǅx", "\xff\xfe", "{id}/{seg}"} {
		f.Add(s, "GET")
	}
	f.Fuzz(func(t *testing.T, s, method string) {
		if ident, ok := Exported(s, "X"); ok != (ident != "" && token.IsIdentifier(ident) && token.IsExported(ident)) {
			t.Errorf("Exported(%q) = %q, %v: ok must say whether it is an exported identifier", s, ident, ok)
		}
		if ident, ok := Unexported(s); ok {
			if !token.IsIdentifier(ident) || predeclared[ident] {
				t.Errorf("Unexported(%q) = %q, true: not an identifier, or predeclared", s, ident)
			}
		}
		if ident, ok := FromPath(method, s); ok && !IsValid(ident) {
			t.Errorf("FromPath(%q, %q) = %q, true: not an exported identifier", method, s, ident)
		}
		if p := Part(s); p != "" && !token.IsIdentifier("X"+p) {
			t.Errorf("Part(%q) = %q: X%s is not an identifier", s, p, p)
		}
	})
}
