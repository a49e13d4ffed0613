package protocgen

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen/golang/grpcgen"
	"github.com/resilientgo/resilient/gen/input"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/protoir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/gen/svcconfig"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// ProtoOptions configures [Proto]. The zero value is ready to use. The
// plugin's parameters (policy=, review=, and protogen's paths=, module=
// and M) come with the request.
type ProtoOptions struct {
	// ReadFile reads the policy file that the policy= parameter names,
	// and the gRPC service configs that service_config= parameters and
	// the policy file's grpcServiceConfigs name (the latter joined to the
	// policy file's folder). Nil is [input.ReadPolicy]: relative to the
	// working directory, from its folder opened as an [os.Root] (a
	// symbolic link out of that folder is refused), only when it is a
	// regular file of at most [input.MaxPolicySize] bytes.
	ReadFile func(name string) ([]byte, error)
}

// Proto runs protoc-gen-resilient on req: it reads the parameters, builds
// the IR of every file to generate with package protoir, adds the gRPC
// service configs' layers with package svcconfig, resolves each service's
// policy with [resolve.RPC] (built-in < service config < policy file <
// file option < service option < method option), checks the Go names the generated code
// declares, and emits one <name>_resilient.pb.go per .proto file that has
// services with package grpcgen, plus the Markdown review that review=
// names.
//
// The response is what protoc expects back: the files, or, when
// anything is wrong, no file and every error in its Error field, sorted
// and one per line, each naming file, line, service and method. The
// warnings, sorted, come back beside it, also when there are errors;
// protoc-gen-resilient writes them to standard error. Bad input gives an
// error in the response, never a panic.
func Proto(req *pluginpb.CodeGeneratorRequest, opts ProtoOptions) (*pluginpb.CodeGeneratorResponse, []diag.Diagnostic) {
	var params protoParams
	plugin, err := protogen.Options{ParamFunc: params.set}.New(req)
	if err != nil {
		return errorResponse(requestError(req, err)), nil
	}
	plugin.SupportedFeatures = supportedFeatures
	plugin.SupportedEditionsMinimum = descriptorpb.Edition_EDITION_PROTO2
	plugin.SupportedEditionsMaximum = descriptorpb.Edition_EDITION_2023
	params.module = moduleParam(req.GetParameter())
	var list diag.List
	if err := generateProto(plugin, params, opts, &list); err != nil {
		plugin.Error(err)
	}
	return plugin.Response(), list.Warnings()
}

const supportedFeatures = uint64(pluginpb.CodeGeneratorResponse_FEATURE_PROTO3_OPTIONAL) | uint64(pluginpb.CodeGeneratorResponse_FEATURE_SUPPORTS_EDITIONS)

// errorResponse is the response to a request that protogen refuses.
func errorResponse(err error) *pluginpb.CodeGeneratorResponse {
	return &pluginpb.CodeGeneratorResponse{
		Error:             proto.String(err.Error()),
		SupportedFeatures: proto.Uint64(supportedFeatures),
		MinimumEdition:    proto.Int32(int32(descriptorpb.Edition_EDITION_PROTO2)),
		MaximumEdition:    proto.Int32(int32(descriptorpb.Edition_EDITION_2023)),
	}
}

// requestError turns protogen's refusal of req into a diagnostic: our own
// parameters' errors already are. The others are classified by where in
// the request the refusal lies, never by protogen's wording: when
// protogen refuses the parameters alone, E-PARAMETER; when every
// descriptor builds and protogen refuses the first file it is given with
// its imports, E-GO-PACKAGE on that file (a Go import path it cannot
// determine or accept); any other E-REQUEST. Its multi-line text is cut
// to the first line.
func requestError(req *pluginpb.CodeGeneratorRequest, err error) error {
	var d diag.Diagnostic
	if errors.As(err, &d) {
		return diag.List{d}
	}
	msg, _ := diag.FirstLine(err.Error(), len(err.Error()))
	d = diag.Diagnostic{Rule: diag.RuleRequest, Message: msg}
	if parameterRefused(req) {
		d.Rule = diag.RuleParameter
		d.Fix = "pass parameters as protoc-gen-resilient's documentation lists them"
	} else if f := goPackageRefused(req); f != nil {
		d.Rule = diag.RuleGoPackage
		d.Fix = `give the file an option go_package = "example.com/pets/v1;petsv1", or pass the parameter M<file>=<import path>`
		d.Location.File = f.GetName()
		d.Message += fmt.Sprintf(" (proto package %q)", f.GetPackage())
	}
	return diag.List{d}
}

