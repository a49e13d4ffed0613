package golang

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

// clientOption is one generated With function.
type clientOption struct {
	name string
	doc  []string
	// arg names the parameter; the doc refers to it by that name.
	arg   string
	param *jen.Statement
	// set assigns the parameter to the options o.
	set func(p *jen.Statement) *jen.Statement
}

// clientOptionList is the set of client options: the fixed ones, and
// WithFleet when the policy declares a fleet.
func clientOptionList(fleet bool) []clientOption {
	o := func() *jen.Statement { return jen.Id("o") }
	list := []clientOption{
		{
			name: "WithHTTPClient",
			doc: []string{
				"WithHTTPClient sends the requests with hc instead of the default: an",
				"http.Client from resilient.NewHTTPClient, without Timeout (the pipeline's",
				"deadlines bound every attempt), on a transport from resilient.NewTransport,",
				"dialling with the largest connect timeout of the policy and holding at",
				"most as many connections as the bulkhead lets calls be in flight, and",
				"following a redirect only to the same origin (scheme, host, port) for",
				"GET and HEAD (resilient.CheckRedirect): any other redirect is returned",
				"as a *resilient.RemoteError with its Location, so that no body, API key",
				"or other header parameter goes to another host. hc keeps its own",
				"redirect policy; set resilient.CheckRedirect as its CheckRedirect to have",
				"the default's. hc should not retry on its own.",
			},
			arg:   "hc",
			param: jen.Op("*").Qual("net/http", "Client"),
			set:   func(p *jen.Statement) *jen.Statement { return o().Dot("httpClient").Op("=").Add(p) },
		},
		{
			name: "WithPolicy",
			doc: []string{
				"WithPolicy changes the policy the client starts from, [DefaultPolicy],",
				"without regenerating: edit changes it in place, for example",
				"",
				"\tWithPolicy(func(p *Policy) { p.Dependency.Bulkhead.MaxConcurrent = 64 })",
				"",
				"Several WithPolicy options apply in order.",
			},
			arg:   "edit",
			param: jen.Func().Params(jen.Op("*").Id("Policy")),
			set: func(p *jen.Statement) *jen.Statement {
				return jen.If(p.Clone().Op("!=").Nil()).Block(o().Dot("edits").Op("=").Append(o().Dot("edits"), p))
			},
		},
		{
			name:  "WithObserver",
			doc:   []string{"WithObserver sets the observer of the client's calls (attempts, retries,", "breaker changes, rejections, degraded answers). The default observes", "nothing."},
			arg:   "obs",
			param: rt("Observer"),
			set:   func(p *jen.Statement) *jen.Statement { return o().Dot("observer").Op("=").Add(p) },
		},
		{
			name:  "WithFallbackStore",
			doc:   []string{"WithFallbackStore sets where last-known-good answers are kept for cached", "fallbacks. The default is the runtime's in-memory store."},
			arg:   "store",
			param: rt("FallbackStore"),
			set:   func(p *jen.Statement) *jen.Statement { return o().Dot("store").Op("=").Add(p) },
		},
		{
			name:  "WithLogger",
			doc:   []string{"WithLogger sets the logger that circuit breaker transitions are written", "to. The default is slog.Default at the time of NewClient."},
			arg:   "logger",
			param: jen.Op("*").Qual("log/slog", "Logger"),
			set:   func(p *jen.Statement) *jen.Statement { return o().Dot("logger").Op("=").Add(p) },
		},
		{
			name: "WithFallbackPartition",
			doc: []string{
				"WithFallbackPartition keeps the cached fallback answers of different",
				"callers apart by what partition returns for the call's context (the",
				"signed-in user or tenant a middleware put there): a cached answer is",
				"served only to a call of the same partition. Cached answers are already",
				"kept per request, header and cookie parameters and credentials included;",
				"use this when credentials reach the server in a way the request does not",
				"show (a transport given with WithHTTPClient that adds them), or to keep",
				"callers apart even for answers declared shared. The default partitions",
				"nothing. partition must be cheap and safe for concurrent use.",
			},
			arg:   "partition",
			param: jen.Func().Params(jen.Qual("context", "Context")).String(),
			set:   func(p *jen.Statement) *jen.Statement { return o().Dot("partition").Op("=").Add(p) },
		},
		{
			name: "WithMaxResponseBody",
			doc: []string{
				"WithMaxResponseBody bounds, in bytes, the body of a successful answer",
				"that a method reads; a larger answer fails with a",
				"*resilient.ResponseTooLargeError, not retried. Zero keeps the default,",
				"resilient.DefaultMaxResponseBody (32 MiB); a negative n means no limit.",
			},
			arg:   "n",
			param: jen.Int64(),
			set:   func(p *jen.Statement) *jen.Statement { return o().Dot("maxResponseBody").Op("=").Add(p) },
		},
		{
			name: "WithDeadlineHeader",
			doc: []string{
				"WithDeadlineHeader names the header in which every attempt sends its",
				"remaining time budget, in milliseconds, for the server's",
				"resilient.DeadlineMiddleware; an empty name sends none, for a server",
				"that should not learn the caller's budget (a third-party API). The",
				"default is given in NewClient's documentation, from the policy's",
				"deadlineHeader.",
			},
			arg:   "name",
			param: jen.String(),
			set: func(p *jen.Statement) *jen.Statement {
				return jen.List(o().Dot("deadlineHeader"), o().Dot("deadlineHeaderSet")).Op("=").List(p, jen.True())
			},
		},
		{
			name:  "WithDependencyName",
			doc:   []string{"WithDependencyName names the client's dependency in errors, logs and", "observer events. The default is given in NewClient's documentation."},
			arg:   "name",
			param: jen.String(),
			set:   func(p *jen.Statement) *jen.Statement { return o().Dot("dependencyName").Op("=").Add(p) },
		},
	}
	if fleet {
		list = append(list, clientOption{
			name: "WithFleet",
			doc: []string{
				"WithFleet shares the client's circuit breaker and retry budget with the",
				"other replicas of the service, in the Redis (or Valkey) that rdb reaches:",
				"a single node, Sentinel or Cluster client. Calls make no Redis command;",
				"the state is synchronised in the background (redisfleet), and the client",
				"uses its own breaker and budget while Redis cannot be reached. The policy",
				"names the store; without this option the state stays in the process.",
				"Closing rdb ends the synchronisation; so does Dependency().Close().",
			},
			arg:   "rdb",
			param: jen.Qual(redisPath, "UniversalClient"),
			set:   func(p *jen.Statement) *jen.Statement { return o().Dot("fleet").Op("=").Add(p) },
		})
	}
	return list
}

