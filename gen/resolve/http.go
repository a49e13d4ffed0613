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
// operation of svc is an error, and so is a cached fallback not declared
// shared on an operation whose credentials the request does not carry
// (E-FALLBACK-SHARED).
func HTTP(svc *ir.Service, dependency string, file *policyspec.File) (*Service, []diag.Diagnostic, error) {
	// What HTTP operations add to the policy rules; the HTTP method is
	// the basis of an idempotency nobody wrote.
	return resolve(svc, dependency, file, false, func(op *ir.Operation, _ []policyspec.Layer, res *policyspec.Operation, list *diag.List) {
		explainIdempotency(res, op.Method)
		sharedFallbackRule(svc, op, res, list)
	})
}

// explainIdempotency gives the default idempotency of res basis, what it
// was taken from ("GET", "idempotency_level"), for the summaries.
func explainIdempotency(res *policyspec.Operation, basis string) {
	if src, ok := res.Sources["idempotent"]; ok && src.Origin == policyspec.OriginDefault {
		src.Basis = basis
		res.Sources["idempotent"] = src
	}
}

// sharedFallbackRule reports a cached fallback, not declared shared, on an
// operation with a security requirement whose credentials the client does
// not send itself. The runtime keys cached answers by everything the
// request carries, the credentials the generated client applies included,
// so an operation whose every alternative is made of schemes sent in the
// request (API keys, HTTP, OAuth 2.0, OpenID Connect) is partitioned by
// credential on its own. A client certificate (mutualTLS), or a scheme
// the document does not define, never passes through the request: two
// callers could share one entry, and one would receive the other's
// answer.
func sharedFallbackRule(svc *ir.Service, op *ir.Operation, res *policyspec.Operation, list *diag.List) {
	f := res.Policy.Fallback
	if !op.Secured || f.Kind != runtime.FallbackCached || f.Shared {
		return
	}
	unseen := unseenCredential(svc, op)
	if unseen == "" {
		return
	}
	loc := op.Location
	if src := res.Sources["fallback.kind"]; src.Origin == policyspec.OriginSet && src.Loc.File != "" {
		loc = src.Loc
	}
	list.Errorf(loc, diag.RuleFallbackShared,
		fmt.Sprintf("operation %s (%s %s) has a cached fallback that is not shared and a security requirement with %s, which the request does not carry: the cache cannot tell callers apart, so one caller could receive another caller's cached answer", op.Name, op.Method, op.Path, unseen),
		"declare fallback.shared: true if every caller gets the same answer, or use a static fallback (kind: static with a value)")
}

// unseenCredential describes the first scheme of op's security
// requirement whose credential does not travel in the request the client
// builds; empty when there is none.
func unseenCredential(svc *ir.Service, op *ir.Operation) string {
	for _, alt := range op.Security {
		for _, use := range alt.Schemes {
			var found *ir.SecurityScheme
			for _, s := range svc.SecuritySchemes {
				if s.Name == use.Scheme {
					found = s
				}
			}
			switch {
			case found == nil:
				return fmt.Sprintf("the undefined scheme %q", use.Scheme)
			case !found.Kind.InRequest():
				return fmt.Sprintf("the %s scheme %q", found.Kind, use.Scheme)
			}
		}
	}
	return ""
}
