package golang

import (
	"github.com/dave/jennifer/jen"
)

// OptionSet is the functional options of a generated client's
// constructor, in connect-go's design: an interface with an unexported
// apply method, a struct of what the options set, a function type that
// implements the interface, and one With function per option. Both back
// ends write theirs with [EmitOptions], from [StandardOptions] and their
// own.
type OptionSet struct {
	// Interface, Struct, Func and Apply name the option interface
	// ("Option"), the struct of set values ("clientOptions"), the function
	// type implementing the interface ("optionFunc") and its method
	// ("applyOption").
	Interface, Struct, Func, Apply string
	// Constructor names the function the options configure, for doc
	// comments ("NewClient").
	Constructor string
	// Doc is the interface's doc comment.
	Doc []string
	// Options are the With functions, in order.
	Options []ClientOption
}

// ClientOption is one With function of an [OptionSet].
type ClientOption struct {
	// Name is the function's name ("WithObserver").
	Name string
	// Doc is its doc comment, which refers to the argument as Arg.
	Doc []string
	// Arg names the argument, of type Type.
	Arg  string
	Type *jen.Statement
	// Fields are the fields of the options struct the option sets.
	Fields []jen.Code
	// Set is the statement that stores the argument, with the options
	// struct in "o".
	Set *jen.Statement
}

// field is an option that stores its argument in one field of the
// options struct.
func field(name string, doc []string, arg string, typ *jen.Statement, fieldName string) ClientOption {
	return ClientOption{
		Name: name, Doc: doc, Arg: arg, Type: typ,
		Fields: []jen.Code{jen.Id(fieldName).Add(typ.Clone())},
		Set:    jen.Id("o").Dot(fieldName).Op("=").Id(arg),
	}
}

// Names returns the exported package-level names that s declares.
func (s OptionSet) Names() []string {
	names := []string{s.Interface}
	for _, o := range s.Options {
		names = append(names, o.Name)
	}
	return names
}

// StandardOptions returns the options every generated client has, in
// order, named With<prefix>Policy, With<prefix>Observer,
// With<prefix>FallbackStore, With<prefix>Logger, With<prefix>Tracer and
// With<prefix>FallbackPartition: the edits of the policy table
// policyType, which starts from defaultPolicy, and the observer, fallback
// store, logger, tracer and fallback partition that [NewDependency] hands
// the runtime. partitionDoc is the part of the partition option's doc comment
// that says what already keeps cached answers apart. The back ends add
// their own options around these, then [DependencyNameOption] and, with
// a fleet, [FleetOption].
func StandardOptions(prefix, policyType, defaultPolicy, constructor, partitionDoc string) []ClientOption {
	with := func(what string) string { return "With" + prefix + what }
	doc := func(text string) []string { return wrap(text, commentWidth) }
	policyDoc := append(doc(with("Policy")+" changes the policy the client starts from, ["+defaultPolicy+"], "+
		"without regenerating: edit changes it in place, for example"),
		"", "\t"+with("Policy")+"(func(p *"+policyType+") { p.Dependency.Bulkhead.MaxConcurrent = 64 })", "")
	policyDoc = append(policyDoc, doc("Several "+with("Policy")+" options apply in order.")...)
	return []ClientOption{
		{
			Name:   with("Policy"),
			Doc:    policyDoc,
			Arg:    "edit",
			Type:   jen.Func().Params(jen.Op("*").Id(policyType)),
			Fields: []jen.Code{jen.Id("edits").Index().Func().Params(jen.Op("*").Id(policyType))},
			Set:    jen.If(jen.Id("edit").Op("!=").Nil()).Block(jen.Id("o").Dot("edits").Op("=").Append(jen.Id("o").Dot("edits"), jen.Id("edit"))),
		},
		field(with("Observer"), doc(with("Observer")+" sets the observer of the client's calls (attempts, retries, "+
			"breaker changes, rejections, degraded answers). The default observes nothing."),
			"obs", rt("Observer"), "observer"),
		field(with("FallbackStore"), doc(with("FallbackStore")+" sets where last-known-good answers are kept for cached "+
			"fallbacks. The default is the runtime's in-memory store."),
			"store", jen.Qual(fallbackstorePath, "Store"), "store"),
		field(with("Logger"), doc(with("Logger")+" sets the logger that circuit breaker transitions are written "+
			"to. The default is slog.Default at the time of "+constructor+"."),
			"logger", jen.Op("*").Qual("log/slog", "Logger"), "logger"),
		field(with("Tracer"), doc(with("Tracer")+" sets the tracer that starts a span for every call and every "+
			"attempt of the client (runtime/oteltrace's Tracer records them as OpenTelemetry spans). The trace "+
			"context goes out on requests through the standard integrations only: an HTTP client's default "+
			"transport is wrapped with the tracer's Transport (oteltrace: otelhttp), which a transport given with "+
			"WithHTTPClient needs to be wrapped with too; a gRPC connection is dialled with the tracer's "+
			"DialOption (oteltrace: otelgrpc's stats handler). The default traces nothing."),
			"tracer", rt("Tracer"), "tracer"),
		field(with("FallbackPartition"), doc(with("FallbackPartition")+" keeps the cached fallback answers of different "+
			"callers apart by what partition returns for the call's context (the signed-in user or tenant a "+
			"middleware put there): a cached answer is served only to a call of the same partition. "+partitionDoc+
			" The default partitions nothing. partition must be cheap and safe for concurrent use."),
			"partition", jen.Func().Params(jen.Qual("context", "Context")).String(), "partition"),
	}
}

