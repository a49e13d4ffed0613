package golang

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// runtimePath is the import path of the runtime package, which generated
// code imports under its own name, runtimeName (generated code never
// imports the standard library's runtime); codecPath, routePath,
// streamPath and fallbackstorePath are its codec, route, stream and
// fallbackstore sub-packages, imported under their own names.
const (
	runtimePath = "github.com/resilientgo/resilient/runtime"
	runtimeName = "runtime"
	codecPath   = "github.com/resilientgo/resilient/runtime/codec"
	codecName   = "codec"
	routePath   = "github.com/resilientgo/resilient/runtime/route"
	routeName   = "route"
	streamPath  = "github.com/resilientgo/resilient/runtime/stream"
	streamName  = "stream"
	// fallbackstorePath holds the type of the WithFallbackStore option.
	fallbackstorePath = "github.com/resilientgo/resilient/runtime/fallbackstore"
	fallbackstoreName = "fallbackstore"
)

// rt refers to a name of the runtime package.
func rt(name string) *jen.Statement { return jen.Qual(runtimePath, name) }

// cd refers to a name of the codec package.
func cd(name string) *jen.Statement { return jen.Qual(codecPath, name) }

// rtr refers to a name of the route package.
func rtr(name string) *jen.Statement { return jen.Qual(routePath, name) }

// st refers to a name of the stream package.
func st(name string) *jen.Statement { return jen.Qual(streamPath, name) }

// ClientOptions tunes [EmitClient]. The zero value is ready to use.
type ClientOptions struct {
	// DependencyName is the default name of the client's
	// runtime.Dependency, shown in errors, logs and observer events; the
	// generated WithDependencyName option overrides it. Empty means the
	// name the policy was resolved for, and when that is empty too, the
	// host of the base URL given to NewClient.
	DependencyName string
	// Package is the name of the Go package the client is generated into;
	// the errors the generated code makes start with it ("petstore: ...").
	// Empty means the service's name in lower case.
	Package string
	// OperationFile, when set, returns the file of the package an
	// operation's method, Params struct, request builder and error type
	// (when the operation is the first to use it) are written to, and the
	// name of that file's part ("issues", "path_me"); the rest of the
	// client goes to the file given to EmitClient. An operation's entry
	// of DefaultPolicy and its set-up in NewClient go to its file too, as
	// a method per part (defaultsIssues, initIssues) that DefaultPolicy
	// and NewClient call, so that the file given to EmitClient does not
	// grow with the operations of the others. Nil writes everything to
	// that file.
	OperationFile func(*ir.Operation) (part string, f *jen.File)
}

// filePart is the file of a split client that some operations are
// written to, and the suffix of its set-up methods' names.
type filePart struct {
	suffix string
	f      *jen.File
	ops    []*opView
}

// partsOf groups ops by the file opts writes them to, in the order of
// their first operation; the operations written to core come back apart.
func partsOf(ops []*opView, core *jen.File, opts ClientOptions) (inCore []*opView, parts []*filePart) {
	if opts.OperationFile == nil {
		return ops, nil
	}
	byFile := map[*jen.File]*filePart{}
	used := map[string]bool{}
	for _, op := range ops {
		name, f := opts.OperationFile(op.src)
		if f == core {
			inCore = append(inCore, op)
			continue
		}
		fp := byFile[f]
		if fp == nil {
			// Names that differ only where partSuffix drops a character
			// ("users_2", "users2") get the part's index too.
			suffix := partSuffix(name, len(parts))
			for base, n := suffix, len(parts)+1; used[suffix]; n++ {
				suffix = base + "Part" + strconv.Itoa(n)
			}
			used[suffix] = true
			fp = &filePart{suffix: suffix, f: f}
			byFile[f] = fp
			parts = append(parts, fp)
		}
		fp.ops = append(fp.ops, op)
	}
	return inCore, parts
}

// partSuffix makes a part's name the suffix of a method name: "pet_stores"
// → "PetStores", "users_2" → "Users2"; a name with no letter or digit
// gets the part's index.
func partSuffix(name string, index int) string {
	var b strings.Builder
	upper := true
	for _, r := range name {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if upper {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			upper = false
		default:
			upper = true
		}
	}
	if b.Len() == 0 {
		return "Part" + strconv.Itoa(index+1)
	}
	return b.String()
}

