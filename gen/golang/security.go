package golang

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
)

// oauth2Path is golang.org/x/oauth2, whose TokenSource the OAuth 2.0 and
// OpenID Connect options take; only clients of a document with such a
// scheme import it.
const oauth2Path = "golang.org/x/oauth2"

// schemeView is how the client sends the credential of one security
// scheme: the option that configures it, and the field of the options
// struct that holds its runtime.RequestEditor. A client certificate
// (mutualTLS) has neither: it travels in the TLS handshake of the
// transport given with WithHTTPClient.
type schemeView struct {
	src    *ir.SecurityScheme
	option string
	field  string
}

// schemeViews names the options of svc's security schemes: WithBearerToken,
// WithBasicAuth, WithAuthorization (other HTTP schemes), WithOAuth2 and
// WithOpenIDConnect when the document has one scheme of the kind, with the
// scheme's name appended otherwise; WithAPIKey and the scheme's name for
// API keys ("api_key" → WithAPIKey, "app_id" → WithAPIKeyAppID). A name
// already taken gets a number.
func schemeViews(svc *ir.Service, taken map[string]bool) []*schemeView {
	count := map[ir.SchemeKind]int{}
	for _, s := range svc.SecuritySchemes {
		count[s.Kind]++
	}
	var out []*schemeView
	for _, s := range svc.SecuritySchemes {
		v := &schemeView{src: s}
		out = append(out, v)
		if s.Kind == ir.SchemeMutualTLS {
			continue
		}
		ident, ok := naming.Exported(s.Name, "S")
		if !ok {
			ident = "Scheme"
		}
		base := map[ir.SchemeKind]string{
			ir.SchemeBearer: "WithBearerToken", ir.SchemeBasic: "WithBasicAuth", ir.SchemeHTTPOther: "WithAuthorization",
			ir.SchemeOAuth2: "WithOAuth2", ir.SchemeOpenIDConnect: "WithOpenIDConnect", ir.SchemeAPIKey: "WithAPIKey",
		}[s.Kind]
		name := base
		switch {
		case s.Kind == ir.SchemeAPIKey:
			name += strings.TrimPrefix(ident, "APIKey")
		case count[s.Kind] > 1:
			name += ident
		}
		unique := name
		for i := 2; taken[unique]; i++ {
			unique = name + strconv.Itoa(i)
		}
		taken[unique] = true
		v.option = unique
		v.field = "cred" + strings.TrimPrefix(unique, "With")
	}
	return out
}

// schemeOption returns the option of v:
//
//	// WithBearerToken gives the client the credential of the security
//	// scheme "bearerAuth" (HTTP bearer): token is called on every attempt ...
//	func WithBearerToken(token func(ctx context.Context) (string, error)) Option {
//		return optionFunc(func(o *clientOptions) {
//			o.credBearerToken = nil
//			if token != nil {
//				o.credBearerToken = codec.BearerToken(token)
//			}
//		})
//	}
func schemeOption(v *schemeView) ClientOption {
	s := v.src
	ctxFunc := func(results ...jen.Code) *jen.Statement {
		return jen.Func().Params(jen.Id("ctx").Qual("context", "Context")).Params(results...)
	}
	str := ctxFunc(jen.String(), jen.Error())
	var (
		arg, what, how string
		typ, editor    *jen.Statement
	)
	switch s.Kind {
	case ir.SchemeBearer:
		arg, what, typ = "token", "HTTP bearer", str
		how = "token is called on every attempt, retries included, for the token sent as \"Authorization: Bearer <token>\""
		editor = cd("BearerToken").Call(jen.Id(arg))
	case ir.SchemeBasic:
		arg, what = "userPass", "HTTP basic"
		typ = ctxFunc(jen.Id("user"), jen.Id("pass").String(), jen.Err().Error())
		how = "userPass is called on every attempt, retries included, for the user and password sent in the Authorization header"
		editor = cd("BasicAuth").Call(jen.Id(arg))
	case ir.SchemeHTTPOther:
		arg, what, typ = "value", "HTTP "+sanitizeLine(s.HTTPScheme), str
		how = "value is called on every attempt, retries included, for the whole Authorization header value, scheme included"
		editor = cd("AuthorizationHeader").Call(jen.Id(arg))
	case ir.SchemeAPIKey:
		arg, typ = "key", str
		fn := map[ir.In]string{ir.InHeader: "APIKeyHeader", ir.InQuery: "APIKeyQuery", ir.InCookie: "APIKeyCookie"}[s.In]
		what = "API key in the " + s.In.String() + " " + strconv.Quote(sanitizeLine(s.ParamName))
		how = "key is called on every attempt, retries included, for the key sent"
		editor = cd(fn).Call(jen.Lit(s.ParamName), jen.Id(arg))
	case ir.SchemeOAuth2, ir.SchemeOpenIDConnect:
		arg, typ = "ts", jen.Qual(oauth2Path, "TokenSource")
		what = "OAuth 2.0"
		if s.Kind == ir.SchemeOpenIDConnect {
			what = "OpenID Connect"
		}
		how = "ts.Token is called on every attempt, retries included (an oauth2.ReuseTokenSource refreshes the token only when it expires), for the access token sent as \"Authorization: Bearer <token>\""
		// The token's own type is not sent: servers expect "Bearer",
		// whatever case the token endpoint wrote it in.
		editor = cd("BearerToken").Call(jen.Func().Params(jen.Qual("context", "Context")).Params(jen.String(), jen.Error()).Block(
			jen.List(jen.Id("t"), jen.Err()).Op(":=").Id(arg).Dot("Token").Call(),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Lit(""), jen.Err())),
			jen.Return(jen.Id("t").Dot("AccessToken"), jen.Nil()),
		))
	}
	doc := DocWrap(v.option + " gives the client the credential of the security scheme " + strconv.Quote(sanitizeLine(s.Name)) +
		" (" + what + "), sent with the operations whose security requirement names it: " + how +
		", never logged, never in an error, and never sent to another origin by the default client, which follows no redirect there. " +
		"Cached fallback answers are kept apart per credential. A nil " + arg + " removes the credential; an operation that then has " +
		"no credential for its requirement fails with a *runtime.MissingCredentialError, nothing sent.")
	if d := docLines(s.Doc); len(d) > 0 {
		doc = append(append(d, ""), doc...)
	}
	field := func() *jen.Statement { return jen.Id("o").Dot(v.field) }
	return ClientOption{
		Name: v.option, Doc: doc, Arg: arg, Type: typ,
		Fields: []jen.Code{jen.Id(v.field).Add(rt("RequestEditor"))},
		Set: field().Op("=").Nil().Line().If(jen.Id(arg).Op("!=").Nil()).Block(
			field().Op("=").Add(editor),
		),
	}
}

