package grpcgen

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen/diag"
	"github.com/resilientgo/resilient/gen/input"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/protoir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec"
)

// Options are the plugin's own parameters; protogen handles paths=,
// module= and M.
type Options struct {
	// Policy is the policy file (parameter policy=), read with ReadFile;
	// empty for none.
	Policy string
	// Review is the name of the Markdown review to emit as an extra
	// generated file (parameter review=), a relative slash-separated path
	// inside protoc's output directory; empty for none.
	Review string
	// ReadFile reads the policy file; nil reads it relative to the working
	// directory, from its folder opened as an [os.Root] (a symbolic link
	// out of that folder is refused), only when it is a regular file of at
	// most [input.MaxPolicySize] bytes.
	ReadFile func(name string) ([]byte, error)
	// Warn receives the warnings, sorted, one per line prefixed
	// "warning: " as oapi-resilient writes them. protoc and buf show what
	// a plugin writes to standard error. Nil discards them.
	Warn io.Writer
}

// Set sets the parameter name to value, for protogen.Options.ParamFunc.
func (o *Options) Set(name, value string) error {
	switch name {
	case "policy":
		o.Policy = value
	case "review":
		review, err := reviewPath(value)
		if err != nil {
			return err
		}
		o.Review = review
	default:
		return fmt.Errorf("unknown parameter %q (known: paths, module, M<file>, policy, review)", name)
	}
	return nil
}

// Run runs the plugin on req and returns its response. readFile reads the
// policy file (nil: see [Options.ReadFile]); warn receives the warnings (see
// [Options.Warn]; nil discards them). A failure is reported in the
// response's error field, as protoc expects; Run itself never fails.
func Run(req *pluginpb.CodeGeneratorRequest, readFile func(string) ([]byte, error), warn io.Writer) *pluginpb.CodeGeneratorResponse {
	opts := &Options{ReadFile: readFile, Warn: warn}
	gen, err := protogen.Options{ParamFunc: opts.Set}.New(req)
	if err != nil {
		return errorResponse(newError(req, err))
	}
	if err := Generate(gen, *opts); err != nil {
		gen.Error(err)
	}
	return gen.Response()
}

func errorResponse(err error) *pluginpb.CodeGeneratorResponse {
	return &pluginpb.CodeGeneratorResponse{
		Error:             proto.String(err.Error()),
		SupportedFeatures: proto.Uint64(supportedFeatures),
		MinimumEdition:    proto.Int32(int32(descriptorpb.Edition_EDITION_PROTO2)),
		MaximumEdition:    proto.Int32(int32(descriptorpb.Edition_EDITION_2023)),
	}
}

// newError adds the file and its proto package to protogen's error about
// a file without a Go import path, keeping protogen's wording.
func newError(req *pluginpb.CodeGeneratorRequest, err error) error {
	if !strings.Contains(err.Error(), "unable to determine Go import path") {
		return err
	}
	for _, f := range req.GetProtoFile() {
		if strings.Contains(err.Error(), fmt.Sprintf("%q", f.GetName())) {
			return fmt.Errorf("%s: E-GO-PACKAGE: %w (proto package %q)", f.GetName(), err, f.GetPackage())
		}
	}
	return err
}

const supportedFeatures = uint64(pluginpb.CodeGeneratorResponse_FEATURE_PROTO3_OPTIONAL) | uint64(pluginpb.CodeGeneratorResponse_FEATURE_SUPPORTS_EDITIONS)

