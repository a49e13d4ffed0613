package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sloppySpec draws a warning from each stage that reports one: the
// loader's validation (an example that violates its schema, a missing
// title, conflicting paths), the front end (a name that collides and is
// renamed, an unknown x-resilience key) and the policy (a timeout on a
// write that is sent once).
const sloppySpec = `openapi: 3.0.3
info: {title: "", version: "1"}
paths:
  /c/{number}:
    get:
      operationId: getByNumber
      parameters: [{name: number, in: path, required: true, schema: {type: integer}}]
      responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Thing"}}}}}
  /c/{id}/x:
    get:
      operationId: get_by_number
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {"200": {description: ok}}
  /c:
    post:
      operationId: createThing
      x-resilience: {timeout: 2s, attemptTimeout: 1s, colour: blue}
      responses: {"201": {description: created}}
components:
  schemas:
    Thing:
      type: object
      properties:
        name: {type: string, example: 42}
`

// TestSameWarningsEverywhere checks that check, review and generate report
// the same findings for one spec: a warning one of them hides would
// surprise whoever trusted it.
func TestSameWarningsEverywhere(t *testing.T) {
	t.Chdir(writeFiles(t, map[string]string{"api.yaml": sloppySpec}))
	findings := func(args ...string) []string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		status := run(args, strings.NewReader(""), &stdout, &stderr)
		if status == 2 {
			t.Fatalf("run(%q) = 2, want a loadable spec; standard error:\n%s", args, stderr.String())
		}
		var lines []string
		for l := range strings.Lines(stderr.String()) {
			if strings.Contains(l, ": W-") || strings.Contains(l, ": E-") {
				lines = append(lines, strings.TrimSpace(l))
			}
		}
		slices.Sort(lines)
		return lines
	}
	check := findings("check", "api.yaml")
	if len(check) < 4 {
		t.Fatalf("check reported %d findings, want at least 4 (the spec is built to draw them):\n%s", len(check), strings.Join(check, "\n"))
	}
	for _, args := range [][]string{
		{"generate", "-o", "client/client.gen.go", "api.yaml"},
		{"review", "api.yaml"},
	} {
		if diff := cmp.Diff(check, findings(args...)); diff != "" {
			t.Errorf("%s reports other findings than check (-check +%s):\n%s", args[0], args[0], diff)
		}
	}
}
