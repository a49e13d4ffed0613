package diff

import (
	"regexp"

	"github.com/resilientgo/resilient/policyspec/diag"

	"github.com/resilientgo/resilient/gen/resolve"
)

// Rule ids; the package documentation describes each.
const (
	RuleResChanged          = "RES-CHANGED"
	RuleResOpAdded          = "RES-OP-ADDED"
	RuleResOpRemoved        = "RES-OP-REMOVED"
	RuleRiskRetryUnsafe     = "RISK-RETRY-NOT-IDEMPOTENT"
	RuleRiskSentOnce        = "RISK-SENT-ONCE"
	RuleRiskTimeoutBelowP99 = "RISK-TIMEOUT-BELOW-P99"
	RuleRiskFallbackRemoved = "RISK-FALLBACK-REMOVED"
	RuleRiskKeyLost         = "RISK-IDEMPOTENCY-KEY-LOST"
	RuleRiskFallbackShared  = "RISK-FALLBACK-SHARED"
	RuleRiskPolicyRefused   = "RISK-POLICY-REFUSED"

	RuleGoRemoved = "GO-REMOVED"
	RuleGoAdded   = "GO-ADDED"
	RuleGoChanged = "GO-CHANGED"
	RuleGoRenamed = "GO-RENAMED"

	RuleWireOpRemoved       = "WIRE-OP-REMOVED"
	RuleWireOpAdded         = "WIRE-OP-ADDED"
	RuleWireOpDeprecated    = "WIRE-OP-DEPRECATED"
	RuleWireParamAdded      = "WIRE-PARAM-ADDED"
	RuleWireParamRemoved    = "WIRE-PARAM-REMOVED"
	RuleWireParamRequired   = "WIRE-PARAM-REQUIRED"
	RuleWireParamStyle      = "WIRE-PARAM-STYLE"
	RuleWireBodyAdded       = "WIRE-BODY-ADDED"
	RuleWireBodyRemoved     = "WIRE-BODY-REMOVED"
	RuleWireBodyRequired    = "WIRE-BODY-REQUIRED"
	RuleWireMediaAdded      = "WIRE-MEDIA-TYPE-ADDED"
	RuleWireMediaRemoved    = "WIRE-MEDIA-TYPE-REMOVED"
	RuleWireResponseAdded   = "WIRE-RESPONSE-ADDED"
	RuleWireResponseRemoved = "WIRE-RESPONSE-REMOVED"
	RuleWireHeaderRemoved   = "WIRE-RESPONSE-HEADER-REMOVED"
	RuleWireTypeChanged     = "WIRE-TYPE-CHANGED"
	RuleWireNullable        = "WIRE-NULLABLE"
	RuleWirePropAdded       = "WIRE-PROPERTY-ADDED"
	RuleWirePropRemoved     = "WIRE-PROPERTY-REMOVED"
	RuleWirePropRequired    = "WIRE-PROPERTY-REQUIRED"
	RuleWireEnumAdded       = "WIRE-ENUM-VALUE-ADDED"
	RuleWireEnumRemoved     = "WIRE-ENUM-VALUE-REMOVED"
	RuleWireSecurity        = "WIRE-SECURITY"
	RuleWireServerAdded     = "WIRE-SERVER-ADDED"
	RuleWireServerRemoved   = "WIRE-SERVER-REMOVED"
	RuleWireConstraint      = "WIRE-CONSTRAINT"
	RuleWireDefault         = "WIRE-DEFAULT"
	RuleWireHeaderAdded     = "WIRE-RESPONSE-HEADER-ADDED"
	RuleWireMediaChanged    = "WIRE-MEDIA-TYPE-CHANGED"
	RuleWireReadOnly        = "WIRE-PROPERTY-READ-ONLY"
	RuleWireDeprecated      = "WIRE-DEPRECATED"
)

