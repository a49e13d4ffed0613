package gen

import (
	"go/token"
	"path"
	"strings"
	"unicode"
)

// PackageName turns a name (a folder, or a file name without its
// extension) into a Go package name: letters are lower-cased and
// everything but ASCII letters and digits is removed ("pet-store" →
// "petstore", "Billing_API" → "billingapi"). A name that starts with a digit gets the
// prefix "p"; a Go keyword gets the suffix "api". When nothing usable is
// left, fallback is returned.
func PackageName(name, fallback string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r <= unicode.MaxASCII && unicode.IsLetter(r):
			b.WriteRune(unicode.ToLower(r))
		case r <= unicode.MaxASCII && unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	s := b.String()
	switch {
	case s == "":
		return fallback
	case s[0] >= '0' && s[0] <= '9':
		s = "p" + s
	case token.IsKeyword(s):
		s += "api"
	}
	return s
}

// DependencyName derives the name the policy file knows a service by:
// the document's title in snake case ("Swagger Petstore" →
// "swagger_petstore", "PetStore" → "pet_store"), or, when the title gives
// nothing, the spec's file name without its extension.
func DependencyName(title, spec string) string {
	if s := snake(title); s != "" {
		return s
	}
	base := path.Base(strings.ReplaceAll(spec, "\\", "/"))
	if s := snake(strings.TrimSuffix(base, path.Ext(base))); s != "" {
		return s
	}
	return "api"
}

// snake lower-cases s and joins its words with underscores. Words are
// split at characters other than ASCII letters and digits, and where a
// lower-case letter or digit is followed by an upper-case one.
func snake(s string) string {
	var b strings.Builder
	sep := false
	var prev rune
	for _, r := range s {
		isUpper := r >= 'A' && r <= 'Z'
		isWord := isUpper || r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		if !isWord {
			sep = b.Len() > 0
			prev = 0
			continue
		}
		if isUpper && (prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9') {
			sep = true
		}
		if sep {
			b.WriteByte('_')
			sep = false
		}
		b.WriteRune(unicode.ToLower(r))
		prev = r
	}
	return b.String()
}
