package golang

import (
	"github.com/dave/jennifer/jen"
)

// clientOptions are the options of NewClient: WithHTTPClient, WithDoer,
// WithRequestEditor, the credential options of schemes, the standard
// ones, WithMaxResponseBody, WithDeadlineHeader, WithDependencyName and,
// when the policy declares a fleet, WithFleet.
func clientOptions(fleet bool, schemes []*schemeView) OptionSet {
	o := func() *jen.Statement { return jen.Id("o") }
	opts := []ClientOption{
		{
			Name: "WithHTTPClient",
			Doc: []string{
				"WithHTTPClient sends the requests with hc instead of the default: an",
				"http.Client from runtime.NewHTTPClient, without Timeout (the pipeline's",
				"deadlines bound every attempt), on a transport from runtime.NewTransport,",
				"dialling with the largest connect timeout of the policy and holding at",
				"most as many connections as the bulkhead lets calls be in flight, and",
				"following a redirect only to the same origin (scheme, host, port) for",
				"GET and HEAD (runtime.CheckRedirect): any other redirect is returned",
				"as a *runtime.RemoteError with its Location, so that no body, API key",
				"or other header parameter goes to another host. hc keeps its own",
				"redirect policy; set runtime.CheckRedirect as its CheckRedirect to have",
				"the default's. hc should not retry on its own. A nil hc keeps the default.",
			},
			Arg:    "hc",
			Type:   jen.Op("*").Qual("net/http", "Client"),
			Fields: []jen.Code{jen.Id("httpClient").Add(rt("Doer"))},
			// A nil *http.Client must not become a non-nil Doer.
			Set: o().Dot("httpClient").Op("=").Nil().Line().If(jen.Id("hc").Op("!=").Nil()).Block(o().Dot("httpClient").Op("=").Id("hc")),
		},
		{
			Name: "WithDoer",
			Doc: DocWrap("WithDoer sends the requests with d, any runtime.Doer (an *http.Client, a " +
				"test double, a middleware chain), instead of the default described at WithHTTPClient; " +
				"it replaces what WithHTTPClient gave. d should not retry on its own nor follow a " +
				"redirect to another origin. A nil d keeps the default."),
			Arg:  "d",
			Type: rt("Doer"),
			Set:  o().Dot("httpClient").Op("=").Id("d"),
		},
		{
			Name: "WithRequestEditor",
			Doc: DocWrap("WithRequestEditor adds edit to the functions that edit every request of the client, " +
				"on every attempt, retries and hedges included, after the operation's credentials and the " +
				"deadline header are set, in the order given: for a header or a signature the spec does not " +
				"describe. An error from edit ends the call at once as the caller's error (a " +
				"*runtime.InvalidRequestError wrapping it): nothing of that attempt is sent, and it is " +
				"neither retried nor counted against the dependency. For one call, pass " +
				"runtime.WithRequestEditor among the call options. What an editor adds is not part of the " +
				"key of cached fallback answers: use WithFallbackPartition when it says who the caller is."),
			Arg:    "edit",
			Type:   rt("RequestEditor"),
			Fields: []jen.Code{jen.Id("editors").Index().Add(rt("RequestEditor"))},
			Set:    jen.If(jen.Id("edit").Op("!=").Nil()).Block(o().Dot("editors").Op("=").Append(o().Dot("editors"), jen.Id("edit"))),
		},
	}
	for _, s := range schemes {
		if s.option != "" {
			opts = append(opts, schemeOption(s))
		}
	}
	opts = append(opts, StandardOptions("", "Policy", "DefaultPolicy", "NewClient",
		"Cached answers are already kept per request, header and cookie parameters and credentials "+
			"included; use this when credentials reach the server in a way the request does not show "+
			"(a transport given with WithHTTPClient that adds them), or to keep callers apart even for "+
			"answers declared shared.")...)
	opts = append(opts,
		field("WithMaxResponseBody", []string{
			"WithMaxResponseBody bounds, in bytes, the body of a successful answer",
			"that a method reads; a larger answer fails with a",
			"*runtime.ResponseTooLargeError, not retried. Zero keeps the default,",
			"runtime.DefaultMaxResponseBody (32 MiB); a negative n means no limit.",
		}, "n", jen.Int64(), "maxResponseBody"),
		ClientOption{
			Name: "WithDeadlineHeader",
			Doc: []string{
				"WithDeadlineHeader names the header in which every attempt sends its",
				"remaining time budget, in milliseconds, for a server that reads it,",
				"such as one behind server.DeadlineMiddleware (\"X-Request-Deadline\");",
				"an empty name sends none, for a server that should not learn the",
				"caller's budget (a third-party API). The default is given in",
				"NewClient's documentation: none unless the spec or the policy declares",
				"deadlineHeader.",
			},
			Arg:    "name",
			Type:   jen.String(),
			Fields: []jen.Code{jen.Id("deadlineHeader").String(), jen.Id("deadlineHeaderSet").Bool()},
			Set:    jen.List(o().Dot("deadlineHeader"), o().Dot("deadlineHeaderSet")).Op("=").List(jen.Id("name"), jen.True()),
		},
		DependencyNameOption("", "NewClient"),
	)
	if fleet {
		opts = append(opts, FleetOption("", "; so does Dependency().Close()"))
	}
	return OptionSet{
		Interface:   "Option",
		Struct:      "clientOptions",
		Func:        "optionFunc",
		Apply:       "applyOption",
		Constructor: "NewClient",
		Doc:         []string{"Option configures a Client made by NewClient."},
		Options:     opts,
	}
}