// Generate emits the resilient clients of the files gen is asked to
// generate, with the plugin options opts. Errors of every file are
// collected and returned together, sorted; nothing is emitted then.
// Warnings go to opts.Warn, also when there are errors.
func Generate(gen *protogen.Plugin, opts Options) error {
	gen.SupportedFeatures = supportedFeatures
	gen.SupportedEditionsMinimum = descriptorpb.Edition_EDITION_PROTO2
	gen.SupportedEditionsMaximum = descriptorpb.Edition_EDITION_2023

	var list diag.List
	addErr := func(err error) {
		for _, d := range diagnostics(err) {
			list.Add(d)
		}
	}
	addWarnings := func(ws []diag.Diagnostic) {
		for _, w := range ws {
			list.Add(w)
		}
	}
	defer func() {
		if opts.Warn == nil {
			return
		}
		for _, w := range list.Warnings() {
			fmt.Fprintf(opts.Warn, "warning: %s\n", w.Error())
		}
	}()
	var file *policyspec.File
	if opts.Policy != "" {
		read := opts.ReadFile
		if read == nil {
			read = readPolicy
		}
		data, err := read(opts.Policy)
		if err != nil {
			return fmt.Errorf("policy file: %w", err)
		}
		f, err := policyspec.DecodeFile(opts.Policy, data)
		addErr(err)
		file = f
	}
	services, warnings, err := protoir.Files(gen)
	addErr(err)
	addWarnings(warnings)
	resolved := make([]*resolve.Service, len(services))
	for i, svc := range services {
		res, warnings, err := resolve.RPC(svc, file)
		addErr(err)
		addWarnings(warnings)
		resolved[i] = res
	}
	if file != nil {
		// Entries for dependencies that no service of this run defines.
		known := map[string][]string{}
		for _, svc := range services {
			ops := []string{}
			for _, op := range svc.Operations {
				ops = append(ops, op.Name, op.ID)
			}
			known[svc.FullName] = ops
		}
		addErr(file.CheckNames(known))
	}
	byFile := map[string][]int{}
	for i, svc := range services {
		byFile[svc.Source] = append(byFile[svc.Source], i)
	}
	for _, f := range gen.Files {
		if f.Generate && len(byFile[f.Desc.Path()]) > 0 {
			checkOutputName(f, &list)
		}
	}
	if list.HasErrors() {
		return list.Err()
	}

	for _, f := range gen.Files {
		idx := byFile[f.Desc.Path()]
		if !f.Generate || len(idx) == 0 {
			continue
		}
		views := make([]*serviceView, len(idx))
		for j, i := range idx {
			views[j] = newServiceView(resolved[i])
		}
		g := gen.NewGeneratedFile(f.GeneratedFilenamePrefix+"_resilient.pb.go", f.GoImportPath)
		if err := emitFile(g, f.Desc.Path(), string(f.GoPackageName), string(f.GoImportPath), views); err != nil {
			return fmt.Errorf("%s: %w", f.Desc.Path(), err)
		}
	}
	if opts.Review != "" {
		g := gen.NewGeneratedFile(opts.Review, "")
		g.P(review(resolved))
	}
	return nil
}

// review renders the Markdown review of every generated service.
func review(resolved []*resolve.Service) string {
	var deps []policyspec.ReviewDependency
	var sources []string
	for _, rs := range resolved {
		svc := rs.IR
		deps = append(deps, rs.Review("gRPC"))
		if !slices.Contains(sources, svc.Source) {
			sources = append(sources, svc.Source)
		}
	}
	title := strings.Join(sources, ", ")
	if len(sources) == 1 {
		title = path.Base(sources[0])
	}
	return strings.TrimRight(policyspec.RenderReview(title, deps, policyspec.ReviewPerOperation), "\n")
}

// diagnostics splits a joined error into diagnostics.
func diagnostics(err error) []diag.Diagnostic {
	if err == nil {
		return nil
	}
	var out []diag.Diagnostic
	var walk func(error)
	walk = func(e error) {
		var d diag.Diagnostic
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		if errors.As(e, &d) {
			out = append(out, d)
			return
		}
		var pd policyspec.Diagnostic
		if errors.As(e, &pd) {
			out = append(out, diag.Diagnostic{
				Location: ir.Location{File: pd.Location.File, Line: pd.Location.Line, Col: pd.Location.Col, Path: pd.Location.Path},
				Rule:     string(pd.Rule), Message: pd.Message, Fix: pd.Fix,
			})
			return
		}
		out = append(out, diag.Diagnostic{Rule: "E-PLUGIN", Message: e.Error()})
	}
	walk(err)
	return out
}

// readPolicy reads the policy file name from its folder, opened as a root,
// within the policy size limit.
func readPolicy(name string) ([]byte, error) {
	root, err := input.OpenRoot(filepath.Dir(name))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return input.Read(root.FS(), filepath.Base(name), input.MaxPolicySize)
}

// reviewPath returns the review= path cleaned, refusing one that would
// write outside protoc's output directory: an absolute path, a ".." that
// climbs out, a backslash or a drive letter (which Windows reads as
// separators or roots), or a control character. Empty stays empty (no
// review).
func reviewPath(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	bad := strings.ContainsAny(p, "\\:") || strings.ContainsFunc(p, func(r rune) bool { return r < ' ' || r == 0x7f })
	clean := path.Clean(p)
	if bad || !fs.ValidPath(clean) || clean == "." {
		return "", fmt.Errorf("review=%q: want a relative path inside the output directory, such as REVIEW.md or docs/REVIEW.md", p)
	}
	return clean, nil
}

// RuleOutputPath is reported for a .proto file whose generated file would
// be written outside protoc's output directory.
const RuleOutputPath = "E-OUTPUT-PATH"

// checkOutputName reports a file whose output name, made from its Go
// import path (go_package or an M parameter) unless paths=source_relative,
// leaves the output directory ("../x_resilient.pb.go") or is absolute.
func checkOutputName(f *protogen.File, list *diag.List) {
	name := f.GeneratedFilenamePrefix + "_resilient.pb.go"
	if fs.ValidPath(name) && !strings.ContainsAny(name, "\\:") {
		return
	}
	list.Errorf(ir.Location{File: f.Desc.Path()}, RuleOutputPath,
		fmt.Sprintf("the generated file %q would be written outside the output directory (Go import path %q)", name, string(f.GoImportPath)),
		"give the file a go_package (or an M parameter) that is an import path such as example.com/pets/v1, or generate with paths=source_relative")
}
