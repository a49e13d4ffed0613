package gen_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/protocgen"
	"github.com/resilientgo/resilient/gen/protoir/prototest"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// protoHeader starts a .proto file that may use the resilient options.
const protoHeader = "syntax = \"proto3\";\npackage p;\nimport \"resilient/v1/resilient.proto\";\noption go_package = \"example.com/p\";\nmessage M {}\n"

// TestAttemptNeverCutWarned: a declared attempt timeout that never cuts an
// attempt is a W-ATTEMPT-NEVER-CUT warning of both front ends, and the
// client is generated: a gRPC method sent once with attempt_timeout
// 400ms, an OpenAPI POST with attemptTimeout 400ms.
func TestAttemptNeverCutWarned(t *testing.T) {
	src := protoHeader + "service S {\n  rpc A(M) returns (M) {\n    option (resilient.v1.method) = {timeout: {seconds: 2} attempt_timeout: {nanos: 400000000}};\n  }\n}\n"
	req, err := prototest.Request([]string{prototest.AnnotationsDir("gen")}, map[string]string{"x.proto": src}, "", "x.proto")
	if err != nil {
		t.Fatal(err)
	}
	resp, warnings := protocgen.Proto(req, protocgen.ProtoOptions{})
	if resp.GetError() != "" || len(resp.File) == 0 {
		t.Fatalf("Proto = error %q, %d files; want files", resp.GetError(), len(resp.File))
	}
	checkNeverCut(t, "proto", warnings)

	spec := `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /orders:
    post:
      operationId: createOrder
      x-resilience: {timeout: 2s, attemptTimeout: 400ms}
      responses:
        "204": {description: created}
`
	res, err := gen.OpenAPI(fstest.MapFS{"api.yaml": {Data: []byte(spec)}}, "api.yaml", gen.OpenAPIOptions{Package: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	checkNeverCut(t, "OpenAPI", res.Warnings)
}

func checkNeverCut(t *testing.T, front string, warnings []diag.Diagnostic) {
	t.Helper()
	var found []diag.Diagnostic
	for _, w := range warnings {
		if w.Rule == diag.RuleAttemptNeverCut {
			found = append(found, w)
		}
	}
	if len(found) != 1 || found[0].Severity != diag.Warning || !strings.Contains(found[0].Message, "sent once (not idempotent)") {
		t.Errorf("%s warnings = %v, want one W-ATTEMPT-NEVER-CUT for the method sent once", front, warnings)
	}
}
