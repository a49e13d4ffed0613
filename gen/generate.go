package gen

import (
	"bytes"
	"path"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/resilientgo/resilient/gen/golang"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// Generate generates the Go client of the document the front end fe
// reads, whose file is named spec: the models, the client with its
// policy table, and the resilience review. gen/openapigen runs it on an
// OpenAPI document.
//
// The document is validated beside generation, examples included, so
// that [Generate], [Lint] and [ReviewOf] report the same findings for the
// same input: a warning that only one command showed would surprise
// whoever trusted the others.
//
// The error joins every error diagnostic of every stage that ran, sorted
// by position; the Result then holds only the warnings found, or is nil
// when the document could not be loaded. Bad input gives an error, never
// a panic.
func Generate(fe FrontEnd, spec string, opts OpenAPIOptions) (*Result, error) {
	s, err := prepareFront(fe, spec, opts, true)
	if err != nil {
		return s.failed(err)
	}
	var code []byte
	var files []File
	var emitErr error
	if opts.Split.splits(len(s.svc.Operations), len(s.svc.Types)) {
		files, emitErr = emitSplit(s, opts)
	} else {
		code, emitErr = emit(s, opts)
	}
	if err := s.validated(); err != nil {
		return s.failed(err)
	}
	if emitErr != nil {
		return s.failed(emitErr)
	}
	return &Result{
		Code:       code,
		Files:      files,
		Review:     s.review(opts.ReviewMode),
		Warnings:   s.diags.Warnings(),
		Dependency: s.dependency,
	}, nil
}

// Lint checks the document the front end fe reads, whose file is named
// spec, and its policy without generating code: it loads and fully
// validates the document (examples included), builds the IR, resolves the
// policy of every operation and runs the client emitter's name checks. It
// returns the warnings, and the errors joined as with [Generate].
func Lint(fe FrontEnd, spec string, opts OpenAPIOptions) ([]diag.Diagnostic, error) {
	s, err := prepareFront(fe, spec, opts, true)
	if err != nil {
		return s.diags.Warnings(), err
	}
	// The client's own name checks run too, on a file that is never
	// rendered.
	_, emitErr := s.emitFile("check", "")
	if err := s.validated(); err != nil {
		return s.diags.Warnings(), err
	}
	return s.diags.Warnings(), emitErr
}

// ReviewOf returns the Markdown resilience review of the document the
// front end fe reads, whose file is named spec: one table of the resolved
// policy (see [policyspec.RenderReview]), with the warnings, and the
// errors joined as with [Generate].
func ReviewOf(fe FrontEnd, spec string, opts OpenAPIOptions) (string, []diag.Diagnostic, error) {
	s, err := prepareFront(fe, spec, opts, true)
	if err == nil {
		err = s.validated()
	}
	if err != nil {
		return "", s.diags.Warnings(), err
	}
	return s.review(opts.ReviewMode), s.diags.Warnings(), nil
}

// failed returns the Result of a run that ended with err: the warnings
// found until then.
func (s *state) failed(err error) (*Result, error) {
	return &Result{Warnings: s.diags.Warnings()}, err
}

// state is what the stages of one run produced.
type state struct {
	diags diag.List
	// strict makes the warnings of sloppy input errors (see
	// [diag.Rule.Strict]).
	strict     bool
	svc        *ir.Service
	resolved   *resolve.Service
	dependency string
	// validation delivers the front end's validation, which is computed
	// while the later stages run; nil once collected.
	validation chan validation
	// loaded holds the load's own findings, kept apart from the later
	// stages' in case validation fails.
	loaded diag.List
	// sel, with -include or -exclude, leaves out the errors of the
	// operations and schemas left out (see [selection]); nil without.
	sel *selection
}

// validation is the outcome of [FrontEnd.Validate].
type validation struct {
	warnings []diag.Diagnostic
	err      error
}

// validated waits for the document's validation, adds its findings and
// returns all errors so far, joined.
func (s *state) validated() error {
	if s.validation != nil {
		v := <-s.validation
		s.validation = nil
		if errs := diag.From(v.err); s.sel != nil && errs != nil {
			v.err = s.sel.filter(errs).Err()
		}
		if v.err != nil {
			// The later stages ran on a document that does not validate;
			// their findings would only echo the validator's.
			s.diags = s.loaded
		}
		s.add(v.warnings, v.err)
	}
	return s.diags.Err()
}

// prepareFront runs load, build and policy resolution. With examples,
// the document's examples are also checked against their schemas. The
// returned state is never nil; the error joins all error diagnostics.
func prepareFront(fe FrontEnd, spec string, opts OpenAPIOptions, examples bool) (*state, error) {
	s := &state{strict: opts.Strict}
	file := s.policyFile(opts)
	s.add(serviceConfigsUnread(file), nil)
	loadWarnings, err := fe.Load()
	if s.add(nil, err); s.diags.HasErrors() {
		s.add(loadWarnings, nil)
		return s, s.diags.Err()
	}
	// Validation only reports; it runs beside building and emitting,
	// which only read the document.
	s.validation = make(chan validation, 1)
	go func() {
		w, err := fe.Validate(examples)
		s.validation <- validation{w, err}
	}()
	svc, warnings, err := fe.Build()
	if len(opts.Include) > 0 || len(opts.Exclude) > 0 {
		// From here on, an error of what the selection leaves out is not
		// reported: only the operations kept and what they reach are
		// generated.
		s.sel = newSelection(fe, svc, opts.Include, opts.Exclude)
	}
	// The load's warnings are added once the selection is known, which
	// leaves out those of what it leaves out.
	s.add(loadWarnings, nil)
	s.loaded.Append(s.diags)
	s.add(warnings, err)
	if s.diags.HasErrors() {
		return s, s.validated()
	}
	s.svc = svc
	s.dependency = opts.Dependency
	if s.dependency == "" {
		s.dependency = DependencyName(svc.Title, spec)
	}
	res, warnings, err := resolve.HTTP(svc, s.dependency, file)
	s.add(warnings, err)
	if s.diags.HasErrors() {
		return s, s.validated()
	}
	for _, d := range checkStaticFallbacks(fe, res) {
		s.diags.Add(d)
	}
	if s.diags.HasErrors() {
		return s, s.validated()
	}
	selectOperations(res, opts.Include, opts.Exclude, &s.diags)
	if s.diags.HasErrors() {
		return s, s.validated()
	}
	s.svc = res.IR
	s.resolved = res
	return s, nil
}

// policyFile returns the options' policy file, decoding it when given as
// bytes; nil when there is none.
func (s *state) policyFile(opts OpenAPIOptions) *policyspec.File {
	if opts.Policy != nil || opts.PolicyData == nil {
		return opts.Policy
	}
	name := opts.PolicyName
	if name == "" {
		name = "policy.yaml"
	}
	f, err := policyspec.DecodeFile(name, opts.PolicyData)
	for _, d := range diag.From(err) {
		s.diags.Add(d)
	}
	return f
}

// serviceConfigsUnread warns, once, of the gRPC service configs a policy
// file names (grpcServiceConfigs) in an OpenAPI run, which reads none:
// only proto runs take a layer from them.
func serviceConfigsUnread(file *policyspec.File) []diag.Diagnostic {
	if file == nil || len(file.ServiceConfigs) == 0 {
		return nil
	}
	var list diag.List
	list.Warnf(file.ServiceConfigs[0].Loc, diag.RuleSvcIgnored,
		"grpcServiceConfigs is left out: gRPC service configs are a policy layer of proto runs, and an OpenAPI client takes nothing from them",
		"keep the key for protoc-gen-resilient's runs, or write the timeouts and retries under dependencies")
	return list.Warnings()
}

// add records one stage's warnings and errors; with strict, the warnings
// of sloppy input as errors.
func (s *state) add(warnings []diag.Diagnostic, err error) {
	for _, d := range warnings {
		if s.strict {
			d = d.Strictly()
		}
		if s.sel == nil || s.sel.concerns(d) {
			s.diags.Add(d)
		}
	}
	for _, d := range diag.From(err) {
		if s.sel == nil || s.sel.concerns(d) {
			s.diags.Add(d)
		}
	}
}

// review renders the review table of the resolved service.
func (s *state) review(mode policyspec.ReviewMode) string {
	name := s.svc.Title
	if name == "" {
		name = s.svc.Name
	}
	out := policyspec.RenderReview(name, []policyspec.ReviewDependency{s.resolved.Review("HTTP")}, mode)
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return out
}

// emit writes the Go file of a resolved service: the models and the
// client, emitted into one file and rendered once.
func emit(s *state, opts OpenAPIOptions) ([]byte, error) {
	pkg, source := s.fileNames(opts)
	f, err := s.emitFile(pkg, source)
	if err != nil {
		return nil, err
	}
	return render(f)
}

// fileNames returns the package name and the source line of the
// generated files.
func (s *state) fileNames(opts OpenAPIOptions) (pkg, source string) {
	pkg = opts.Package
	if pkg == "" {
		base := path.Base(s.svc.Source)
		pkg = PackageName(strings.TrimSuffix(base, path.Ext(base)), "client")
	}
	source = opts.Source
	if source == "" {
		source = s.svc.Source
	}
	return pkg, source
}

// render formats a file.
func render(f *jen.File) ([]byte, error) {
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, diag.Diagnostic{Rule: diag.RuleEmit, Message: "generated code does not format: " + oneLine(err.Error()),
			Fix: "report this as a generator bug with the spec that caused it"}
	}
	return buf.Bytes(), nil
}

// emitFile emits the models and the client into a new file.
func (s *state) emitFile(pkg, source string) (*jen.File, error) {
	f := golang.NewFile(pkg, source)
	golang.EmitModels(f, s.svc)
	warnings, err := golang.EmitClient(f, s.resolved, golang.ClientOptions{DependencyName: s.dependency, Package: pkg})
	s.add(warnings, err)
	if err != nil {
		return nil, s.diags.Err()
	}
	return f, nil
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}
