package openapi

import (
	"io/fs"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// FrontEndOptions are the options of [NewFrontEnd]: those of [Load] (its
// validation is always deferred) and those of [Build].
type FrontEndOptions struct {
	Load  LoadOptions
	Build BuildOptions
}

// FrontEnd is one OpenAPI document as the generator's back-end driver
// (package gen) asks for it: loaded, validated, built into the IR, and
// asked the two questions after the build that only the document can
// answer, in IR terms. Nothing of kin-openapi crosses it. Load comes
// first; the other methods are called only after a Load without errors.
type FrontEnd struct {
	fsys fs.FS
	name string
	opts FrontEndOptions
	doc  *Document
}

// NewFrontEnd returns the front end of the document name read from fsys
// (its $refs may name other files of fsys, nothing else).
func NewFrontEnd(fsys fs.FS, name string, opts FrontEndOptions) *FrontEnd {
	opts.Load.DeferValidation = true
	return &FrontEnd{fsys: fsys, name: name, opts: opts}
}

// Load reads the document (see [Load]), without validating it.
func (f *FrontEnd) Load() ([]diag.Diagnostic, error) {
	doc, warnings, err := Load(f.fsys, f.name, f.opts.Load)
	f.doc = doc
	return warnings, err
}

// Validate runs kin-openapi's validation of the loaded document (see
// [Document.Validate]). It only reads the document, so it may run beside
// Build and the back end.
func (f *FrontEnd) Validate(examples bool) ([]diag.Diagnostic, error) {
	return f.doc.Validate(examples)
}

// Build returns the IR of the loaded document (see [Build]).
func (f *FrontEnd) Build() (*ir.Service, []diag.Diagnostic, error) {
	return Build(f.doc, f.opts.Build)
}