// emitNewClient writes
//
//	// NewClient returns a client of the API at baseURL ...
//	func NewClient(baseURL string, opts ...Option) (*Client, error) {
//		var o clientOptions
//		for _, opt := range opts {
//			opt.applyOption(&o)
//		}
//		p := DefaultPolicy()
//		for _, edit := range o.edits {
//			edit(&p)
//		}
//		u, err := codec.ParseBaseURL(baseURL)
//		if err != nil {
//			return nil, fmt.Errorf("petstore: %w", err)
//		}
//		name := o.dependencyName
//		if name == "" {
//			name = "petstore"
//		}
//		dep, err := runtime.NewDependency(name, p.Dependency, runtime.WithObserver(o.observer), ...)
//		if err != nil {
//			return nil, err
//		}
//		hc := o.httpClient
//		if hc == nil {
//			hc = runtime.NewHTTPClient(dep.TraceTransport(runtime.NewTransport(max(...), p.Dependency.Bulkhead.MaxConcurrent)))
//		}
//		header := "X-Request-Deadline"
//		if o.deadlineHeaderSet {
//			header = o.deadlineHeader
//		}
//		c := &Client{baseURL: u.String(), httpc: &runtime.HTTPClient{Doer: hc, ...}, dep: dep}
//		if c.ops.GetPet, err = dep.Operation(p.GetPet); err != nil {
//			return nil, err
//		}
//		return c, nil
//	}
func emitNewClient(f *jen.File, v *clientView, inCore []*opView, parts []*filePart) {
	nameDefault := "the host of baseURL"
	name := jen.Id("u").Dot("Host")
	if v.depName != "" {
		nameDefault = quote(v.depName)
		name = jen.Lit(v.depName)
	}
	headerDefault := "sends no deadline header"
	if v.deadlineHeader != "" {
		headerDefault = "sends each attempt's remaining budget in " + v.deadlineHeader
	}
	server := ""
	if d := defaultServer(v.servers); d != nil {
		server = "An empty baseURL means the spec's first server, " + d.def + "; a base URL given always wins. "
	}
	doc := wrap("NewClient returns a client of the API at baseURL, an absolute http or https URL "+
		"to which the operations' paths are appended (\"https://api.example.com/v1\"); a base URL "+
		"with a query, a fragment or userinfo is refused. "+server+"Its dependency is named "+nameDefault+
		" unless WithDependencyName says otherwise. It "+headerDefault+" unless WithDeadlineHeader "+
		"says otherwise. It fails when baseURL is not such a URL or the policy is invalid.", commentWidth)
	prefix := v.pkg
	connect := []jen.Code{jen.Qual("time", "Duration").Call(jen.Lit(0))}
	for _, op := range v.ops {
		connect = append(connect, jen.Id("p").Dot(op.name).Dot("ConnectTimeout"))
	}
	ops := setUpOperations(inCore, prefix, func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) })
	for _, part := range parts {
		// if err := c.initPets(dep, &p, &o); err != nil { return nil, err }
		ops = append(ops, jen.If(
			jen.Err().Op(":=").Id("c").Dot("init"+part.suffix).Call(jen.Id("dep"), jen.Op("&").Id("p"), jen.Op("&").Id("o")),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Err())))
		body := setUpOperations(part.ops, prefix, func(err jen.Code) jen.Code { return jen.Return(err) })
		body = append(body, jen.Return(jen.Nil()))
		part.f.Add(comments([]string{
			"init" + part.suffix + " sets up, for [NewClient], the operations in this file.",
		}).Func().Params(jen.Id("c").Op("*").Id("Client")).Id("init"+part.suffix).Params(
			jen.Id("dep").Op("*").Add(rt("Dependency")), jen.Id("p").Op("*").Id("Policy"), jen.Id("o").Op("*").Id("clientOptions"),
		).Params(jen.Err().Error()).Block(body...))
	}
	body := ApplyOptions(clientOptions(v.fleet, v.schemes), "DefaultPolicy")
	if d := defaultServer(v.servers); d != nil {
		body = append(body, jen.If(jen.Id("baseURL").Op("==").Lit("")).Block(jen.Id("baseURL").Op("=").Id(d.def)))
	}
	body = append(body,
		jen.List(jen.Id("u"), jen.Err()).Op(":=").Add(cd("ParseBaseURL")).Call(jen.Id("baseURL")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(prefix+": %w"), jen.Err())),
		),
	)
	body = append(body, NewDependency(name, v.fleet)...)
	body = append(body,
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("hc").Op(":=").Id("o").Dot("httpClient"),
		jen.If(jen.Id("hc").Op("==").Nil()).Block(
			jen.Id("connect").Op(":=").Id("max").Add(lines("(", ")", connect...)),
			jen.Id("hc").Op("=").Add(rt("NewHTTPClient")).Call(jen.Id("dep").Dot("TraceTransport").Call(
				rt("NewTransport").Call(jen.Id("connect"), jen.Id("p").Dot("Dependency").Dot("Bulkhead").Dot("MaxConcurrent")),
			)),
		),
		jen.Id("header").Op(":=").Lit(v.deadlineHeader),
		jen.If(jen.Id("o").Dot("deadlineHeaderSet")).Block(jen.Id("header").Op("=").Id("o").Dot("deadlineHeader")),
		jen.Id("c").Op(":=").Op("&").Id("Client").Values(jen.Dict{
			jen.Id("baseURL"): jen.Id("u").Dot("String").Call(),
			jen.Id("httpc"): jen.Op("&").Add(rt("HTTPClient")).Values(jen.Dict{
				jen.Id("Doer"):                  jen.Id("hc"),
				jen.Id("DeadlineHeader"):        jen.Id("header"),
				jen.Id("DisableDeadlineHeader"): jen.Id("header").Op("==").Lit(""),
				jen.Id("MaxResponseBody"):       jen.Id("o").Dot("maxResponseBody"),
				jen.Id("RequestEditors"):        jen.Id("o").Dot("editors"),
			}),
			jen.Id("dep"): jen.Id("dep"),
		}),
	)
	body = append(body, ops...)
	body = append(body, jen.Return(jen.Id("c"), jen.Nil()))
	f.Add(comments(doc).Func().Id("NewClient").Params(jen.Id("baseURL").String(), jen.Id("opts").Op("...").Id("Option")).Params(jen.Op("*").Id("Client"), jen.Error()).Block(body...))
}

// setUpOperations writes what NewClient does for each of ops: decode a
// static fallback, make the runtime operation from its policy, add its
// credentials. ret returns an error from the function the code is in.
func setUpOperations(ops []*opView, prefix string, ret func(err jen.Code) jen.Code) []jen.Code {
	var code []jen.Code
	for _, op := range ops {
		if op.static != "" {
			static := jen.Id("p").Dot(op.name).Dot("Fallback").Dot("Static")
			code = append(code, jen.If(
				jen.List(static.Clone(), jen.Err()).Op("=").Id("staticFallback").Types(op.result.typ()).Call(static.Clone()),
				jen.Err().Op("!=").Nil(),
			).Block(ret(jen.Qual("fmt", "Errorf").Call(jen.Lit(prefix+": "+op.name+": %w"), jen.Err()))))
		}
		code = append(code, jen.If(
			jen.List(jen.Id("c").Dot("ops").Dot(op.name), jen.Err()).Op("=").Id("dep").Dot("Operation").Call(jen.Id("p").Dot(op.name)),
			jen.Err().Op("!=").Nil(),
		).Block(ret(jen.Err())))
		if op.credentials != nil {
			code = append(code, credentialsCode(op))
		}
	}
	return code
}
