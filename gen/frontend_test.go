package gen

import (
	"io/fs"

	"github.com/resilientgo/resilient/gen/golang"
	"github.com/resilientgo/resilient/gen/openapi"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// The tests of this package run the OpenAPI pipeline as gen/openapigen
// puts it together (which they cannot import: it imports gen).

var _ FrontEnd = (*openapi.FrontEnd)(nil)

func openAPIFrontEnd(fsys fs.FS, spec string, opts OpenAPIOptions) FrontEnd {
	return openapi.NewFrontEnd(fsys, spec, openapi.FrontEndOptions{
		Load: openapi.LoadOptions{Dir: opts.Dir},
		Build: openapi.BuildOptions{Strict: opts.Strict, IgnoreGoNames: opts.IgnoreGoNames,
			Reserved: golang.ReservedNames(), ReservedMethods: golang.ReservedMethods(), DocumentURL: opts.DocumentURL},
	})
}

func OpenAPI(fsys fs.FS, spec string, opts OpenAPIOptions) (*Result, error) {
	return Generate(openAPIFrontEnd(fsys, spec, opts), spec, opts)
}

func Check(fsys fs.FS, spec string, opts OpenAPIOptions) ([]diag.Diagnostic, error) {
	return Lint(openAPIFrontEnd(fsys, spec, opts), spec, opts)
}

func Review(fsys fs.FS, spec string, opts OpenAPIOptions) (string, []diag.Diagnostic, error) {
	return ReviewOf(openAPIFrontEnd(fsys, spec, opts), spec, opts)
}
