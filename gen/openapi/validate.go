package openapi

import (
	"context"
	"errors"
	"reflect"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// validate runs the loader's validation with every finding collected, and
// turns each finding into a diagnostic. Without examples, examples are not
// checked against their schemas (those findings are only warnings, and the
// costliest part of validating a large spec).
func (d *Document) validate(ctx context.Context, diags *diag.List, examples bool) {
	opts := []openapi3.ValidationOption{openapi3.EnableMultiError()}
	if !examples {
		opts = append(opts, openapi3.DisableExamplesValidation())
	}
	err := d.T.Validate(validateContext(ctx), opts...)
	if err == nil {
		return
	}
	var findings []error
	flatten(err, &findings)
	// A finding inside a component is reported again from every place
	// that refers to it; once at its own line is enough.
	seen := map[diag.Location]map[string]bool{}
	for _, f := range findings {
		dg := d.finding(f)
		at := dg.Location
		at.Path = ""
		key := string(dg.Rule) + " " + dg.Message
		if at.Line > 0 && seen[at][key] {
			continue
		}
		if seen[at] == nil {
			seen[at] = map[string]bool{}
		}
		seen[at][key] = true
		diags.Add(dg)
	}
}

// flatten splits the validator's multi error and joined errors into
// single findings; errors wrapped in context stay whole.
func flatten(err error, out *[]error) {
	if me, ok := err.(openapi3.MultiError); ok {
		for _, e := range me {
			flatten(e, out)
		}
		return
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			flatten(e, out)
		}
		return
	}
	*out = append(*out, err)
}

// finding turns one validation failure into a diagnostic: an error
// (E-OPENAPI) saying why no correct client can exist for the findings
// [fatalFindings] lists, else a warning (W-OPENAPI) with the fix, at
// the same place.
func (d *Document) finding(err error) diag.Diagnostic {
	code := "invalid"
	msg := oneLine(err.Error())
	var coded openapi3.CodedError
	if errors.As(err, &coded) {
		code = coded.Code()
		msg = oneLine(coded.Error())
	}
	ptr := contextPointer(err)
	var dup *openapi3.DuplicateOperationIDError
	if errors.As(err, &dup) {
		if method, path, ok := strings.Cut(dup.Endpoint2, " "); ok {
			ptr = pointer("#/paths", path, strings.ToLower(method))
		}
	}
	loc := d.locate(originOf(err), ptr)
	switch {
	case code == "duplicate-operation-id":
		return diag.Diagnostic{Location: loc, Rule: diag.RuleDupOpID, Message: msg,
			Fix: "give every operation a unique operationId", Severity: diag.Error}
	case code == "unresolved-ref":
		return diag.Diagnostic{Location: loc, Rule: diag.RuleRefUnresolved, Message: msg + ": the client cannot know the type or parameter it names", Severity: diag.Error}
	}
	if why, fatal := fatalFindings[code]; fatal {
		return diag.Diagnostic{Location: loc, Rule: diag.RuleOpenAPI, Message: msg + " [" + code + "]: " + why, Severity: diag.Error}
	}
	return diag.Diagnostic{Location: loc, Rule: diag.RuleOpenAPIWarning, Message: msg + " [" + code + "]",
		Fix: findingFix(code, err), Severity: diag.Warning}
}

// fatalFindings are the validation findings after which no correct
// client can exist, each with the reason. Every other finding of
// kin-openapi (see [openapi3.ValidationErrorCodes]), and any finding
// without a code, leaves a client that sends what the server expects:
// it is a warning.
var fatalFindings = map[string]string{
	"parameter-name-required":    "a parameter without a name cannot be sent",
	"parameter-in-invalid":       "a parameter whose \"in\" is missing or unknown cannot be placed in the request",
	"path-must-start-with-slash": "a path that does not start with \"/\" cannot be joined to the server URL",
}