// parameterRefused reports whether protogen refuses req's parameters
// alone, with no file.
func parameterRefused(req *pluginpb.CodeGeneratorRequest) bool {
	var params protoParams
	_, err := protogen.Options{ParamFunc: params.set}.New(&pluginpb.CodeGeneratorRequest{Parameter: req.Parameter})
	return err != nil
}

// goPackageRefused returns the first file of req, in the request's order
// (imports first), that protogen refuses when given it with the files
// before it, once every descriptor of req builds; nil when the
// descriptors do not build or no file is refused on its own.
func goPackageRefused(req *pluginpb.CodeGeneratorRequest) *descriptorpb.FileDescriptorProto {
	if _, err := protodesc.NewFiles(&descriptorpb.FileDescriptorSet{File: req.GetProtoFile()}); err != nil {
		return nil
	}
	var params protoParams
	for i, f := range req.GetProtoFile() {
		one := &pluginpb.CodeGeneratorRequest{Parameter: req.Parameter, ProtoFile: req.GetProtoFile()[:i+1], FileToGenerate: []string{f.GetName()}}
		if _, err := (protogen.Options{ParamFunc: params.set}).New(one); err != nil {
			return f
		}
	}
	return nil
}

// generateProto adds the generated files to plugin. Diagnostics go to
// list; the error joins its errors, and nothing is generated then.
func generateProto(plugin *protogen.Plugin, params protoParams, opts ProtoOptions, list *diag.List) error {
	read := opts.ReadFile
	if read == nil {
		read = input.ReadPolicy
	}
	file, err := readProtoPolicy(read, params.policy, list)
	if err != nil {
		return err
	}
	configs := readServiceConfigs(read, params, file, list)
	services, warnings, err := protoir.Files(plugin)
	addWithAdvice(list, warnings, err)
	applied, warnings, err := svcconfig.Apply(configs, services)
	addWithAdvice(list, warnings, err)
	resolved, byPackage := resolveRPCs(services, file, list)
	addWithAdvice(list, applied.Check(resolved), nil)
	for pkg, decls := range protoir.Declarations(plugin) {
		addWithAdvice(list, grpcgen.CheckNames(decls, byPackage[pkg]), nil)
	}
	if file != nil {
		// Entries for dependencies that no service of this run defines.
		addWithAdvice(list, nil, file.CheckNames(operationNames(services)))
	}
	bySource := map[string][]*resolve.Service{}
	for i, svc := range services {
		bySource[svc.Source] = append(bySource[svc.Source], resolved[i])
	}
	for _, f := range plugin.Files {
		if f.Generate && len(bySource[f.Desc.Path()]) > 0 {
			checkOutputName(f, list)
		}
	}
	if list.HasErrors() {
		return list.Err()
	}
	if err := emitProtoFiles(plugin, bySource, list); err != nil {
		return err
	}
	writeReviews(plugin, params, services, resolved)
	return nil
}

// addWithAdvice adds to list the warnings and the diagnostics of err,
// with the fixes a .proto author can apply (see [protoAdvice]).
func addWithAdvice(list *diag.List, warnings []diag.Diagnostic, err error) {
	for _, d := range warnings {
		list.Add(protoAdvice(d))
	}
	for _, d := range diag.From(err) {
		list.Add(protoAdvice(d))
	}
}

