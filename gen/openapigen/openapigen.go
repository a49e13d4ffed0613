// Package openapigen runs the OpenAPI pipeline: the OpenAPI front end
// ([openapi.NewFrontEnd]) reads the document and builds the IR, and
// package gen's back-end driver resolves the policy and emits the client.
// cmd/oapi-resilient and the golden tests call it.
//
//	res, err := openapigen.OpenAPI(fsys, "openapi.yaml", gen.OpenAPIOptions{Package: "petstore"})
//	warnings, err := openapigen.Check(fsys, "openapi.yaml", gen.OpenAPIOptions{})   // lint only
//	review, warnings, err := openapigen.Review(fsys, "openapi.yaml", gen.OpenAPIOptions{})
package openapigen

import (
	"io/fs"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/golang"
	"github.com/resilientgo/resilient/gen/openapi"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// OpenAPI generates the Go client of the OpenAPI document spec, read from
// fsys (its $refs may name other files of fsys, nothing else): the
// models, the client with its policy table, and the resilience review
// (see [gen.Generate]). Bad input gives an error, never a panic.
func OpenAPI(fsys fs.FS, spec string, opts gen.OpenAPIOptions) (*gen.Result, error) {
	return gen.Generate(FrontEnd(fsys, spec, opts), spec, opts)
}

// Check lints the OpenAPI document spec and its policy without generating
// code (see [gen.Lint]): it returns the warnings, and the errors joined as
// with [OpenAPI].
func Check(fsys fs.FS, spec string, opts gen.OpenAPIOptions) ([]diag.Diagnostic, error) {
	return gen.Lint(FrontEnd(fsys, spec, opts), spec, opts)
}

// Review returns the Markdown resilience review of the OpenAPI document
// spec (see [gen.ReviewOf]), with the warnings, and the errors joined as
// with [OpenAPI].
func Review(fsys fs.FS, spec string, opts gen.OpenAPIOptions) (string, []diag.Diagnostic, error) {
	return gen.ReviewOf(FrontEnd(fsys, spec, opts), spec, opts)
}

// Snapshot returns what a spec-change diff compares of the OpenAPI
// document spec (see [gen.SnapshotOf]).
func Snapshot(fsys fs.FS, spec string, opts gen.OpenAPIOptions) (*gen.Snapshot, error) {
	return gen.SnapshotOf(FrontEnd(fsys, spec, opts), spec, opts)
}

// FrontEnd returns the OpenAPI front end of the document spec with the
// options of opts that concern it, the Go back end's reserved names
// included.
func FrontEnd(fsys fs.FS, spec string, opts gen.OpenAPIOptions) *openapi.FrontEnd {
	return openapi.NewFrontEnd(fsys, spec, openapi.FrontEndOptions{
		Load: openapi.LoadOptions{Dir: opts.Dir},
		Build: openapi.BuildOptions{Strict: opts.Strict, IgnoreGoNames: opts.IgnoreGoNames,
			Reserved: golang.ReservedNames(), ReservedMethods: golang.ReservedMethods(), DocumentURL: opts.DocumentURL},
	})
}