// EmitClient writes the resilient HTTP client of svc, a service with its
// policy resolved by [resolve.HTTP], into f: the Client type and NewClient
// with its options, the Policy table and DefaultPolicy, one method per
// operation with its Params struct and typed error, and the helpers they
// share. The model types come from [EmitModels], into the same package.
//
// Constructs it cannot type degrade (a parameter sent as JSON, a multipart
// body sent as raw bytes, a second success type read as the first) and come
// back as warnings. Names the client needs that the models already use are
// errors (E-NAME-RESERVED, E-NAME-COLLISION), joined in the error; f is
// left untouched then.
func EmitClient(f *jen.File, svc *resolve.Service, opts ClientOptions) ([]diag.Diagnostic, error) {
	var list diag.List
	v := newClientView(svc, opts, &list)
	if list.HasErrors() {
		return list.Warnings(), list.Err()
	}
	f.ImportName(runtimePath, runtimeName)
	f.ImportName(codecPath, codecName)
	f.ImportName(routePath, routeName)
	f.ImportName(streamPath, streamName)
	f.ImportName(fallbackstorePath, fallbackstoreName)
	EmitVersionCheck(f)
	emitClientType(f, v)
	EmitOptions(f, clientOptions(v.fleet, v.schemes))
	inCore, parts := partsOf(v.ops, f, opts)
	emitNewClient(f, v, inCore, parts)
	emitServers(f, v.servers, v.pkg)
	emitRoutes(f, v)
	emitPolicyTable(f, v, parts)
	emitted := map[*errorView]bool{}
	for _, op := range v.ops {
		of := f
		if opts.OperationFile != nil {
			_, of = opts.OperationFile(op.src)
		}
		if op.result != nil && op.result.stream != nil {
			emitStreamMethod(of, op, v.m)
		} else {
			emitMethod(of, op)
		}
		if op.params != nil {
			emitParams(of, op)
		}
		emitRequest(of, op, v.pkg)
		if op.result != nil && op.result.set != nil {
			emitResultSet(of, op.result.set)
		}
		if e := op.errType; e != nil && !emitted[e] {
			emitErrorType(of, e, v.pkg)
			emitted[e] = true
		}
	}
	for _, m := range v.formMethods {
		f.Add(m)
	}
	emitHelpers(f, v)
	return list.Warnings(), nil
}

// clientView is what the client's emitters write: everything decided.
type clientView struct {
	svcName string
	// pkg is the Go package's name, the prefix of error messages.
	pkg     string
	depName string
	// deadlineHeader is the header the deadline goes out in by default,
	// empty for none (the policy's deadlineHeader).
	deadlineHeader string
	// fleet: the policy declares a fleet, and the client has WithFleet.
	fleet bool
	dep   *policyspec.Dependency
	ops   []*opView
	// helpers used by at least one operation.
	usesJSON, usesBytes, usesNothing, usesInto bool
	// m is the models' view, for the types of streams.
	m *models
	// usesStatic: an operation has a static fallback from the spec.
	usesStatic bool
	// schemes are the security schemes, with their options.
	schemes []*schemeView
	// servers are the document's servers.
	servers []*serverView
	// formMethods are the encodeForm methods of the structs nested form
	// bodies reach (deepform.go).
	formMethods []jen.Code
}

// newClientView computes the client of svc, reporting degraded constructs
// as warnings and name clashes as errors.
func newClientView(svc *resolve.Service, opts ClientOptions, list *diag.List) *clientView {
	c := &clientGen{m: newModels(svc.IR), list: list}
	c.form = &deepForm{c: c, structs: map[string]bool{}}
	v := &clientView{svcName: svc.IR.Name, pkg: opts.Package, depName: opts.DependencyName, dep: svc.Dependency, deadlineHeader: svc.Dependency.DeadlineHeader,
		fleet: svc.Dependency.HasFleet(), m: c.m}
	if v.pkg == "" {
		v.pkg = strings.ToLower(svc.IR.Name)
	}
	if v.depName == "" {
		v.depName = svc.Dependency.Name
	}
	for _, rop := range svc.Operations {
		op, res := rop.Operation, rop.Policy
		var static []byte
		if res.Policy.Fallback.Kind == runtime.FallbackStatic {
			var why string
			static, why = staticJSON(op, res.Policy.Fallback.Static)
			if why != "" {
				res = withoutStaticFallback(res)
				list.Warnf(op.Location, diag.RuleFallbackJSON, "operation "+op.Name+": "+why+"; the client has no fallback",
					"set one at run time with WithPolicy: p."+op.Name+".Fallback = runtime.FallbackPolicy{Kind: runtime.FallbackStatic, Static: value}")
			}
		}
		ov := c.opView(op, res)
		if static != nil {
			ov.static = string(static)
			v.usesStatic = true
		}
		v.ops = append(v.ops, ov)
		switch {
		case ov.result == nil:
			v.usesNothing = true
		case ov.result.stream != nil:
		case ov.result.set != nil:
			v.usesInto = v.usesInto || ov.result.set.decodesJSON()
		case ov.result.json:
			v.usesJSON = true
		default:
			v.usesBytes = true
		}
	}
	used := modelNames(svc.IR, v.fleet)
	nameParams(v.ops, used, list)
	nameResults(v.ops, used, list)
	shareErrorTypes(v.ops, used, list)
	v.servers = serverViews(svc.IR, used)
	v.schemes = schemeViews(svc.IR, used)
	for _, ov := range v.ops {
		ov.credentials = credentialsOf(ov.src, v.schemes)
		ov.doc = c.methodDoc(ov.src, ov)
	}
	v.formMethods = c.form.methods()
	checkNames(svc.IR, v, list)
	return v
}