// credentialsOf returns the security requirement of op as the client
// sends it: per alternative, the schemes whose credential it applies (a
// client certificate needs none from it). Nil when op needs none.
func credentialsOf(op *ir.Operation, schemes []*schemeView) [][]*schemeView {
	var out [][]*schemeView
	for _, alt := range op.Security {
		set := []*schemeView{}
		for _, use := range alt.Schemes {
			v := findScheme(schemes, use.Scheme)
			if v != nil && v.option == "" {
				continue
			}
			if v == nil {
				// Not a usable scheme of the document: never satisfied.
				v = &schemeView{src: &ir.SecurityScheme{Name: use.Scheme}}
			}
			set = append(set, v)
		}
		out = append(out, set)
	}
	return out
}

func findScheme(schemes []*schemeView, name string) *schemeView {
	for _, s := range schemes {
		if s.src.Name == name {
			return s
		}
	}
	return nil
}

// credentialsDoc is the method doc's paragraph on op's credentials.
func credentialsDoc(creds [][]*schemeView) []string {
	if len(creds) == 0 {
		return nil
	}
	var alts []string
	for _, set := range creds {
		if len(set) == 0 {
			alts = append(alts, "none")
			continue
		}
		var names []string
		for _, s := range set {
			n := strconv.Quote(sanitizeLine(s.src.Name))
			if s.option != "" {
				n += " (" + s.option + ")"
			}
			names = append(names, n)
		}
		alts = append(alts, strings.Join(names, " and "))
	}
	return DocWrap("Credentials: " + strings.Join(alts, ", or ") + "; the first alternative the client has every credential of is sent, " +
		"afresh on every attempt. Without any, the call fails with a *runtime.MissingCredentialError before anything is sent.")
}

// credentialsCode writes, in NewClient, the credentials of op's calls:
//
//	c.ops.GetMe = c.ops.GetMe.With(runtime.WithCredentials(
//		[]runtime.Credential{{Scheme: "bearerAuth", Option: "WithBearerToken", Apply: o.credBearerToken}},
//		[]runtime.Credential{{Scheme: "api_key", Option: "WithAPIKey", Apply: o.credAPIKey}, …},
//	))
func credentialsCode(op *opView) jen.Code {
	var alts []jen.Code
	for _, set := range op.credentials {
		var creds []jen.Code
		for _, s := range set {
			fields := []jen.Code{jen.Id("Scheme").Op(":").Lit(s.src.Name)}
			if s.option != "" {
				fields = append(fields, jen.Id("Option").Op(":").Lit(s.option))
			}
			if s.field != "" {
				fields = append(fields, jen.Id("Apply").Op(":").Id("o").Dot(s.field))
			}
			creds = append(creds, jen.Values(fields...))
		}
		alts = append(alts, jen.Index().Add(rt("Credential")).Values(creds...))
	}
	ops := jen.Id("c").Dot("ops").Dot(op.name)
	return ops.Clone().Op("=").Add(ops.Clone()).Dot("With").Call(rt("WithCredentials").Add(lines("(", ")", alts...)))
}