// Input is one version of an API as [Compare] reads it.
type Input struct {
	// Name names the version in the report ("openapi.yaml",
	// "git:v1.2.0:api/openapi.yaml").
	Name string
	// Service is the API with the resolved policy of its operations.
	Service *resolve.Service
	// API is the Go API of the client generated from it; nil leaves the
	// Go API section empty.
	API *GoAPI
	// PolicyErrors are the policy errors generation would refuse the
	// version with, but after which its policy resolves (see
	// gen.Snapshot): those of the new version that the old one did not
	// have are reported as risks.
	PolicyErrors []diag.Diagnostic
}

// Compare reports what changed from old to new: the resilience policy of
// each operation, the generated client's Go API, and the wire.
// Operations are matched by HTTP method and path template, the names of
// path parameters aside, or by gRPC full method name.
func Compare(old, new Input) *Report {
	r := &Report{Old: old.Name, New: new.Name}
	pairs := pairOperations(old.Service, new.Service)
	compareResilience(r, old.Service, new.Service, pairs)
	refused(r, old.PolicyErrors, new.PolicyErrors)
	if old.API != nil && new.API != nil {
		compareGoAPI(r, old.API, new.API, pairs)
	}
	compareWire(r, old.Service, new.Service, pairs)
	r.sort()
	return r
}

func (r *Report) add(c Change) { r.Changes = append(r.Changes, c) }

// opPair is an operation of old matched with one of new; either is nil
// when the operation exists in one version only.
type opPair struct {
	name     string
	old, new *resolve.Operation
}

var pathParam = regexp.MustCompile(`\{[^}]*\}`)

// opKey is what matches operations across versions.
func opKey(op *resolve.Operation) string {
	if op.RPC != nil {
		return op.RPC.FullMethod
	}
	return op.Method + " " + pathParam.ReplaceAllString(op.Path, "{}")
}

// opName names an operation in the report.
func opName(op *resolve.Operation) string {
	if op.RPC != nil {
		return op.RPC.FullMethod
	}
	return op.Method + " " + op.Path
}

// pairOperations matches the operations of the two versions, in the new
// version's order, then the removed ones in the old version's: by method
// and path as written first, then by method and path with its
// parameters' names aside (a renamed path parameter), each old operation
// matched once.
func pairOperations(old, new *resolve.Service) []opPair {
	exact := make(map[string]*resolve.Operation, len(old.Operations))
	loose := make(map[string][]*resolve.Operation, len(old.Operations))
	for _, op := range old.Operations {
		exact[opName(op)] = op
		loose[opKey(op)] = append(loose[opKey(op)], op)
	}
	inNew := make(map[string]bool, len(new.Operations))
	for _, op := range new.Operations {
		inNew[opName(op)] = true
	}
	used := make(map[*resolve.Operation]bool, len(old.Operations))
	match := func(op *resolve.Operation) *resolve.Operation {
		if o := exact[opName(op)]; o != nil && !used[o] {
			return o
		}
		for _, o := range loose[opKey(op)] {
			// An old operation the new version still has as written
			// pairs with that one.
			if !used[o] && !inNew[opName(o)] {
				return o
			}
		}
		return nil
	}
	var pairs []opPair
	for _, op := range new.Operations {
		o := match(op)
		if o != nil {
			used[o] = true
		}
		pairs = append(pairs, opPair{name: opName(op), old: o, new: op})
	}
	for _, op := range old.Operations {
		if !used[op] {
			pairs = append(pairs, opPair{name: opName(op), old: op})
		}
	}
	return pairs
}

// refused reports the policy errors of the new version the old one did
// not have (compared without their positions, which move).
func refused(r *Report, old, new []diag.Diagnostic) {
	had := map[string]bool{}
	for _, d := range old {
		had[string(d.Rule)+d.Message] = true
	}
	for _, d := range new {
		if had[string(d.Rule)+d.Message] {
			continue
		}
		r.add(Change{Section: SectionResilience, Rule: RuleRiskPolicyRefused, Class: Risk, Subject: string(d.Rule) + " at " + d.Location.String(),
			Message: "generation refuses the new policy: " + d.Message})
	}
}
