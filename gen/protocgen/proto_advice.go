package protocgen

import (
	"strings"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// protoAdvice gives a diagnostic of a proto run the fix a .proto author
// can apply. Package policyspec words its fixes in the policy
// vocabulary as YAML writes it ("idempotent: true", "kind: cached",
// "attemptTimeout"), which is right for a key written in a policy file
// but not for one written as a (resilient.v1.*) option, nor for a method
// whose idempotency only the .proto file can declare. A diagnostic placed
// in a .proto file gets the option syntax; one placed in the policy file
// keeps the policy file's keys, with the .proto declaration added where
// the fix is to declare the method idempotent or a read. Other
// diagnostics are returned as they are.
func protoAdvice(d diag.Diagnostic) diag.Diagnostic {
	if fix := declarationFix(d); fix != "" {
		d.Fix = fix
	}
	if strings.HasSuffix(d.Location.File, ".proto") {
		d.Fix = optionFix(d)
	}
	return d
}

// declarationFix is the fix of a diagnostic, wherever it is placed, whose
// fix lies in the .proto file: declaring the method idempotent or a read,
// or changing the option that shadows a policy file's key. It is "" for
// the others.
func declarationFix(d diag.Diagnostic) string {
	switch d.Rule {
	case diag.RuleRetryUnsafe:
		key := `(resilient.v1.method).idempotency_key = "idempotency-key"`
		if !strings.HasSuffix(d.Location.File, ".proto") {
			key = "idempotencyKey: idempotency-key in the policy file's entry"
		}
		return "if repeating the method is harmless, write option idempotency_level = IDEMPOTENT; in its rpc; if the server deduplicates by key, " +
			key + "; or remove the retry settings"
	case diag.RuleHedgeUnsafe:
		return "if the method has no side effect, write option idempotency_level = NO_SIDE_EFFECTS; in its rpc; else remove the hedge settings, or retry instead if it is idempotent"
	case diag.RuleFallbackUnsafe:
		return "if the method has no side effect, write option idempotency_level = NO_SIDE_EFFECTS; in its rpc; else remove the fallback, and queue the write for later in the caller"
	case diag.RuleShadowed:
		return "remove it from the policy file, or change the option in the .proto file that sets it"
	}
	return ""
}

// optionFix is the fix of a diagnostic placed in a .proto file, in the
// (resilient.v1.*) options' syntax: d.Fix reworded, or as it is when the
// policy file's wording fits.
func optionFix(d diag.Diagnostic) string {
	switch d.Rule {
	case diag.RuleHedgeDelay:
		if strings.Contains(d.Message, "without a delay") {
			return "set hedge.delay in the option (usually the p95, e.g. delay: {nanos: 120000000}), or latency.p95"
		}
	case diag.RuleFallbackValue:
		return "use kind: FALLBACK_KIND_CACHED: a gRPC client has no static fallback"
	case diag.RuleFallbackKind:
		if strings.HasPrefix(d.Message, "fallback.shared") {
			return "set fallback.kind to FALLBACK_KIND_CACHED in the option, or remove shared"
		}
		return "remove fallback.value: a gRPC client has no static fallback"
	case diag.RuleKeyNotGRPC:
		return strings.Replace(d.Fix, "remove connectTimeout", "remove connect_timeout from the option", 1)
	case diag.RuleRange:
		if strings.Contains(d.Fix, `%" or `) {
			return "write a share in (0, 1], such as 0.1"
		}
	case diag.RuleTimeoutOrder:
		return "lower attempt_timeout, raise timeout, or remove one of them to derive it"
	case diag.RuleDuration:
		return "write a google.protobuf.Duration above zero and at most 168h, such as {seconds: 1 nanos: 500000000}"
	}
	return d.Fix
}

// firstLine returns the first line of s, trimmed.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}