// staticJSON returns the JSON text of op's static fallback value, or why
// the client cannot have it: the value is decoded into the result type when
// the client is made, so the result must be JSON.
func staticJSON(op *ir.Operation, value any) ([]byte, string) {
	if _, ct := op.Result(); ct == nil || ct.Kind != ir.ContentJSON {
		return nil, "a static fallback needs a JSON result"
	}
	if needsSet(op) {
		return nil, "a static fallback needs an operation with a single answer, without documented headers"
	}
	// Compact, map keys sorted, no HTML escapes: stable and readable.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(value); err != nil {
		return nil, "the static fallback value is not JSON: " + err.Error()
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), ""
}

// withoutStaticFallback returns a copy of res without its fallback.
func withoutStaticFallback(res *policyspec.Operation) *policyspec.Operation {
	c := *res
	c.Policy.Fallback = runtime.FallbackPolicy{}
	return &c
}

// clientGen holds what computing the views of operations needs.
type clientGen struct {
	m    *models
	list *diag.List
	// form writes nested form bodies and collects the structs whose
	// encodeForm method they call.
	form *deepForm
}

// EmitVersionCheck writes the check that the runtime module is recent
// enough for the generated code, which both back ends put in every file
// that uses the runtime:
//
//	// This check fails to compile when the runtime module is older than this
//	// generated code needs; upgrade it with
//	// go get github.com/resilientgo/resilient@latest.
//	const _ = runtime.SupportPackageIsVersion1
func EmitVersionCheck(f *jen.File) {
	f.Comment("This check fails to compile when the runtime module is older than this")
	f.Comment("generated code needs; upgrade it with")
	f.Comment("go get github.com/resilientgo/resilient@latest.")
	f.Const().Id("_").Op("=").Add(rt("SupportPackageIsVersion1"))
}

// emitClientType writes
//
//	// Client calls the Petstore API ...
//	type Client struct {
//		baseURL string
//		httpc   *runtime.HTTPClient
//		dep     *runtime.Dependency
//		ops     struct {
//			GetPet *runtime.Operation
//		}
//	}
//
//	// Dependency returns the runtime dependency all calls of c share.
//	func (c *Client) Dependency() *runtime.Dependency { return c.dep }
func emitClientType(f *jen.File, v *clientView) {
	doc := []string{
		"Client calls the " + v.svcName + " API. Every method runs its request through",
		"the resilience pipeline of the runtime package (deadline, bulkhead, retries",
		"for idempotent operations, circuit breaker, per-attempt timeout) with the",
		"operation's policy from [DefaultPolicy], as changed by [WithPolicy]; the",
		"trailing call options override it for one call.",
		"",
		"A method that returns only the decoded body tells the answer's status and",
		"header through the call option runtime.WithResponseInfo; one with",
		"several documented answers or documented headers returns a result struct",
		"holding them.",
		"",
		"A Client is safe for concurrent use; make one per base URL and keep it.",
	}
	ops := make([]jen.Code, 0, len(v.ops))
	for _, op := range v.ops {
		ops = append(ops, jen.Id(op.name).Op("*").Add(rt("Operation")))
	}
	f.Add(comments(doc).Type().Id("Client").Struct(
		jen.Id("baseURL").String(),
		jen.Id("httpc").Op("*").Add(rt("HTTPClient")),
		jen.Id("dep").Op("*").Add(rt("Dependency")),
		jen.Id("ops").Struct(ops...),
	))
	f.Comment("Dependency returns the runtime dependency that all calls of c share: its")
	f.Comment("breaker state, bulkhead occupancy and name.")
	f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id("Dependency").Params().Op("*").Add(rt("Dependency")).Block(
		jen.Return(jen.Id("c").Dot("dep")),
	)
}

// lines renders codes as a multi-line, comma-separated group between open
// and close, as in a composite literal or a long call.
func lines(open, close string, items ...jen.Code) *jen.Statement {
	return jen.CustomFunc(jen.Options{Open: open, Close: close, Separator: ",", Multi: true}, func(g *jen.Group) {
		for _, it := range items {
			g.Add(it)
		}
	})
}

// statusLit is a status code in generated code.
func statusLit(code int) *jen.Statement { return jen.Lit(code) }

// itoa is strconv.Itoa, kept short for view code.
func itoa(n int) string { return strconv.Itoa(n) }