// readProtoPolicy reads and decodes the policy file named by the policy=
// parameter, if any, adding its diagnostics to list. A file that cannot
// be read is an error that stops the run.
func readProtoPolicy(read func(string) ([]byte, error), name string, list *diag.List) (*policyspec.File, error) {
	if name == "" {
		return nil, nil
	}
	data, err := read(name)
	if err != nil {
		list.Errorf(diag.Location{File: name}, diag.RuleRead, "cannot read the policy file: "+input.Explain(err),
			"name a regular file of at most 4 MiB, in a folder it does not leave through a symbolic link, with policy=")
		return nil, list.Err()
	}
	f, err := policyspec.DecodeFile(name, data)
	addWithAdvice(list, nil, err)
	return f, nil
}

// resolveRPCs resolves the policy of each service under file, adding the
// diagnostics to list; a service whose policy does not resolve is nil in
// resolved. byPackage groups the services by Go import path, for the
// names check: it is checked with the policy, which decides whether a
// client declares With<Service>Fleet, and a service whose policy does not
// resolve is checked without it.
func resolveRPCs(services []*ir.Service, file *policyspec.File, list *diag.List) (resolved []*resolve.Service, byPackage map[string][]*resolve.Service) {
	resolved = make([]*resolve.Service, len(services))
	byPackage = map[string][]*resolve.Service{}
	for i, svc := range services {
		res, warnings, err := resolve.RPC(svc, file)
		addWithAdvice(list, warnings, err)
		resolved[i] = res
		if res == nil {
			res = &resolve.Service{IR: svc}
		}
		byPackage[svc.GoPackage.ImportPath] = append(byPackage[svc.GoPackage.ImportPath], res)
	}
	return resolved, byPackage
}

// operationNames maps each service's full name to the names and IDs of
// its operations, as [policyspec.File.CheckNames] takes them.
func operationNames(services []*ir.Service) map[string][]string {
	known := map[string][]string{}
	for _, svc := range services {
		ops := []string{}
		for _, op := range svc.Operations {
			ops = append(ops, op.Name, op.ID)
		}
		known[svc.FullName] = ops
	}
	return known
}

// emitProtoFiles adds to plugin a <name>_resilient.pb.go file for each
// file to generate with services, of bySource. Code that does not format
// is an error added to list, which stops the run.
func emitProtoFiles(plugin *protogen.Plugin, bySource map[string][]*resolve.Service, list *diag.List) error {
	for _, f := range plugin.Files {
		svcs := bySource[f.Desc.Path()]
		if !f.Generate || len(svcs) == 0 {
			continue
		}
		g := plugin.NewGeneratedFile(f.GeneratedFilenamePrefix+"_resilient.pb.go", f.GoImportPath)
		pkg := ir.GoPackage{ImportPath: string(f.GoImportPath), Name: string(f.GoPackageName)}
		if err := grpcgen.Emit(g, grpcgen.File{Source: f.Desc.Path(), Package: pkg, Services: svcs}); err != nil {
			list.Errorf(diag.Location{File: f.Desc.Path()}, diag.RuleEmit, "generated code does not format: "+firstLine(err.Error()),
				"report this as a generator bug with the .proto file that caused it")
			return list.Err()
		}
	}
	return nil
}