// emitOptions writes
//
//	// Option configures a Client made by NewClient.
//	type Option interface {
//		applyOption(*clientOptions)
//	}
//
//	type clientOptions struct { ... }
//	type optionFunc func(*clientOptions)
//	func (f optionFunc) applyOption(o *clientOptions) { f(o) }
//
//	// WithLogger sets ...
//	func WithLogger(logger *slog.Logger) Option {
//		return optionFunc(func(o *clientOptions) { o.logger = logger })
//	}
func emitOptions(f *jen.File, v *clientView) {
	f.Comment("Option configures a Client made by NewClient.")
	f.Type().Id("Option").Interface(jen.Id("applyOption").Params(jen.Op("*").Id("clientOptions")))
	f.Comment("clientOptions holds what the options of NewClient set.")
	f.Type().Id("clientOptions").Struct(
		jen.Id("httpClient").Op("*").Qual("net/http", "Client"),
		jen.Id("edits").Index().Func().Params(jen.Op("*").Id("Policy")),
		jen.Id("observer").Add(rt("Observer")),
		jen.Id("store").Add(rt("FallbackStore")),
		jen.Id("logger").Op("*").Qual("log/slog", "Logger"),
		jen.Id("partition").Func().Params(jen.Qual("context", "Context")).String(),
		jen.Id("maxResponseBody").Int64(),
		jen.Id("deadlineHeader").String(),
		jen.Id("deadlineHeaderSet").Bool(),
		jen.Id("dependencyName").String(),
		fleetField(v.fleet),
	)
	f.Type().Id("optionFunc").Func().Params(jen.Op("*").Id("clientOptions"))
	f.Func().Params(jen.Id("f").Id("optionFunc")).Id("applyOption").Params(jen.Id("o").Op("*").Id("clientOptions")).Block(jen.Id("f").Call(jen.Id("o")))
	for _, opt := range clientOptionList(v.fleet) {
		f.Add(comments(opt.doc).Func().Id(opt.name).Params(jen.Id(opt.arg).Add(opt.param)).Id("Option").Block(
			jen.Return(jen.Id("optionFunc").Call(jen.Func().Params(jen.Id("o").Op("*").Id("clientOptions")).Block(opt.set(jen.Id(opt.arg))))),
		))
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
//		u, err := resilient.ParseBaseURL(baseURL)
//		if err != nil {
//			return nil, fmt.Errorf("petstore: %w", err)
//		}
//		name := o.dependencyName
//		if name == "" {
//			name = "petstore"
//		}
//		dep, err := resilient.NewDependency(name, p.Dependency, resilient.WithObserver(o.observer), ...)
//		if err != nil {
//			return nil, err
//		}
//		hc := o.httpClient
//		if hc == nil {
//			hc = resilient.NewHTTPClient(resilient.NewTransport(max(...), p.Dependency.Bulkhead.MaxConcurrent))
//		}
//		header := "X-Request-Deadline"
//		if o.deadlineHeaderSet {
//			header = o.deadlineHeader
//		}
//		c := &Client{baseURL: u.String(), httpc: &resilient.HTTPClient{Doer: hc, ...}, dep: dep}
//		if c.ops.GetPet, err = dep.Operation(p.GetPet); err != nil {
//			return nil, err
//		}
//		return c, nil
//	}
func emitNewClient(f *jen.File, v *clientView) {
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
	doc := wrap("NewClient returns a client of the API at baseURL, an absolute http or https URL "+
		"to which the operations' paths are appended (\"https://api.example.com/v1\"); a base URL "+
		"with a query, a fragment or userinfo is refused. Its dependency is named "+nameDefault+
		" unless WithDependencyName says otherwise. It "+headerDefault+" unless WithDeadlineHeader "+
		"says otherwise. It fails when baseURL is not such a URL or the policy is invalid.", commentWidth)
	prefix := strings.ToLower(v.svcName)
	connect := []jen.Code{jen.Qual("time", "Duration").Call(jen.Lit(0))}
	var ops []jen.Code
	for _, op := range v.ops {
		connect = append(connect, jen.Id("p").Dot(op.name).Dot("ConnectTimeout"))
		if op.policy.static != "" {
			static := jen.Id("p").Dot(op.name).Dot("Fallback").Dot("Static")
			ops = append(ops, jen.If(
				jen.List(static.Clone(), jen.Err()).Op("=").Id("staticFallback").Types(op.result.typ()).Call(static.Clone()),
				jen.Err().Op("!=").Nil(),
			).Block(jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(prefix+": "+op.name+": %w"), jen.Err()))))
		}
		ops = append(ops, jen.If(
			jen.List(jen.Id("c").Dot("ops").Dot(op.name), jen.Err()).Op("=").Id("dep").Dot("Operation").Call(jen.Id("p").Dot(op.name)),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Err())))
	}
	body := []jen.Code{
		jen.Var().Id("o").Id("clientOptions"),
		jen.For(jen.List(jen.Id("_"), jen.Id("opt")).Op(":=").Range().Id("opts")).Block(jen.Id("opt").Dot("applyOption").Call(jen.Op("&").Id("o"))),
		jen.Id("p").Op(":=").Id("DefaultPolicy").Call(),
		jen.For(jen.List(jen.Id("_"), jen.Id("edit")).Op(":=").Range().Id("o").Dot("edits")).Block(jen.Id("edit").Call(jen.Op("&").Id("p"))),
		jen.List(jen.Id("u"), jen.Err()).Op(":=").Add(rt("ParseBaseURL")).Call(jen.Id("baseURL")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(prefix+": %w"), jen.Err())),
		),
		jen.Id("name").Op(":=").Id("o").Dot("dependencyName"),
		jen.If(jen.Id("name").Op("==").Lit("")).Block(jen.Id("name").Op("=").Add(name)),
		newDependency(v.fleet),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("hc").Op(":=").Id("o").Dot("httpClient"),
		jen.If(jen.Id("hc").Op("==").Nil()).Block(
			jen.Id("connect").Op(":=").Id("max").Add(lines("(", ")", connect...)),
			jen.Id("hc").Op("=").Add(rt("NewHTTPClient")).Call(
				rt("NewTransport").Call(jen.Id("connect"), jen.Id("p").Dot("Dependency").Dot("Bulkhead").Dot("MaxConcurrent")),
			),
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
			}),
			jen.Id("dep"): jen.Id("dep"),
		}),
	}
	body = append(body, ops...)
	body = append(body, jen.Return(jen.Id("c"), jen.Nil()))
	f.Add(comments(doc).Func().Id("NewClient").Params(jen.Id("baseURL").String(), jen.Id("opts").Op("...").Id("Option")).Params(jen.Op("*").Id("Client"), jen.Error()).Block(body...))
}