// findingFix is the fix a warning's finding calls for.
func findingFix(code string, err error) string {
	switch {
	case code == "conflicting-paths":
		return "the client calls each template as written; which operation answers is the server's routing, so give the templates' parameters one name if they are one route"
	case strings.Contains(code, "example"), code == "value-or-external-value-required", code == "value-external-value-mutually-exclusive":
		return "examples change no generated code; make the example match its schema, with value or externalValue, not both"
	case code == "default-violates-schema", code == "default-required":
		return "the client never sends a default; make it match the schema"
	case code == "info-title-required", code == "info-required", code == "info-version-required":
		return "give info a title and a version; the client's names come from the file name meanwhile"
	case strings.Contains(code, "-for-3-1-plus"), strings.Contains(code, "-for-3-2-plus"), code == "exclusive-bound-boolean-before-3-1", code == "boolean-schema-for-3-1-plus":
		return "the keyword belongs to another OpenAPI version; declare that version in the openapi field, or remove the keyword"
	case code == "extra-sibling-fields":
		return "remove the key or move it under an x- extension; the client disregards it"
	case code == "invalid" && strings.Contains(err.Error(), "unsupported 'format'"):
		return "the client treats the value as its type without the format; use a format of the OpenAPI registry, or an x- extension"
	case code == "path-parameters-mismatch":
		return "declare every template variable as a path parameter and use every path parameter in the template"
	case code == "duplicate-parameter":
		return "remove the repeated parameter; the client sends the last one"
	}
	return "correct the document; the client does not depend on it"
}

// contextPointer builds the JSON pointer of a finding from the context
// wrappers around it, as far as they tell.
func contextPointer(err error) string {
	ptr := "#"
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch w := e.(type) {
		case *openapi3.SectionValidationError:
			if w.Section != "paths" && w.Section != "components" {
				ptr = pointer(ptr, w.Section)
			}
		case *openapi3.PathValidationError:
			ptr = pointer(ptr, "paths", w.Path)
		case *openapi3.OperationValidationError:
			ptr = pointer(ptr, strings.ToLower(w.Method))
		case *openapi3.ComponentValidationError:
			ptr = pointer(ptr, "components", componentSection(w.Section), w.Name)
		case *openapi3.WebhookValidationError:
			ptr = pointer(ptr, "webhooks", w.Name)
		}
	}
	if ptr == "#" {
		return ""
	}
	return ptr
}

// componentSection maps the validator's section names to document keys.
func componentSection(s string) string {
	switch s {
	case "schema":
		return "schemas"
	case "parameter":
		return "parameters"
	case "request body":
		return "requestBodies"
	case "response":
		return "responses"
	case "header":
		return "headers"
	case "security scheme":
		return "securitySchemes"
	case "example":
		return "examples"
	case "link":
		return "links"
	case "callback":
		return "callbacks"
	}
	return s
}

var originType = reflect.TypeFor[*openapi3.Origin]()

// originOf returns the innermost origin carried by an error of the chain.
func originOf(err error) *openapi3.Origin {
	var found *openapi3.Origin
	for e := err; e != nil; e = errors.Unwrap(e) {
		v := reflect.ValueOf(e)
		if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			continue
		}
		f := v.Elem().FieldByName("Origin")
		if f.IsValid() && f.Type() == originType && !f.IsNil() {
			found = f.Interface().(*openapi3.Origin)
		}
	}
	return found
}

// locate places a node: at its origin when the loader recorded one, else
// at the deepest node of the entry file that ptr reaches.
func (d *Document) locate(o *openapi3.Origin, ptr string) diag.Location {
	if o != nil && o.Key != nil && o.Key.File != "" {
		return diag.Location{File: o.Key.File, Line: o.Key.Line, Col: d.loaderColumn(o.Key.File, o.Key.Line, o.Key.Column), Path: ptr}
	}
	loc := diag.Location{File: d.entry.display, Path: ptr}
	if d.entry.root == nil {
		return loc
	}
	node, _ := lookup(d.entry.root, d.sourcePointer(ptr))
	loc.Line, loc.Col = node.Line, node.Column
	return loc
}

// sourcePointer maps a pointer into the OpenAPI 3 document to the same
// place in the file as written: Swagger 2.0 keeps components elsewhere.
func (d *Document) sourcePointer(ptr string) string {
	if !d.IsSwagger() {
		return ptr
	}
	for from, to := range map[string]string{
		"#/components/schemas/":    "#/definitions/",
		"#/components/parameters/": "#/parameters/",
		"#/components/responses/":  "#/responses/",
	} {
		if strings.HasPrefix(ptr, from) {
			return to + strings.TrimPrefix(ptr, from)
		}
	}
	return ptr
}