// readServiceConfigs reads and decodes the gRPC service configs that the
// service_config= parameters name, then those the policy file's
// grpcServiceConfigs names, relative to its folder; a file named twice is
// read once. A file that cannot be read is E-READ, at the policy file's
// entry when it names it.
func readServiceConfigs(read func(string) ([]byte, error), params protoParams, file *policyspec.File, list *diag.List) []*svcconfig.Config {
	type ref struct {
		name string
		loc  diag.Location
	}
	var refs []ref
	for _, name := range params.serviceConfigs {
		refs = append(refs, ref{name: name, loc: diag.Location{File: name}})
	}
	if file != nil {
		for _, r := range file.ServiceConfigs {
			refs = append(refs, ref{name: path.Join(path.Dir(params.policy), r.Name), loc: r.Loc})
		}
	}
	var configs []*svcconfig.Config
	seen := map[string]bool{}
	for _, r := range refs {
		if seen[path.Clean(r.name)] {
			continue
		}
		seen[path.Clean(r.name)] = true
		data, err := read(r.name)
		if err != nil {
			list.Errorf(r.loc, diag.RuleRead, fmt.Sprintf("cannot read the service config %s: %s", r.name, input.Explain(err)),
				"name a regular file of at most 4 MiB, relative to protoc's working directory (service_config=) or to the policy file's folder (grpcServiceConfigs)")
			continue
		}
		cfg, warnings, err := svcconfig.Parse(r.name, data)
		for _, d := range warnings {
			list.Add(d)
		}
		list.AddErr(err)
		if cfg != nil {
			configs = append(configs, cfg)
		}
	}
	return configs
}

// writeReviews adds the Markdown reviews that review= asks for: none when
// the run generates no service; one file for the run, or, when the name
// holds {package}, one per proto package, named for it (buf runs the
// plugin once per directory, and each run must write names of its own).
// Under module= the name is given the module's prefix, which protogen
// strips from every generated name.
func writeReviews(plugin *protogen.Plugin, params protoParams, services []*ir.Service, resolved []*resolve.Service) {
	if params.review == "" || len(services) == 0 {
		return
	}
	groups := map[string][]*resolve.Service{}
	var names []string
	for i, svc := range services {
		if resolved[i] == nil {
			continue
		}
		name := strings.ReplaceAll(params.review, reviewPackage, protoPackage(svc.FullName, svc.Name))
		if _, ok := groups[name]; !ok {
			names = append(names, name)
		}
		groups[name] = append(groups[name], resolved[i])
	}
	for _, name := range names {
		out := name
		if params.module != "" {
			out = params.module + "/" + name
		}
		g := plugin.NewGeneratedFile(out, "")
		g.P(protoReview(groups[name]))
	}
}

// protoPackage is the proto package of a service by its full name, or
// "_" for a file without one.
func protoPackage(fullName, name string) string {
	if pkg, ok := strings.CutSuffix(fullName, "."+name); ok && pkg != "" {
		return pkg
	}
	if i := strings.LastIndexByte(fullName, '.'); i > 0 {
		return fullName[:i]
	}
	return "_"
}

// protoReview renders the Markdown review of every generated service.
func protoReview(resolved []*resolve.Service) string {
	var deps []policyspec.ReviewDependency
	var sources []string
	for _, rs := range resolved {
		deps = append(deps, rs.Review("gRPC"))
		if !slices.Contains(sources, rs.IR.Source) {
			sources = append(sources, rs.IR.Source)
		}
	}
	title := strings.Join(sources, ", ")
	if len(sources) == 1 {
		title = path.Base(sources[0])
	}
	return strings.TrimRight(policyspec.RenderReview(title, deps, policyspec.ReviewPerOperation), "\n")
}

// checkOutputName reports a file whose output name, made from its Go
// import path (go_package or an M parameter) unless paths=source_relative,
// leaves the output directory ("../x_resilient.pb.go") or is absolute.
func checkOutputName(f *protogen.File, list *diag.List) {
	name := f.GeneratedFilenamePrefix + "_resilient.pb.go"
	if fs.ValidPath(name) && !strings.ContainsAny(name, "\\:") {
		return
	}
	list.Errorf(diag.Location{File: f.Desc.Path()}, diag.RuleOutputPath,
		fmt.Sprintf("the generated file %q would be written outside the output directory (Go import path %q)", name, string(f.GoImportPath)),
		"give the file a go_package (or an M parameter) that is an import path such as example.com/pets/v1, or generate with paths=source_relative")
}
