package resolve

import (
	"fmt"
	"strings"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// RPC resolves the policy of svc, a gRPC service built by the proto
// front end, with the policy file file (nil when there is none). The
// dependency is named by the service's full name; a policy file entry for
// an operation may use the rpc name as written or its Go name. Layers, from
// the widest: built-in defaults, the gRPC service config's entry for the
// method (an [ir.LevelServiceConfig] layer of the operation), the policy
// file's defaults, its dependency entry, its operation entry, the
// (resilient.v1.file) option, the (resilient.v1.service) option, the
// (resilient.v1.method) option.
//
// Beyond the checks of package policyspec, a method that streams requests
// (client or bidi streaming) is never retried nor hedged, and asking for it
// on the method is E-RETRY-STREAM; a fallback on any streaming method is
// E-FALLBACK-STREAM; connectTimeout and deadlineHeader, which mean nothing
// to a gRPC client, are left out, with a W-KEY-NOT-GRPC warning when
// written for the service. An idempotency key names a metadata key, in
// lower case as gRPC sends them. Problems come back as diagnostics:
// errors joined in the error, warnings in the slice. An operation entry
// of the service's policy file entry that names none of its methods is
// E-POLICY-UNUSED; entries of other dependencies are the caller's to
// check against every service of its run (with [policyspec.File.CheckNames]),
// since a proto run has several services.
func RPC(svc *ir.Service, file *policyspec.File) (*Service, []diag.Diagnostic, error) {
	s, warnings, err := resolve(svc, svc.FullName, file, true, rpcRules)
	if s != nil {
		if src := s.Dependency.Sources["deadlineHeader"]; writtenForService(src) {
			var list diag.List
			list.Warnf(src.Loc, diag.RuleKeyNotGRPC,
				"deadlineHeader has no effect on gRPC service "+svc.FullName+": the deadline goes out as grpc-timeout",
				"remove deadlineHeader from the service's policy")
			warnings = append(warnings, list.Warnings()...)
		}
		s.Dependency.DeadlineHeader = ""
		s.Dependency.Sources["deadlineHeader"] = policyspec.Source{Origin: policyspec.OriginDerived, Basis: "gRPC: grpc-timeout"}
	}
	return s, warnings, err
}

// writtenForService reports whether a value was written for this service,
// not inherited from the policy file's defaults.
func writtenForService(src policyspec.Source) bool {
	return src.Origin == policyspec.OriginSet && src.Layer != policyspec.LayerFileDefaults
}

// rpcRules names an RPC's policy by its full method name, its idempotency
// key by the metadata key sent, in lower case, and applies what gRPC
// changes: no static fallback, the streaming rules, no connect timeout.
func rpcRules(op *ir.Operation, layers []policyspec.Layer, res *policyspec.Operation, list *diag.List) {
	if op.RPC == nil {
		return
	}
	res.Policy.Name = op.RPC.FullMethod
	basis := op.RPC.IdempotencyBasis
	if basis == "" {
		basis = "idempotency_level"
	}
	explainIdempotency(res, basis)
	// Metadata keys are lower case; the runtime sends the key as written.
	res.IdempotencyKey = strings.ToLower(res.IdempotencyKey)
	res.Policy.IdempotencyKey = res.IdempotencyKey
	metadataKeyRule(op, res, list)
	staticFallbackRule(op, layers, res, list)
	streamRules(op, layers, res, list)
	connectTimeoutRule(res, list)
}

// metadataKeyRule refuses an idempotency key name that gRPC cannot send:
// every call would fail as an invalid request, not sent. A metadata key
// is made of a-z, 0-9, "-", "_" and "." (upper case is lowered), does not
// start with "grpc-", which gRPC keeps for itself, and does not end with
// "-bin", which marks binary values.
func metadataKeyRule(op *ir.Operation, res *policyspec.Operation, list *diag.List) {
	key := res.IdempotencyKey
	if key == "" {
		return
	}
	bad := strings.HasPrefix(key, "grpc-") || strings.HasSuffix(key, "-bin") ||
		strings.ContainsFunc(key, func(r rune) bool {
			return (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' && r != '_' && r != '.'
		})
	if !bad {
		return
	}
	loc := res.Sources["idempotencyKey"].Loc
	if loc.File == "" {
		loc = op.Location
	}
	list.Errorf(loc, diag.RuleMetadataKey,
		fmt.Sprintf("idempotency key %q of method %s is not a gRPC metadata key: every call would fail as an invalid request, not sent", key, op.RPC.FullMethod),
		`name it with a-z, 0-9, "-", "_" and "." only, not starting "grpc-" nor ending "-bin", such as idempotency-key`)
}

// connectTimeoutRule leaves the connect timeout out of an RPC's policy,
// and reports one written for the service: grpc-go sets connections up as
// the dial options say, for every call on the connection.
func connectTimeoutRule(res *policyspec.Operation, list *diag.List) {
	if src := res.Sources["connectTimeout"]; writtenForService(src) {
		list.Warnf(src.Loc, diag.RuleKeyNotGRPC,
			"connectTimeout has no effect on a gRPC client: grpc-go sets connections up as the dial options say",
			"remove connectTimeout, and dial with grpc.WithConnectParams(grpc.ConnectParams{MinConnectTimeout: ...})")
	}
	res.Policy.ConnectTimeout = 0
	res.Sources["connectTimeout"] = policyspec.Source{Origin: policyspec.OriginDerived, Basis: "gRPC: the dial options"}
}

// staticFallbackRule reports a static fallback on an RPC, which the
// generated client cannot serve, and removes it from the policy.
func staticFallbackRule(op *ir.Operation, layers []policyspec.Layer, res *policyspec.Operation, list *diag.List) {
	if res.Policy.Fallback.Kind != runtime.FallbackStatic {
		return
	}
	for _, l := range layers {
		if k := l.Spec.Fallback.Kind; k.Set && k.Value == runtime.FallbackStatic {
			list.Errorf(k.Loc, diag.RuleFallbackStatic,
				fmt.Sprintf("static fallback not supported on method %s: its value would have to be a %s message", op.RPC.FullMethod, op.RPC.Output.Name),
				"use kind: cached, or set Fallback.Static in the client's policy with the generated With...Policy option")
		}
	}
	res.Policy.Fallback = runtime.FallbackPolicy{}
}

// streamRules applies what streaming changes: no retries or hedges when
// the client streams, no fallback on any stream.
func streamRules(op *ir.Operation, layers []policyspec.Layer, res *policyspec.Operation, list *diag.List) {
	if !op.RPC.IsStreaming() {
		return
	}
	name := op.RPC.FullMethod
	for _, l := range layers {
		s := l.Spec
		// A service config's retry policy on such a method is reported
		// by package svcconfig, as not applied.
		if op.RPC.ClientStreams() && l.Kind != policyspec.LayerServiceConfig {
			if loc, ok := firstSet(where(s.Retry.MaxRetries), where(s.Retry.Base), where(s.Retry.Cap),
				where(s.Hedge.Delay), where(s.Hedge.MaxHedges)); ok {
				list.Errorf(loc, diag.RuleRetryStream,
					fmt.Sprintf("retry policy not supported on %s method %s: a stream of requests cannot be replayed", op.RPC.Kind, name),
					"remove retry and hedge from the method's policy")
			}
		}
		if s.Fallback.Kind.Set || s.Fallback.TTL.Set || s.Fallback.Value.Set {
			loc := s.Fallback.Kind.Loc
			if !s.Fallback.Kind.Set {
				loc = s.Fallback.TTL.Loc
				if !s.Fallback.TTL.Set {
					loc = s.Fallback.Value.Loc
				}
			}
			if l.Kind == policyspec.LayerOperation || l.Kind == policyspec.LayerFileOperation {
				list.Errorf(loc, diag.RuleFallbackStream,
					fmt.Sprintf("fallback not supported on %s method %s: a stream has no single answer to replace", op.RPC.Kind, name),
					"remove fallback from the method's policy")
			}
		}
	}
	p := &res.Policy
	p.Fallback = runtime.FallbackPolicy{}
	if op.RPC.ClientStreams() {
		p.Retry.MaxRetries, p.Retry.Disabled = 0, true
		p.Hedge = runtime.HedgePolicy{}
		res.Sources["retry.maxRetries"] = policyspec.Source{Origin: policyspec.OriginDerived, Basis: op.RPC.Kind.String() + ": never retried"}
	}
}

// written is where a field was written, and whether it was.
type written struct {
	loc diag.Location
	set bool
}

// where returns where f was written.
func where[T any](f policyspec.Field[T]) written { return written{f.Loc, f.Set} }

// firstSet returns the location of the first field that was written.
func firstSet(fields ...written) (diag.Location, bool) {
	for _, f := range fields {
		if f.set {
			return f.loc, true
		}
	}
	return diag.Location{}, false
}
