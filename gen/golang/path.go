package golang

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/resilientgo/resilient/gen/ir"
)

// escapePathLiteral percent-encodes a literal piece of a path template, so
// that the URL a request builder assembles is always valid escaped text,
// which net/url then sends as written: every byte outside RFC 3986's pchar
// (unreserved characters, sub-delims, ":" and "@") and "/" becomes %XX,
// upper case. A %XX escape already written is kept as written; a "%" that
// starts none becomes "%25". (The front end reports "?", "#" and stray
// "%" in a template as errors; this only keeps the output valid.)
//
// Without it, one byte that needs escaping ("/files/café/{name}") makes
// net/url drop the escaped form of the whole path and re-escape its
// decoded form, so the "%2F" escaped into a value turns back into "/".
func escapePathLiteral(s string) string { return percentEncode(s, isPathChar) }

// percentEncode writes every byte of s that allowed refuses as %XX (upper
// case), keeping well-formed %XX escapes as written.
func percentEncode(s string, allowed func(byte) bool) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case allowed(c):
			b.WriteByte(c)
		case c == '%' && i+2 < len(s) && isHexDigit(s[i+1]) && isHexDigit(s[i+2]):
			b.WriteString(s[i : i+3])
			i += 2
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		}
	}
	return b.String()
}

// isPathChar reports whether c may appear unescaped in a path: an RFC 3986
// pchar other than a %XX escape, or "/".
func isPathChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@/", c) >= 0
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// pathCode assigns the request's URL without query to u. A template
// without parameters, or whose parameters are numbers, booleans or times,
// is one expression:
//
//	u := c.baseURL + "/pets/" + url.PathEscape(strconv.FormatInt(id, 10))
//
// One with other parameters is assembled first and checked, so that a
// value that forms a "." or ".." segment is refused before anything is
// sent:
//
//	u := "/pets/" + url.PathEscape(id)
//	if err := codec.CheckPath(u); err != nil {
//		return nil, err
//	}
//	u = c.baseURL + u
func (v *opView) pathCode() []jen.Code {
	var path *jen.Statement
	params := false
	for _, p := range v.path {
		var piece *jen.Statement
		if p.param == nil {
			piece = jen.Lit(escapePathLiteral(p.lit))
		} else {
			piece = p.param.pathValue()
			params = params || !p.param.dotFree
		}
		if path == nil {
			path = piece
		} else {
			path.Op("+").Add(piece)
		}
	}
	base := jen.Id("c").Dot("baseURL")
	// A fixed query goes after the path here when no query parameter
	// follows; queryInit starts the query with it otherwise.
	query := jen.Null()
	if v.fixedQuery != "" && !v.params.hasQuery() {
		query = jen.Op("+").Lit("?" + v.fixedQuery)
	}
	switch {
	case path == nil:
		return []jen.Code{jen.Id("u").Op(":=").Add(base).Add(query)}
	case !params:
		return []jen.Code{jen.Id("u").Op(":=").Add(base).Op("+").Add(path).Add(query)}
	}
	return []jen.Code{
		jen.Id("u").Op(":=").Add(path),
		jen.If(jen.Err().Op(":=").Add(cd("CheckPath")).Call(jen.Id("u")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err()),
		),
		jen.Id("u").Op("=").Add(base).Op("+").Id("u").Add(query),
	}
}

// queryInit declares the query pairs, starting with the template's fixed
// query when it has one:
//
//	var q []string
//	q := []string{"beta=true"}
func (v *opView) queryInit() jen.Code {
	if v.fixedQuery == "" {
		return jen.Var().Id("q").Index().String()
	}
	return jen.Id("q").Op(":=").Index().String().Values(jen.Lit(v.fixedQuery))
}

// escapeQueryLiteral percent-encodes a fixed query from a template as
// escapePathLiteral does a path, "?" allowed too (the front end accepts
// only a fixed query that needs no escaping; this keeps the URL valid
// whatever the IR holds).
func escapeQueryLiteral(s string) string {
	return percentEncode(s, func(c byte) bool { return c == '?' || isPathChar(c) })
}

// dotFree reports whether a scalar of type t formats to text that is
// never "." or "..": numbers, booleans, times, and enums of integers.
func (c *clientGen) dotFree(t *ir.TypeRef) bool {
	switch t.Kind {
	case ir.KindBool, ir.KindInt, ir.KindInt32, ir.KindInt64, ir.KindFloat32, ir.KindFloat64, ir.KindDateTime,
		ir.KindUint, ir.KindUint32, ir.KindUint64, ir.KindUUID, ir.KindDate:
		return true
	case ir.KindNamed:
		nt := c.m.types[t.Name]
		switch {
		case nt == nil:
		case nt.Kind == ir.TypeEnum && nt.Enum != nil:
			return c.dotFree(&ir.TypeRef{Kind: nt.Enum.Base})
		case nt.Kind == ir.TypeAlias && nt.Alias != nil && nt.Alias != t:
			return c.dotFree(nt.Alias)
		}
	}
	return false
}
