package gen

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/openapi"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// checkStaticFallbacks checks every static fallback value against the
// schema of its operation's result, the first 2xx response with a JSON
// body, so that a value the generated client could not decode is reported
// with the spec rather than when the client is made.
func checkStaticFallbacks(doc *openapi.Document, svc *resolve.Service) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, op := range svc.Operations {
		res := op.Policy
		if res.Policy.Fallback.Kind != runtime.FallbackStatic {
			continue
		}
		schema, status := resultSchema(doc.T, op.Operation)
		if schema == nil {
			continue
		}
		// The value as encoding/json gives it to the client: numbers as
		// float64, objects as map[string]any.
		var value any
		text, err := json.Marshal(res.Policy.Fallback.Static)
		if err == nil {
			err = json.Unmarshal(text, &value)
		}
		if err == nil {
			err = schema.VisitJSON(value)
		}
		if err == nil {
			continue
		}
		why := strings.Join(strings.Fields(err.Error()), " ")
		var se *openapi3.SchemaError
		if errors.As(err, &se) {
			why = se.Reason
			if p := se.JSONPointer(); len(p) > 0 {
				why = "at /" + strings.Join(p, "/") + ": " + why
			}
		}
		loc := res.Sources["fallback.value"].Loc
		out = append(out, diag.Diagnostic{
			Location: diag.Location{File: loc.File, Line: loc.Line, Col: loc.Col, Path: loc.Path},
			Rule:     diag.RuleFallbackValue,
			Message: fmt.Sprintf("operation %s: static fallback %s does not match the schema of its %s response: %s",
				op.Name, shortText(string(text)), status, why),
			Fix:      "write a value that the response schema accepts",
			Severity: diag.Error,
		})
	}
	return out
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

// shortText shows a value from a spec in a message: characters that do not
// print as \uXXXX, and at most 120 of them, followed by "…" when cut.
func shortText(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == 120 {
			b.WriteString("…")
			break
		}
		n++
		if unicode.IsPrint(r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}
