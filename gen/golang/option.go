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

// clientOptionList is the fixed set of client options.
func clientOptionList() []clientOption {
	o := func() *jen.Statement { return jen.Id("o") }
	return []clientOption{
		{
			name: "WithHTTPClient",
			doc: []string{
				"WithHTTPClient sends the requests with hc instead of the default: an",
				"http.Client without Timeout (the pipeline's deadlines bound every attempt)",
				"on a transport from resilient.NewTransport, dialling with the largest",
				"connect timeout of the policy and holding at most as many connections",
				"as the bulkhead lets calls be in flight. hc should not retry on its own.",
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
			name:  "WithDependencyName",
			doc:   []string{"WithDependencyName names the client's dependency in errors, logs and", "observer events. The default is given in NewClient's documentation."},
			arg:   "name",
			param: jen.String(),
			set:   func(p *jen.Statement) *jen.Statement { return o().Dot("dependencyName").Op("=").Add(p) },
		},
	}
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
		jen.Id("dependencyName").String(),
	)
	f.Type().Id("optionFunc").Func().Params(jen.Op("*").Id("clientOptions"))
	f.Func().Params(jen.Id("f").Id("optionFunc")).Id("applyOption").Params(jen.Id("o").Op("*").Id("clientOptions")).Block(jen.Id("f").Call(jen.Id("o")))
	for _, opt := range clientOptionList() {
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
//		u, err := url.Parse(baseURL)
//		if err != nil || u.Scheme == "" || u.Host == "" {
//			return nil, fmt.Errorf("petstore: base URL %q is not an absolute URL", baseURL)
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
//			hc = &http.Client{Transport: resilient.NewTransport(max(...), p.Dependency.Bulkhead.MaxConcurrent)}
//		}
//		c := &Client{baseURL: strings.TrimSuffix(u.String(), "/"), httpc: &resilient.HTTPClient{Doer: hc}, dep: dep}
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
	doc := []string{
		"NewClient returns a client of the API at baseURL, an absolute URL to which",
		"the operations' paths are appended (\"https://api.example.com/v1\"). Its",
		"dependency is named " + nameDefault + " unless WithDependencyName says",
		"otherwise. It fails when baseURL is not absolute or the policy is invalid.",
	}
	connect := []jen.Code{jen.Qual("time", "Duration").Call(jen.Lit(0))}
	var ops []jen.Code
	for _, op := range v.ops {
		connect = append(connect, jen.Id("p").Dot(op.name).Dot("ConnectTimeout"))
		if op.policy.static != "" {
			static := jen.Id("p").Dot(op.name).Dot("Fallback").Dot("Static")
			ops = append(ops, jen.If(
				jen.List(static.Clone(), jen.Err()).Op("=").Id("staticFallback").Types(op.result.typ()).Call(static.Clone()),
				jen.Err().Op("!=").Nil(),
			).Block(jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(strings.ToLower(v.svcName)+": "+op.name+": %w"), jen.Err()))))
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
		jen.List(jen.Id("u"), jen.Err()).Op(":=").Qual("net/url", "Parse").Call(jen.Id("baseURL")),
		jen.If(jen.Err().Op("!=").Nil().Op("||").Id("u").Dot("Scheme").Op("==").Lit("").Op("||").Id("u").Dot("Host").Op("==").Lit("")).Block(
			jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(strings.ToLower(v.svcName)+": base URL %q is not an absolute URL"), jen.Id("baseURL"))),
		),
		jen.Id("name").Op(":=").Id("o").Dot("dependencyName"),
		jen.If(jen.Id("name").Op("==").Lit("")).Block(jen.Id("name").Op("=").Add(name)),
		jen.List(jen.Id("dep"), jen.Err()).Op(":=").Add(rt("NewDependency")).Add(lines("(", ")",
			jen.Id("name"), jen.Id("p").Dot("Dependency"),
			rt("WithObserver").Call(jen.Id("o").Dot("observer")),
			rt("WithLogger").Call(jen.Id("o").Dot("logger")),
			rt("WithFallbackStore").Call(jen.Id("o").Dot("store")),
		)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("hc").Op(":=").Id("o").Dot("httpClient"),
		jen.If(jen.Id("hc").Op("==").Nil()).Block(
			jen.Id("connect").Op(":=").Id("max").Add(lines("(", ")", connect...)),
			jen.Id("hc").Op("=").Op("&").Qual("net/http", "Client").Values(jen.Dict{
				jen.Id("Transport"): rt("NewTransport").Call(jen.Id("connect"), jen.Id("p").Dot("Dependency").Dot("Bulkhead").Dot("MaxConcurrent")),
			}),
		),
		jen.Id("c").Op(":=").Op("&").Id("Client").Values(jen.Dict{
			jen.Id("baseURL"): jen.Qual("strings", "TrimSuffix").Call(jen.Id("u").Dot("String").Call(), jen.Lit("/")),
			jen.Id("httpc"):   jen.Op("&").Add(rt("HTTPClient")).Values(jen.Dict{jen.Id("Doer"): jen.Id("hc")}),
			jen.Id("dep"):     jen.Id("dep"),
		}),
	}
	body = append(body, ops...)
	body = append(body, jen.Return(jen.Id("c"), jen.Nil()))
	f.Add(comments(doc).Func().Id("NewClient").Params(jen.Id("baseURL").String(), jen.Id("opts").Op("...").Id("Option")).Params(jen.Op("*").Id("Client"), jen.Error()).Block(body...))
}