// redisPath is go-redis, whose UniversalClient the fleet option takes,
// and redisfleetPath the runtime's fleet store on it. Only the clients of
// a dependency whose policy declares a fleet import them.
const (
	redisPath      = "github.com/redis/go-redis/v9"
	redisfleetPath = "github.com/resilientgo/resilient/runtime/redisfleet"
)

// FleetOption is the option With<prefix>Fleet of a client whose policy
// declares a fleet ([policyspec.Dependency.HasFleet]): it keeps the
// go-redis client it is given, from which [NewDependency] makes the
// dependency's fleet store. closeDoc is the end of its doc comment, on
// what else ends the synchronisation (empty for nothing). The back ends
// add it last, only for such a policy, so that a client without a fleet
// imports nothing of Redis.
func FleetOption(prefix, closeDoc string) ClientOption {
	name := "With" + prefix + "Fleet"
	return field(name, wrap(name+" shares the client's circuit breaker and retry budget with the "+
		"other replicas of the service, in the Redis (or Valkey) that rdb reaches: a single node, "+
		"Sentinel or Cluster client. Calls make no Redis command; the state is synchronised in the "+
		"background (redisfleet), and the client uses its own breaker and budget while Redis cannot "+
		"be reached. The policy names the store; without this option, or with a nil rdb, the state "+
		"stays in the process. Closing rdb ends the synchronisation"+closeDoc+".", commentWidth),
		"rdb", jen.Qual(redisPath, "UniversalClient"), "fleet")
}

// DependencyNameOption is the option With<prefix>DependencyName, which
// names the dependency; the back ends put it after their own options,
// before [FleetOption].
func DependencyNameOption(prefix, constructor string) ClientOption {
	name := "With" + prefix + "DependencyName"
	return field(name, wrap(name+" names the client's dependency in errors, logs and "+
		"observer events. The default is given in "+constructor+"'s documentation.", commentWidth),
		"name", jen.String(), "dependencyName")
}

// EmitOptions writes s:
//
//	// Option configures a Client made by NewClient.
//	type Option interface {
//		applyOption(*clientOptions)
//	}
//
//	// clientOptions holds what the options of NewClient set.
//	type clientOptions struct { ... }
//	type optionFunc func(*clientOptions)
//	func (f optionFunc) applyOption(o *clientOptions) { f(o) }
//
//	// WithLogger sets ...
//	func WithLogger(logger *slog.Logger) Option {
//		return optionFunc(func(o *clientOptions) { o.logger = logger })
//	}
func EmitOptions(f *jen.File, s OptionSet) {
	// go-redis's package is redis, not the v9 of its path; a hint only,
	// imported when a fleet option refers to it.
	f.ImportName(redisPath, "redis")
	f.Add(comments(s.Doc).Type().Id(s.Interface).Interface(jen.Id(s.Apply).Params(jen.Op("*").Id(s.Struct))))
	var fields []jen.Code
	for _, o := range s.Options {
		fields = append(fields, o.Fields...)
	}
	f.Add(comments(DocWrap(s.Struct + " holds what the options of " + s.Constructor + " set.")).Type().Id(s.Struct).Struct(fields...))
	f.Type().Id(s.Func).Func().Params(jen.Op("*").Id(s.Struct))
	f.Func().Params(jen.Id("f").Id(s.Func)).Id(s.Apply).Params(jen.Id("o").Op("*").Id(s.Struct)).Block(jen.Id("f").Call(jen.Id("o")))
	for _, o := range s.Options {
		f.Add(comments(o.Doc).Func().Id(o.Name).Params(jen.Id(o.Arg).Add(o.Type)).Id(s.Interface).Block(
			jen.Return(jen.Id(s.Func).Call(jen.Func().Params(jen.Id("o").Op("*").Id(s.Struct)).Block(o.Set))),
		))
	}
}

