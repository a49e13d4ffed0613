package openapi

import (
	"errors"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/ir"
)

// CheckResult checks value, as encoding/json decodes it (numbers as
// float64, objects as map[string]any), against the schema of op's result:
// the first 2xx response with a body, when that body is JSON. status is
// that response's status, "" when op has no such result (nothing is
// checked); problem says where and why value does not match, "" when it
// does.
func (f *FrontEnd) CheckResult(op *ir.Operation, value any) (status, problem string) {
	schema, status := resultSchema(f.doc.T, op)
	if schema == nil {
		return "", ""
	}
	err := schema.VisitJSON(value)
	if err == nil {
		return status, ""
	}
	why := strings.Join(strings.Fields(err.Error()), " ")
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		why = se.Reason
		if p := se.JSONPointer(); len(p) > 0 {
			why = "at /" + strings.Join(p, "/") + ": " + why
		}
	}
	return status, why
}

// resultSchema returns the schema of op's result, the first 2xx response
// with a body when that body is JSON, and the response's status.
func resultSchema(t *openapi3.T, op *ir.Operation) (*openapi3.Schema, string) {
	r, ct := op.Result()
	if ct == nil || ct.Kind != ir.ContentJSON || t.Paths == nil {
		return nil, ""
	}
	item := t.Paths.Value(op.Path)
	if item == nil {
		return nil, ""
	}
	kop := item.GetOperation(op.Method)
	if kop == nil || kop.Responses == nil {
		return nil, ""
	}
	resp := kop.Responses.Value(r.Status)
	if resp == nil || resp.Value == nil {
		return nil, ""
	}
	mt := resp.Value.Content.Get(ct.MediaType)
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil, ""
	}
	return mt.Schema.Value, r.Status
}
