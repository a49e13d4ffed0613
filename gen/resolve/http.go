package resolve

import (
	"fmt"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// HTTP resolves the policy of svc, an HTTP service built by the OpenAPI
// front end, known as the dependency called dependency, from its
// x-resilience layers and the policy file (nil when there is none). A
// policy file entry for an operation may name it by its operationId or by
// its Go name. Problems come back as diagnostics: errors joined in the
// error, warnings in the slice. A policy file entry that names no
// operation of svc is an error, and so is a cached fallback on an
// operation with a security requirement that is not declared shared
// (E-FALLBACK-SHARED).
func HTTP(svc *ir.Service, dependency string, file *policyspec.File) (*Service, []diag.Diagnostic, error) {
	return resolve(svc, dependency, file, httpRules)
}

// httpRules applies what HTTP operations add to the policy rules, and
// names the HTTP method as the basis of an idempotency nobody wrote.
func httpRules(op *ir.Operation, _ []policyspec.Layer, res *policyspec.Operation, list *diag.List) {
	explainIdempotency(res, op.Method)
	sharedFallbackRule(op, res, list)
}

// explainIdempotency gives the default idempotency of res basis, what it
// was taken from ("GET", "idempotency_level"), for the summaries.
func explainIdempotency(res *policyspec.Operation, basis string) {
	if src, ok := res.Sources["idempotent"]; ok && src.Origin == policyspec.OriginDefault {
		src.Basis = basis
		res.Sources["idempotent"] = src
	}
}

// sharedFallbackRule reports a cached fallback on a secured operation that
// is not declared shared. The runtime keys cached answers by everything
// the request it builds carries, but credentials that a transport or a
// proxy adds never pass through it, so two callers could share one entry:
// one would receive the other's answer.
func sharedFallbackRule(op *ir.Operation, res *policyspec.Operation, list *diag.List) {
	f := res.Policy.Fallback
	if !op.Secured || f.Kind != runtime.FallbackCached || f.Shared {
		return
	}
	loc := op.Location
	if src := res.Sources["fallback.kind"]; src.Origin == policyspec.OriginSet && src.Loc.File != "" {
		loc = src.Loc
	}
	list.Errorf(loc, diag.RuleFallbackShared,
		fmt.Sprintf("operation %s (%s %s) has a security requirement and a cached fallback that is not shared: credentials a transport adds are invisible to the client, so one caller could receive another caller's cached answer", op.Name, op.Method, op.Path),
		"declare fallback.shared: true if every caller gets the same answer, or use a static fallback (kind: static with a value)")
}