// ApplyOptions writes the start of a constructor taking opts of s: the
// options applied in order, nil ones skipped, and p, the policy of
// defaultPolicy as the policy edits change it.
//
//	var o clientOptions
//	for _, opt := range opts {
//		if opt != nil {
//			opt.applyOption(&o)
//		}
//	}
//	p := DefaultPolicy()
//	for _, edit := range o.edits {
//		edit(&p)
//	}
func ApplyOptions(s OptionSet, defaultPolicy string) []jen.Code {
	return []jen.Code{
		jen.Var().Id("o").Id(s.Struct),
		jen.For(jen.List(jen.Id("_"), jen.Id("opt")).Op(":=").Range().Id("opts")).Block(
			jen.If(jen.Id("opt").Op("!=").Nil()).Block(jen.Id("opt").Dot(s.Apply).Call(jen.Op("&").Id("o"))),
		),
		jen.Id("p").Op(":=").Id(defaultPolicy).Call(),
		jen.For(jen.List(jen.Id("_"), jen.Id("edit")).Op(":=").Range().Id("o").Dot("edits")).Block(jen.Id("edit").Call(jen.Op("&").Id("p"))),
	}
}

// NewDependency writes, after [ApplyOptions], the dependency's name
// (the option's, else defaultName) and the assignment of dep and err from
// runtime.NewDependency with the options' observer, logger, fallback
// store and partition.
//
//	name := o.dependencyName
//	if name == "" {
//		name = "petstore"
//	}
//	dep, err := runtime.NewDependency(name, p.Dependency, runtime.WithObserver(o.observer), ...)
//
// With fleet (the options include [FleetOption]), the runtime's options
// are a slice first, so that the fleet store joins them when the fleet
// option was given a Redis client:
//
//	deps := []runtime.Option{runtime.WithObserver(o.observer), ...}
//	if o.fleet != nil {
//		deps = append(deps, runtime.WithFleet(redisfleet.New(o.fleet)))
//	}
//	dep, err := runtime.NewDependency(name, p.Dependency, deps...)
func NewDependency(defaultName *jen.Statement, fleet bool) []jen.Code {
	o := func(name string) *jen.Statement { return jen.Id("o").Dot(name) }
	opts := []jen.Code{
		rt("WithObserver").Call(o("observer")),
		rt("WithLogger").Call(o("logger")),
		rt("WithFallbackStore").Call(o("store")),
		rt("WithFallbackPartition").Call(o("partition")),
		rt("WithTracer").Call(o("tracer")),
	}
	code := []jen.Code{
		jen.Id("name").Op(":=").Add(o("dependencyName")),
		jen.If(jen.Id("name").Op("==").Lit("")).Block(jen.Id("name").Op("=").Add(defaultName)),
	}
	if !fleet {
		return append(code, jen.List(jen.Id("dep"), jen.Err()).Op(":=").Add(rt("NewDependency")).Add(lines("(", ")",
			append([]jen.Code{jen.Id("name"), jen.Id("p").Dot("Dependency")}, opts...)...)))
	}
	return append(code,
		jen.Id("deps").Op(":=").Index().Add(rt("Option")).Add(lines("{", "}", opts...)),
		jen.If(o("fleet").Op("!=").Nil()).Block(
			jen.Id("deps").Op("=").Append(jen.Id("deps"), rt("WithFleet").Call(jen.Qual(redisfleetPath, "New").Call(o("fleet")))),
		),
		jen.List(jen.Id("dep"), jen.Err()).Op(":=").Add(rt("NewDependency")).Call(jen.Id("name"), jen.Id("p").Dot("Dependency"), jen.Id("deps").Op("...")),
	)
}
