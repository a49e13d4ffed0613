package policyspec

import (
	"testing"
	"time"

	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// TestServiceConfigCapUnderAShorterTimeout: a service config's backoff cap
// that a shorter timeout written above it leaves no room for becomes the
// built-in cap or half that timeout, with the reason as its source; the
// same cap written in the policy file stays an error.
func TestServiceConfigCapUnderAShorterTimeout(t *testing.T) {
	at := diag.Location{File: "s_grpc_service_config.json", Line: 8, Col: 7}
	svc := Layer{Kind: LayerServiceConfig, Spec: Spec{
		Timeout: Given(60*time.Second, at),
		Retry:   RetrySpec{Base: Given(4*time.Second, at), Cap: Given(32*time.Second, at)},
	}}
	file := Layer{Kind: LayerFileOperation, Spec: Spec{Timeout: Given(3*time.Second, diag.Location{File: "policy.yaml", Line: 4})}}
	d, err := ResolveDependency("dep")
	if err != nil {
		t.Fatal(err)
	}
	op, err := d.ResolveOperation("Op", runtime.Idempotent, svc, file)
	if err != nil {
		t.Fatalf("a service config's cap under a policy file's timeout: %v", err)
	}
	if got := op.Policy.Retry; got.Cap != 1500*time.Millisecond || got.Base != 1500*time.Millisecond {
		t.Errorf("base, cap = %v, %v; want 1.5s, 1.5s (half the 3s timeout)", got.Base, got.Cap)
	}
	if src := op.Sources["retry.cap"]; src.Origin != OriginDerived || src.Basis != "the service config's 32s is not below the timeout 3s set by the policy file operation" {
		t.Errorf("retry.cap source = %+v", src)
	}
	op, err = d.ResolveOperation("Op", runtime.Idempotent, svc)
	if err != nil || op.Policy.Retry.Cap != 32*time.Second {
		t.Errorf("under its own timeout the service config's cap stays: %v, %v", op.Policy.Retry.Cap, err)
	}
	own := Layer{Kind: LayerFileOperation, Spec: Spec{Timeout: file.Spec.Timeout, Retry: RetrySpec{Cap: Given(5*time.Second, diag.Location{File: "policy.yaml", Line: 5})}}}
	if _, err := d.ResolveOperation("Op", runtime.Idempotent, own); err == nil {
		t.Error("a policy file cap not below its timeout: no error, want E-RANGE")
	}
}
