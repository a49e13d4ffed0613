package golang

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/ir"
)

// serverView is one server of the document as the client declares it.
type serverView struct {
	src *ir.Server
	// name is the constant ("ServerProduction") or function
	// ("ServerRegional") of the server; def the constant of its URL with
	// its variables' defaults, which is name itself for a server without
	// variables ("ServerRegionalDefault").
	name, def string
}

// serverViews names the servers, "Server" and the server's name in the
// IR, with a number when a name is taken (by a schema); nil when the
// document declares none.
func serverViews(svc *ir.Service, taken map[string]bool) []*serverView {
	var out []*serverView
	for _, s := range svc.Servers {
		base := "Server" + s.Name
		for i := 2; ; i++ {
			v := &serverView{src: s, name: base}
			v.def = v.name
			if len(s.Variables) > 0 {
				v.def += "Default"
			}
			if !taken[v.name] && !taken[v.def] {
				taken[v.name], taken[v.def] = true, true
				out = append(out, v)
				break
			}
			base = "Server" + s.Name + strconv.Itoa(i)
		}
	}
	return out
}

// defaultServer returns the server NewClient uses for an empty base URL:
// the first, unless its URL is relative; nil when there is none.
func defaultServer(servers []*serverView) *serverView {
	if len(servers) == 0 || servers[0].src.Relative {
		return nil
	}
	return servers[0]
}

// expand returns the URL template of s with each variable replaced by
// value(variable).
func expand(s *ir.Server, value func(*ir.ServerVariable) string) string {
	out := s.URL
	for _, v := range s.Variables {
		out = strings.ReplaceAll(out, "{"+v.Name+"}", value(v))
	}
	return out
}

// emitServers writes the servers:
//
//	// ServerProduction is the server "Production" of the spec.
//	const ServerProduction = "https://api.example.com/v1"
//
//	// ServerRegionalDefault is ServerRegional with the defaults of its variables.
//	const ServerRegionalDefault = "https://eu.example.com/v1"
//
//	// ServerRegional returns the URL of the server https://{region}.example.com/{version} ...
//	func ServerRegional(region, version string) (string, error) {
//		if region == "" {
//			region = "eu"
//		}
//		switch region {
//		case "eu", "us":
//		default:
//			return "", fmt.Errorf("petstore: ServerRegional: region %q is not one of eu, us", region)
//		}
//		...
//		u := "https://" + region + ".example.com/" + version
//		if _, err := codec.ParseBaseURL(u); err != nil {
//			return "", fmt.Errorf("petstore: ServerRegional: %w", err)
//		}
//		return u, nil
//	}
func emitServers(f *jen.File, servers []*serverView, pkg string) {
	for i, v := range servers {
		s := v.src
		lead := v.name + " is the server " + strconv.Quote(sanitizeLine(s.URL)) + " of the spec"
		if s.Doc != "" {
			lead += " (" + strings.TrimSuffix(sanitizeLine(s.Doc), ".") + ")"
		}
		if i == 0 && !s.Relative {
			lead += "; NewClient uses it when given an empty base URL"
		}
		if s.Relative {
			lead += ", relative to the URL the spec is served from, which was not known when the client was generated"
		}
		if len(s.Variables) == 0 {
			f.Add(comments(DocWrap(lead + ".")).Const().Id(v.name).Op("=").Lit(s.URL))
			continue
		}
		def := expand(s, func(sv *ir.ServerVariable) string { return sv.Default })
		f.Add(comments(DocWrap(v.def + " is the URL of " + v.name + " with the defaults of its variables.")).Const().Id(v.def).Op("=").Lit(def))
		doc := DocWrap(strings.Replace(lead, " is the server ", " returns the URL of the server ", 1) +
			", with its variables replaced by the values given; an empty value takes the variable's default:")
		doc = append(doc, "")
		var params []jen.Code
		var body []jen.Code
		for _, sv := range s.Variables {
			line := "  - " + sv.Ident + ": default " + strconv.Quote(sanitizeLine(sv.Default))
			if len(sv.Enum) > 0 {
				line += ", one of " + quotedList(sv.Enum)
			}
			if sv.Doc != "" {
				line += "; " + sanitizeLine(sv.Doc)
			}
			doc = append(doc, wrap(line, commentWidth)...)
			params = append(params, jen.Id(sv.Ident).String())
			body = append(body, jen.If(jen.Id(sv.Ident).Op("==").Lit("")).Block(jen.Id(sv.Ident).Op("=").Lit(sv.Default)))
			if len(sv.Enum) > 0 {
				var cases []jen.Code
				for _, e := range sv.Enum {
					cases = append(cases, jen.Lit(e))
				}
				body = append(body, jen.Switch(jen.Id(sv.Ident)).Block(
					jen.Case(cases...),
					jen.Default().Block(jen.Return(jen.Lit(""), jen.Qual("fmt", "Errorf").Call(
						jen.Lit(pkg+": "+v.name+": "+sv.Ident+" %q is not one of "+strings.ReplaceAll(quotedList(sv.Enum), "%", "%%")), jen.Id(sv.Ident)))),
				))
			}
		}
		doc = append(doc, "", "It fails when a value is not one of its variable's values, or when the URL", "is not an absolute http or https base URL (see NewClient).")
		body = append(body,
			jen.Id("u").Op(":=").Add(urlExpr(s)),
			jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Add(cd("ParseBaseURL")).Call(jen.Id("u")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Lit(""), jen.Qual("fmt", "Errorf").Call(jen.Lit(pkg+": "+v.name+": %w"), jen.Err())),
			),
			jen.Return(jen.Id("u"), jen.Nil()),
		)
		f.Add(comments(doc).Func().Id(v.name).Params(params...).Params(jen.String(), jen.Error()).Block(body...))
	}
}

// urlExpr is the URL template of s as a concatenation of literals and
// its variables' parameters.
func urlExpr(s *ir.Server) *jen.Statement {
	var parts []jen.Code
	rest := s.URL
	for rest != "" {
		i := strings.IndexByte(rest, '{')
		j := strings.IndexByte(rest[max(i, 0):], '}') + max(i, 0)
		if i < 0 || j < i {
			parts = append(parts, jen.Lit(rest))
			break
		}
		var found *ir.ServerVariable
		for _, sv := range s.Variables {
			if sv.Name == rest[i+1:j] {
				found = sv
			}
		}
		if found == nil {
			parts = append(parts, jen.Lit(rest[:j+1]))
		} else {
			if i > 0 {
				parts = append(parts, jen.Lit(rest[:i]))
			}
			parts = append(parts, jen.Id(found.Ident))
		}
		rest = rest[j+1:]
	}
	out := jen.Add(parts[0])
	for _, p := range parts[1:] {
		out.Op("+").Add(p)
	}
	return out
}

// quotedList renders values as "a", "b".
func quotedList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(sanitizeLine(v))
	}
	return strings.Join(q, ", ")
}
