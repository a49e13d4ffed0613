package gen

import (
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// FrontEnd is one source document as the back-end driver ([Generate],
// [Lint], [ReviewOf]) reads it: a front end loads and validates it in its
// own format, builds the IR, and answers in IR terms the two questions
// that only the document can answer once the IR is built. The driver
// never sees the document itself; the OpenAPI front end is
// openapi.NewFrontEnd, and gen/openapigen puts the two together.
//
// The driver calls Load first; the other methods only after a Load
// without errors, Validate in its own goroutine beside the others.
type FrontEnd interface {
	// Load reads the document, without the format's full validation.
	Load() (warnings []diag.Diagnostic, err error)
	// Validate runs the format's validation of the loaded document,
	// examples included when asked. It only reads the document.
	Validate(examples bool) (warnings []diag.Diagnostic, err error)
	// Build returns the IR of the loaded document, in full even when
	// it also returns errors (nil only when nothing could be built).
	Build() (*ir.Service, []diag.Diagnostic, error)
	// Scope returns whether a diagnostic concerns the client generated
	// from svc when only the operations keep accepts are: a diagnostic
	// placed inside an operation left out, or inside a component no kept
	// operation reaches, does not.
	Scope(svc *ir.Service, keep func(*ir.Operation) bool) func(diag.Diagnostic) bool
	// CheckResult checks value, as encoding/json decodes it (numbers as
	// float64, objects as map[string]any), against the schema of op's
	// result: status names the response checked against, "" when there
	// is none to check; problem says why value does not match, "" when it
	// does.
	CheckResult(op *ir.Operation, value any) (status, problem string)
}
