package protoir

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	resilientv1 "github.com/resilientgo/resilient/annotations/resilient/v1"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// Files builds the services of every file gen is asked to generate, in the
// order of the request. Diagnostics of all files are collected: warnings
// come back in the slice, errors joined and sorted in the error. The Go
// names of methods are checked within their service; the package-level
// names, protoc-gen-go's (see [Declarations]) and the back end's, are the
// back end's to check.
func Files(gen *protogen.Plugin) ([]*ir.Service, []diag.Diagnostic, error) {
	var list diag.List
	var out []*ir.Service
	for _, f := range gen.Files {
		if !f.Generate {
			continue
		}
		out = append(out, file(f, &list)...)
	}
	return out, list.Warnings(), list.Err()
}

func file(f *protogen.File, list *diag.List) []*ir.Service {
	if ed := f.Proto.GetEdition(); f.Proto.GetSyntax() == "editions" && ed > descriptorpb.Edition_EDITION_2023 {
		list.Errorf(location(f, f.Desc), diag.RuleEdition,
			fmt.Sprintf("edition %s of %s is not supported (supported: proto2, proto3, 2023)", editionName(ed), f.Desc.Path()),
			`write edition = "2023"`)
		return nil
	}
	fileExt := policyOption(f, f.Desc, nil, fileOptionsField, ir.LevelDocument, resilientv1.E_File, list)
	var out []*ir.Service
	for _, s := range f.Services {
		out = append(out, service(f, s, fileExt, list))
	}
	return out
}

func editionName(ed descriptorpb.Edition) string {
	return strings.TrimPrefix(ed.String(), "EDITION_")
}

func service(f *protogen.File, s *protogen.Service, fileExt *ir.PolicyLayer, list *diag.List) *ir.Service {
	svc := &ir.Service{
		Name:      s.GoName,
		Doc:       comment(s.Comments.Leading),
		Source:    f.Desc.Path(),
		FullName:  string(s.Desc.FullName()),
		GoPackage: ir.GoPackage{ImportPath: string(f.GoImportPath), Name: string(f.GoPackageName)},
		Location:  location(f, s.Desc),
	}
	if f.Desc.Package() == "" {
		list.Warnf(svc.Location, diag.RuleNoPackage,
			fmt.Sprintf("service %s has no proto package: its methods are called as /%s/Method and its dependency is named %q", svc.FullName, svc.FullName, svc.FullName),
			"add a package statement")
	}
	if fileExt != nil {
		svc.Resilience = append(svc.Resilience, *fileExt)
	}
	if e := policyOption(f, s.Desc, s.Location.Path, serviceOptionsField, ir.LevelService, resilientv1.E_Service, list); e != nil {
		svc.Resilience = append(svc.Resilience, *e)
	}
	byGoName := map[string]*protogen.Method{}
	for _, m := range s.Methods {
		op := method(f, s, m, list)
		svc.Operations = append(svc.Operations, op)
		if prev, ok := byGoName[m.GoName]; ok {
			list.Errorf(op.Location, diag.RuleNameCollision,
				fmt.Sprintf("rpcs %s and %s of service %s both map to Go method %s", prev.Desc.Name(), m.Desc.Name(), svc.FullName, m.GoName),
				"rename one of them")
		}
		byGoName[m.GoName] = m
	}
	return svc
}

func method(f *protogen.File, s *protogen.Service, m *protogen.Method, list *diag.List) *ir.Operation {
	rpc := &ir.RPC{
		FullMethod: "/" + string(s.Desc.FullName()) + "/" + string(m.Desc.Name()),
		Name:       string(m.Desc.Name()),
		Input:      ir.GoIdent{ImportPath: string(m.Input.GoIdent.GoImportPath), Name: m.Input.GoIdent.GoName},
		Output:     ir.GoIdent{ImportPath: string(m.Output.GoIdent.GoImportPath), Name: m.Output.GoIdent.GoName},
		Leading:    comment(m.Comments.Leading),
	}
	switch {
	case m.Desc.IsStreamingClient() && m.Desc.IsStreamingServer():
		rpc.Kind = ir.BidiStreaming
	case m.Desc.IsStreamingClient():
		rpc.Kind = ir.ClientStreaming
	case m.Desc.IsStreamingServer():
		rpc.Kind = ir.ServerStreaming
	}
	opts, _ := m.Desc.Options().(*descriptorpb.MethodOptions)
	rpc.Deprecated = opts.GetDeprecated()
	idem, basis := idempotency(m, opts)
	rpc.IdempotencyBasis = basis
	op := &ir.Operation{
		Name:        m.GoName,
		ID:          string(m.Desc.Name()),
		Description: rpc.Leading,
		Deprecated:  rpc.Deprecated,
		Idempotency: idem,
		RPC:         rpc,
		Location:    location(f, m.Desc),
	}
	if e := policyOption(f, m.Desc, m.Location.Path, methodOptionsField, ir.LevelOperation, resilientv1.E_Method, list); e != nil {
		op.Resilience = append(op.Resilience, *e)
	}
	return op
}

// Idempotency maps a method's idempotency_level to the IR's.
func Idempotency(l descriptorpb.MethodOptions_IdempotencyLevel) ir.Idempotency {
	switch l {
	case descriptorpb.MethodOptions_NO_SIDE_EFFECTS:
		return ir.ReadOnly
	case descriptorpb.MethodOptions_IDEMPOTENT:
		return ir.Idempotent
	}
	return ir.NotIdempotent
}

// location is where d is declared in f, with its full name as path.
func location(f *protogen.File, d protoreflect.Descriptor) diag.Location {
	loc := diag.Location{File: f.Desc.Path(), Path: string(d.FullName())}
	if _, isFile := d.(protoreflect.FileDescriptor); isFile {
		loc.Path = ""
		if pkg := f.Desc.Package(); pkg != "" {
			loc.Path = string(pkg)
		}
		return loc
	}
	if sl := f.Desc.SourceLocations().ByDescriptor(d); sl.Path != nil || sl.StartLine > 0 {
		loc.Line, loc.Col = sl.StartLine+1, sl.StartColumn+1
	}
	return loc
}

// comment returns a leading comment without markers and surrounding
// blank lines.
func comment(c protogen.Comments) string {
	s := strings.TrimSpace(string(c))
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(strings.TrimPrefix(l, " "), " \t")
	}
	return strings.Join(lines, "\n")
}
