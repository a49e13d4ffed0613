package naming

import (
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Exported returns the exported Go identifier for s ("list_items" →
// "ListItems", "user-id" → "UserID"). When the result cannot start with
// an upper-case letter (a leading digit, or a script without case such as
// "名前"), prefix is put in front; prefix must itself be exported ("Op",
// "X"). ok is false when s holds no letter or digit at all, so that no
// identifier can be formed ("", "Ⅻ", "+").
func Exported(s, prefix string) (ident string, ok bool) {
	ws := words(s)
	if len(ws) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(capitalize(w))
	}
	ident = b.String()
	if !token.IsExported(ident) {
		ident = prefix + ident
	}
	return ident, token.IsIdentifier(ident) && token.IsExported(ident)
}

// Unexported returns a lower-camel Go identifier for s, for arguments and
// locals ("UserID" → "userID", "HTTPServer" → "httpServer"). Go keywords
// and predeclared identifiers get a trailing underscore ("type" →
// "type_"); ok is false when s holds no letter or digit.
func Unexported(s string) (ident string, ok bool) {
	ws := words(s)
	if len(ws) == 0 {
		return "", false
	}
	var b strings.Builder
	for i, w := range ws {
		if i == 0 {
			b.WriteString(lowerFirstWord(w))
			continue
		}
		b.WriteString(capitalize(w))
	}
	ident = b.String()
	if r, _ := utf8.DecodeRuneInString(ident); unicode.IsDigit(r) {
		ident = "v" + ident
	}
	if token.IsKeyword(ident) || predeclared[ident] {
		ident += "_"
	}
	return ident, token.IsIdentifier(ident)
}

// FromPath derives an operation name from its HTTP method and path
// template: "GET /users/{id}" → "GetUsersByID", "DELETE /" → "DeleteRoot".
func FromPath(method, path string) (string, bool) {
	var b strings.Builder
	b.WriteString(capitalize(lower(method)))
	segs := 0
	for seg := range strings.SplitSeq(path, "/") {
		if seg == "" {
			continue
		}
		segs++
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			b.WriteString("By")
			seg = strings.Trim(seg, "{}")
		}
		for _, w := range words(seg) {
			b.WriteString(capitalize(w))
		}
	}
	if segs == 0 {
		b.WriteString("Root")
	}
	return Exported(b.String(), "Op")
}

// IsValid reports whether s is an exported Go identifier, as x-go-name
// values must be.
func IsValid(s string) bool { return token.IsIdentifier(s) && token.IsExported(s) }

// lowerFirstWord lower-cases a leading word: fully for initialisms and
// all-capital words ("HTTP" → "http"), else only the first letter.
func lowerFirstWord(w string) string {
	if initialisms[upper(w)] || isAllUpper(w) {
		return lower(w)
	}
	if base, ok := strings.CutSuffix(w, "s"); ok && initialisms[upper(base)] {
		// A plural initialism: "IDs" → "ids", not "iDs".
		return lower(w)
	}
	r, size := utf8.DecodeRuneInString(w)
	return string(unicode.ToLower(r)) + w[size:]
}

// predeclared are the universe-scope identifiers an argument must not
// shadow.
var predeclared = map[string]bool{
	"any": true, "append": true, "bool": true, "byte": true, "cap": true,
	"clear": true, "close": true, "comparable": true, "complex": true,
	"complex128": true, "complex64": true, "copy": true, "delete": true,
	"error": true, "false": true, "float32": true, "float64": true,
	"imag": true, "int": true, "int16": true, "int32": true, "int64": true,
	"int8": true, "iota": true, "len": true, "make": true, "max": true,
	"min": true, "new": true, "nil": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true, "rune": true,
	"string": true, "true": true, "uint": true, "uint16": true,
	"uint32": true, "uint64": true, "uint8": true, "uintptr": true,
	// Names generated client code uses for its own locals.
	"ctx": true, "err": true, "req": true, "resp": true,
}

// Part returns s as the tail of an identifier: its words capitalized and
// joined, which may start with a digit ("in-stock" → "InStock", "1h" →
// "1h"). It is empty when s holds no letter or digit.
func Part(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		b.WriteString(capitalize(w))
	}
	return b.String()
}
