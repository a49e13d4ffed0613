package protocgen

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/golang/grpcgen"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/protoir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/gen/svcconfig"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// ProtoSnapshot is one version of a set of .proto files as a spec-change
// diff compares it.
type ProtoSnapshot struct {
	// Plugin holds the files as protoc-gen-resilient sees them; the files
	// that define a service, and those they import but the standard and
	// resilient.v1 ones, are the files to generate.
	Plugin *protogen.Plugin
	// Services are the services of the files to generate, with their
	// resolved policy, in file order.
	Services []*resolve.Service
	// Code holds the <name>_resilient.pb.go files protoc-gen-resilient
	// writes for them.
	Code [][]byte
	// PolicyErrors are the policy errors after which the policy still
	// resolves (see [Snapshot]).
	PolicyErrors []diag.Diagnostic
}

// NewProtoSnapshot reads the descriptor set (protoc -o with
// --include_imports, or buf build -o) with the policy file (nil when there
// is none) and the gRPC service configs, a layer below it, as
// protoc-gen-resilient reads them. A file of the set without a go_package
// is given one named after its folder, as a diff needs only names.
func NewProtoSnapshot(set *descriptorpb.FileDescriptorSet, policy *policyspec.File, configs ...*svcconfig.Config) (*ProtoSnapshot, error) {
	req := &pluginpb.CodeGeneratorRequest{ProtoFile: set.File, FileToGenerate: filesToGenerate(set)}
	if len(req.FileToGenerate) == 0 {
		return nil, fmt.Errorf("the descriptor set defines no service")
	}
	if params := goPackageParams(set); len(params) > 0 {
		req.Parameter = proto.String(strings.Join(params, ","))
	}
	plugin, err := protogen.Options{}.New(req)
	if err != nil {
		return nil, requestError(req, err)
	}
	snap := &ProtoSnapshot{Plugin: plugin}
	services, _, err := protoir.Files(plugin)
	if err != nil {
		return nil, err
	}
	if _, _, err := svcconfig.Apply(configs, services); err != nil {
		return nil, err
	}
	if snap.Services, snap.PolicyErrors, err = resolveProto(services, policy); err != nil {
		return nil, err
	}
	// The policy file's entries that name no service or method of the
	// set, as protoc-gen-resilient reports them.
	if err := policy.CheckNames(knownNames(snap.Services)); err != nil {
		return nil, err
	}
	if snap.Code, err = emitProto(snap.Services); err != nil {
		return nil, err
	}
	return snap, nil
}

// filesToGenerate names, in the set's order, the files of set that define
// a service and those they import, the standard and resilient.v1 ones
// aside.
func filesToGenerate(set *descriptorpb.FileDescriptorSet) []string {
	byName := map[string]*descriptorpb.FileDescriptorProto{}
	for _, f := range set.File {
		byName[f.GetName()] = f
	}
	generate := map[string]bool{}
	var mark func(name string)
	mark = func(name string) {
		f := byName[name]
		if f == nil || generate[name] || strings.HasPrefix(name, "google/protobuf/") || strings.HasPrefix(name, "resilient/v1/") {
			return
		}
		generate[name] = true
		for _, dep := range f.Dependency {
			mark(dep)
		}
	}
	for _, f := range set.File {
		if len(f.Service) > 0 {
			mark(f.GetName())
		}
	}
	var names []string
	for _, f := range set.File {
		if generate[f.GetName()] {
			names = append(names, f.GetName())
		}
	}
	return names
}

// goPackageParams are the plugin parameters (M<file>=<path>;<name>) that
// give each file of set without a go_package one named after its folder.
func goPackageParams(set *descriptorpb.FileDescriptorSet) []string {
	var params []string
	for _, f := range set.File {
		if f.GetOptions().GetGoPackage() == "" {
			dir := path.Dir(f.GetName())
			pkg := gen.PackageName(strings.ReplaceAll(f.GetPackage(), ".", "_"), "pb")
			params = append(params, fmt.Sprintf("M%s=resilient.invalid/%s;%s", f.GetName(), dir, pkg))
		}
	}
	return params
}

// resolveProto resolves the policy of services under policy, and returns
// them with the policy errors after which it still resolves, worded for a
// .proto author; any other error stops it.
func resolveProto(services []*ir.Service, policy *policyspec.File) ([]*resolve.Service, diag.List, error) {
	var resolved []*resolve.Service
	var list diag.List
	for _, svc := range services {
		res, _, err := resolve.RPC(svc, policy)
		for _, d := range diag.From(err) {
			if !gen.ReviewableRule(d.Rule) {
				return nil, nil, err
			}
			list.Add(protoAdvice(d))
		}
		if res == nil {
			return nil, nil, err
		}
		resolved = append(resolved, res)
	}
	return resolved, list, nil
}

// knownNames maps each service's full name to the names and IDs of its
// operations, as [policyspec.File.CheckNames] takes them.
func knownNames(services []*resolve.Service) map[string][]string {
	known := map[string][]string{}
	for _, res := range services {
		for _, op := range res.IR.Operations {
			known[res.IR.FullName] = append(known[res.IR.FullName], op.Name, op.ID)
		}
	}
	return known
}

// emitProto renders the files protoc-gen-resilient writes, one per .proto
// file with services, in the order first met, straight from the resolved
// services (also under a policy it refuses, whose values the diff shows).
func emitProto(services []*resolve.Service) ([][]byte, error) {
	var order []string
	bySource := map[string][]*resolve.Service{}
	for _, svc := range services {
		if bySource[svc.IR.Source] == nil {
			order = append(order, svc.IR.Source)
		}
		bySource[svc.IR.Source] = append(bySource[svc.IR.Source], svc)
	}
	var code [][]byte
	for _, src := range order {
		svcs := bySource[src]
		var buf bytes.Buffer
		if err := grpcgen.Emit(&buf, grpcgen.File{Source: src, Package: svcs[0].IR.GoPackage, Services: svcs}); err != nil {
			return nil, err
		}
		code = append(code, buf.Bytes())
	}
	return code, nil
}
