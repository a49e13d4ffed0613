package openapi

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime/codec"
)

// Rules of path templates. Every literal piece of a template is sent
// percent-encoded as written (see package golang), so these are the
// templates no escaping can make mean what they say.
const (
	// rulePathChar: a "?" followed by neither a fixed query nor
	// name={variable} pairs, or a "%" that does not start a %XX escape.
	rulePathChar = diag.RulePathChar
	// rulePathFragment: a "#" in a template; the fragment after it is not
	// sent.
	rulePathFragment = diag.RulePathFragment
	// rulePathFragmentVariable: a template variable after the "#": its
	// parameter could never be sent, so the operation is refused.
	rulePathFragmentVariable = diag.RulePathFragmentStrict
	// rulePathQuery: a "?" followed by a fixed query ("?beta=true"), which
	// the client sends with every request of the operation, or by
	// name={variable} pairs ("?lat={lat}"), sent as query parameters.
	rulePathQuery = diag.RulePathQuery
	// rulePathDot: a literal "." or ".." segment ("%2E" included), which
	// servers resolve before routing.
	rulePathDot = diag.RulePathDot
	// rulePathTemplate: a template variable that names no path parameter of
	// the operation; it would be sent as written.
	rulePathTemplate = diag.RulePathTemplate
)

// checkPathTemplate reports the characters and dot segments of a path
// template that no escaping makes usable, at the template's key. A "?"
// followed by a fixed query ("/responses?beta=true", as some generated
// specs write operation variants) is sent as that query, with a warning,
// and so are pairs whose value is a variable ("/alerts?lat={lat}"), whose
// parameters [builder.params] moves to the query; any other "?" is an
// error.
func (b *builder) checkPathTemplate(path string) {
	ptr := pointer("#/paths", path)
	loc := b.doc.keyLocation(ptr)
	sent := b.checkFragment(path, loc)
	if hasBadEscape(templateLiteral(sent)) {
		b.diags.Errorf(loc, rulePathChar,
			fmt.Sprintf("path template %q holds a %q that does not start a %%XX escape", path, "%"),
			`write a literal percent sign as "%25"`)
	}
	rawPath, rawQuery, hasQuery := ir.CutQuery(sent)
	if hasQuery {
		b.checkTemplateQuery(path, rawPath, rawQuery, loc)
	}
	var dot *codec.DotSegmentError
	if errors.As(codec.CheckPath(templateLiteral(rawPath)), &dot) {
		b.diags.Errorf(loc, rulePathDot,
			fmt.Sprintf("path template %q has the segment %q, which servers resolve to another path before routing", path, dot.Segment),
			"remove the segment, or write the path it resolves to")
	}
}

// checkFragment reports the fragment of the path template path, written
// at loc, and returns the template without it: what a request carries.
func (b *builder) checkFragment(path string, loc diag.Location) (sent string) {
	sent, fragment, hasFragment := ir.CutFragment(path)
	switch vars := onlyIn(pathParamOrder(fragment), pathParamOrder(sent)); {
	case len(vars) > 0:
		b.diags.Errorf(loc, rulePathFragmentVariable,
			fmt.Sprintf("path template %q carries the variable {%s} in its fragment %q, which no request carries: the client would take the parameter and never send it", path, vars[0], fragment),
			fmt.Sprintf("move {%s} before the %q, or declare the parameter with in: query or in: header and remove the fragment from the path", vars[0], "#"))
	case hasFragment:
		b.diags.Warnf(loc, rulePathFragment,
			fmt.Sprintf("path template %q carries the fragment %q, which no request carries; the client sends %q", path, fragment, sent),
			"declare what the fragment distinguishes as parameters (in: query or in: header), and remove it from the path")
	}
	return sent
}

// hasBadEscape reports whether literal holds a "%" that does not start a
// %XX escape.
func hasBadEscape(literal string) bool {
	for i := 0; i < len(literal); i++ {
		if literal[i] == '%' && (i+2 >= len(literal) || !isHex(literal[i+1]) || !isHex(literal[i+2])) {
			return true
		}
	}
	return false
}

