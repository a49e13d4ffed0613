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
	for _, f := range findings {
		diags.Add(d.finding(f))
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

// finding turns one validation failure into a diagnostic.
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
		return diag.Diagnostic{Location: loc, Rule: diag.RuleRefUnresolved, Message: msg, Severity: diag.Error}
	case isWarning(code, err):
		return diag.Diagnostic{Location: loc, Rule: diag.RuleOpenAPIWarning, Message: msg + " [" + code + "]", Severity: diag.Warning}
	}
	return diag.Diagnostic{Location: loc, Rule: diag.RuleOpenAPI, Message: msg + " [" + code + "]", Severity: diag.Error}
}

// isWarning reports findings that do not stop generation: examples and
// defaults that do not match their schema, keywords of another OpenAPI
// version, duplicate required entries, invalid patterns (generated code
// does not use them), and unknown keywords inside schemas, which JSON
// Schema ignores.
func isWarning(code string, err error) bool {
	switch {
	case strings.Contains(code, "example"),
		code == "default-violates-schema",
		strings.Contains(code, "-for-3-1-plus"),
		strings.Contains(code, "-for-3-2-plus"),
		strings.HasPrefix(code, "exclusive-bound-"),
		code == "duplicate-required-field",
		code == "schema-pattern-regex-invalid":
		return true
	case code == "extra-sibling-fields":
		return inSchema(err)
	}
	return false
}

// inSchema reports whether a finding lies inside a schema.
func inSchema(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch w := e.(type) {
		case *openapi3.ComponentValidationError:
			if w.Section == "schema" {
				return true
			}
		case *openapi3.SchemaCombinatorElementValidationError:
			return true
		case *openapi3.ParameterFieldValidationError:
			if w.Field == "schema" {
				return true
			}
		case *openapi3.HeaderFieldValidationError:
			if w.Field == "schema" {
				return true
			}
		}
	}
	return false
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
		return diag.Location{File: o.Key.File, Line: o.Key.Line, Col: o.Key.Column, Path: ptr}
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
