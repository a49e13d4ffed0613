package gen

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// checkStaticFallbacks checks every static fallback value against the
// schema of its operation's result, the first 2xx response with a JSON
// body, which only the front end fe knows, so that a value the generated
// client could not decode is reported with the spec rather than when the
// client is made.
func checkStaticFallbacks(fe FrontEnd, svc *resolve.Service) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, op := range svc.Operations {
		res := op.Policy
		if res.Policy.Fallback.Kind != runtime.FallbackStatic {
			continue
		}
		// The value as encoding/json gives it to the client: numbers as
		// float64, objects as map[string]any.
		var value any
		text, err := json.Marshal(res.Policy.Fallback.Static)
		if err == nil {
			err = json.Unmarshal(text, &value)
		}
		status, why := "", ""
		if err == nil {
			status, why = fe.CheckResult(op.Operation, value)
		} else {
			status, _ = fe.CheckResult(op.Operation, nil)
			why = strings.Join(strings.Fields(err.Error()), " ")
		}
		if status == "" || why == "" {
			continue
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