// checkTemplateQuery reports the query of the path template path, written
// at loc, whose path is rawPath and query rawQuery: an error when it is
// not a fixed query and name={variable} pairs a URL carries as written,
// else a warning that says what the client sends.
func (b *builder) checkTemplateQuery(path, rawPath, rawQuery string, loc diag.Location) {
	fixed, vars, pairs := ir.TemplateQuery(rawQuery)
	switch {
	case !pairs:
		b.diags.Errorf(loc, rulePathChar,
			fmt.Sprintf("path template %q holds %q, which would start the URL's query, and what follows is neither a fixed query nor name={variable} pairs: no parameter style sends a variable as a key or as part of a value, so no client can build the request it describes", path, "?"),
			"declare query values as parameters with in: query, and remove the character from the path")
	case rawQuery == "" || !validFixedQuery(fixed) || !validQueryKeys(vars):
		b.diags.Errorf(loc, rulePathChar,
			fmt.Sprintf("path template %q holds %q, which would start the URL's query, and what follows is no query text a URL carries as written", path, "?"),
			"declare query values as parameters with in: query, and remove the character from the path")
	case len(vars) == 0:
		b.diags.Warnf(loc, rulePathQuery,
			fmt.Sprintf("path template %q carries the fixed query %q; the client sends it with every request of the operation, before the query parameters", path, rawQuery),
			"declare it as query parameters (in: query) if the server accepts other values")
	default:
		b.diags.Warnf(loc, rulePathQuery,
			fmt.Sprintf("path template %q carries query variables; the client sends the path %q and the query %q, each <name> the value of the parameter of that name, whatever its in:, escaped as a query value", path, rawPath, sentQueryText(fixed, vars)),
			"declare the variables as parameters with in: query, and remove the query from the path")
	}
}

// sentQueryText shows the query a template's query sends: the fixed
// query, then each variable's key=<name>.
func sentQueryText(fixed string, vars []ir.QueryVar) string {
	sentQuery := make([]string, 0, len(vars)+1)
	if fixed != "" {
		sentQuery = append(sentQuery, fixed)
	}
	for _, v := range vars {
		sentQuery = append(sentQuery, v.Key+"=<"+v.Var+">")
	}
	return strings.Join(sentQuery, "&")
}

// onlyIn returns the names of vars that are not in sent: the variables
// of a fragment whose parameters no part of the request carries.
func onlyIn(vars, sent []string) []string {
	var out []string
	for _, v := range vars {
		if !slices.Contains(sent, v) {
			out = append(out, v)
		}
	}
	return out
}

// validQueryKeys reports whether the keys of a template's query
// variables are query text a URL carries as written.
func validQueryKeys(vars []ir.QueryVar) bool {
	for _, v := range vars {
		if !validFixedQuery(v.Key) {
			return false
		}
	}
	return true
}

// validFixedQuery reports whether q is query text that a URL carries as
// written: RFC 3986 query characters and well-formed %XX escapes only.
func validFixedQuery(q string) bool {
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._~!$&'()*+,;=:@/?", c) >= 0:
		case c == '%' && i+2 < len(q) && isHex(q[i+1]) && isHex(q[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

// checkPathVariables reports each variable of o's template that names no
// path parameter of o.
func (b *builder) checkPathVariables(o *ir.Operation) {
	rawPath, _, _ := ir.CutQuery(o.Path)
	for _, name := range pathParamOrder(rawPath) {
		found := false
		for _, p := range o.Params {
			found = found || p.In == ir.InPath && p.Name == name
		}
		if !found {
			b.diags.Errorf(o.Location, rulePathTemplate,
				fmt.Sprintf("operation %s %s has no path parameter %q for its template variable {%s}; the client would send it as written", o.Method, o.Path, name, name),
				fmt.Sprintf("declare the parameter with name: %s, in: path, required: true", name))
		}
	}
}

// templateLiteral returns path with each template variable replaced by
// "v", so that what remains is the literal text and the segments it forms.
func templateLiteral(path string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(path, '{')
		j := strings.IndexByte(path[max(i, 0):], '}') + max(i, 0)
		if i < 0 || j < i {
			b.WriteString(path)
			return b.String()
		}
		b.WriteString(path[:i])
		b.WriteByte('v')
		path = path[j+1:]
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// keyLocation places the key of the member ptr names, in the entry file:
// the line and column where the key is written, not its value. It falls
// back to [Document.locate] when the key is not found there.
func (d *Document) keyLocation(ptr string) diag.Location {
	i := strings.LastIndexByte(ptr, '/')
	if d.entry.root == nil || i < 0 {
		return d.locate(nil, ptr)
	}
	parent, ok := lookup(d.entry.root, d.sourcePointer(ptr[:i]))
	if !ok || parent.Kind != yaml.MappingNode {
		return d.locate(nil, ptr)
	}
	tok := strings.ReplaceAll(strings.ReplaceAll(ptr[i+1:], "~1", "/"), "~0", "~")
	for k := 0; k+1 < len(parent.Content); k += 2 {
		if key := parent.Content[k]; key.Value == tok {
			return diag.Location{File: d.entry.display, Line: key.Line, Col: key.Column, Path: ptr}
		}
	}
	return d.locate(nil, ptr)
}