// fleetField is the "fleet redis.UniversalClient" field of clientOptions
// when the policy declares a fleet, else nothing.
func fleetField(fleet bool) jen.Code {
	if !fleet {
		return jen.Null()
	}
	return jen.Id("fleet").Qual(redisPath, "UniversalClient")
}

// newDependency writes
//
//	dep, err := resilient.NewDependency(
//		name,
//		p.Dependency,
//		resilient.WithObserver(o.observer),
//		...
//	)
//
// and, when the policy declares a fleet, builds the options first so that
// WithFleet adds one:
//
//	deps := []resilient.Option{resilient.WithObserver(o.observer), ...}
//	if o.fleet != nil {
//		deps = append(deps, resilient.WithFleet(redisfleet.New(o.fleet)))
//	}
//	dep, err := resilient.NewDependency(name, p.Dependency, deps...)
func newDependency(fleet bool) jen.Code {
	o := jen.Id("o")
	opts := []jen.Code{
		rt("WithObserver").Call(o.Clone().Dot("observer")),
		rt("WithLogger").Call(o.Clone().Dot("logger")),
		rt("WithFallbackStore").Call(o.Clone().Dot("store")),
		rt("WithFallbackPartition").Call(o.Clone().Dot("partition")),
	}
	if !fleet {
		return jen.List(jen.Id("dep"), jen.Err()).Op(":=").Add(rt("NewDependency")).Add(lines("(", ")",
			append([]jen.Code{jen.Id("name"), jen.Id("p").Dot("Dependency")}, opts...)...))
	}
	// Three statements in a row: jennifer writes a statement's items one
	// after the other, and Line breaks them.
	return jen.Id("deps").Op(":=").Index().Add(rt("Option")).Add(lines("{", "}", opts...)).Line().
		If(o.Clone().Dot("fleet").Op("!=").Nil()).Block(
		jen.Id("deps").Op("=").Append(jen.Id("deps"), rt("WithFleet").Call(jen.Qual(redisfleetPath, "New").Call(o.Clone().Dot("fleet")))),
	).Line().
		List(jen.Id("dep"), jen.Err()).Op(":=").Add(rt("NewDependency")).Call(jen.Id("name"), jen.Id("p").Dot("Dependency"), jen.Id("deps").Op("..."))
}
