package svcconfig

import (
	"fmt"
	"strings"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// Applied records which methodConfig each operation took its service
// config layer from, for [Applied.Check].
type Applied struct {
	byOp map[*ir.Operation]applied
}

type applied struct {
	cfg *Config
	mc  *MethodConfig
}

// Apply gives every operation of services the policy of the methodConfig
// that applies to it, as gRPC chooses one: the entry that names the
// method, else the one that names its service alone, else the default
// entry ({}), across all configs. The policy is added to the operation's
// layers at [ir.LevelServiceConfig], below everything the policy file and
// the .proto file say. A name written in two entries, of one config or
// two, is an error (E-SVCCONFIG), as gRPC refuses it. A name that matches
// no method is a W-SVCCONFIG-UNUSED warning when its service is one of
// services, or lies in a proto package of theirs (a typo, or a method
// since removed); names of other packages are for other runs and pass
// without a word. A config none of whose names matches a method is
// reported once.
func Apply(configs []*Config, services []*ir.Service) (*Applied, []diag.Diagnostic, error) {
	var list diag.List
	byName, order := indexNames(configs, &list)
	out := &Applied{byOp: map[*ir.Operation]applied{}}
	for _, svc := range services {
		for _, op := range svc.Operations {
			if op.RPC == nil {
				continue
			}
			t := entryFor(byName, svc.FullName, op.RPC.Name)
			if t == nil {
				continue
			}
			t.used = true
			op.Resilience = append([]ir.PolicyLayer{{Level: ir.LevelServiceConfig, Spec: t.mc.Spec, Location: t.mc.Loc}}, op.Resilience...)
			out.byOp[op] = applied{cfg: t.cfg, mc: t.mc}
		}
	}
	warnUnusedNames(&list, order, services)
	warnUnusedConfigs(&list, configs, order, services)
	return out, list.Warnings(), list.Err()
}

// target is one name of a methodConfig, and whether it matched a method.
type target struct {
	cfg  *Config
	mc   *MethodConfig
	name Name
	used bool
}

// indexNames maps the names of the configs' methodConfigs, written as
// [Name.String] writes them, to their entries, and lists them in the order
// written. A name written twice is an error added to list; its second
// entry is left out.
func indexNames(configs []*Config, list *diag.List) (map[string]*target, []*target) {
	byName := map[string]*target{}
	var order []*target
	for _, cfg := range configs {
		for _, mc := range cfg.Methods {
			for _, n := range mc.Names {
				key := n.String()
				if prev, dup := byName[key]; dup {
					list.Errorf(n.Loc, diag.RuleSvcConfig,
						fmt.Sprintf("%s is named twice: here and at %s; gRPC refuses a service config that names a method twice", key, prev.name.Loc),
						"keep one of the two entries")
					continue
				}
				t := &target{cfg: cfg, mc: mc, name: n}
				byName[key] = t
				order = append(order, t)
			}
		}
	}
	return byName, order
}

// entryFor is the entry that applies to method of service, as gRPC
// chooses it: the one naming the method, else its service, else the
// default; nil if none does.
func entryFor(byName map[string]*target, service, method string) *target {
	for _, key := range []string{service + "/" + method, service + "/*", "*"} {
		if t := byName[key]; t != nil {
			return t
		}
	}
	return nil
}

// warnUnusedNames adds to list a warning for each name of order that
// matched no method while its service is one of services, or lies in a
// proto package of theirs.
func warnUnusedNames(list *diag.List, order []*target, services []*ir.Service) {
	byFullName := map[string]*ir.Service{}
	packages := map[string]bool{}
	for _, svc := range services {
		byFullName[svc.FullName] = svc
		packages[protoPackage(svc.FullName)] = true
	}
	for _, t := range order {
		if t.used || t.name.Service == "" {
			continue
		}
		svc, known := byFullName[t.name.Service]
		switch {
		case known:
			list.Warnf(t.name.Loc, diag.RuleSvcUnused,
				fmt.Sprintf("the service config names %s, but service %s has no method %s", t.name, svc.FullName, t.name.Method),
				"fix the method's name"+suggestMethod(svc, t.name.Method)+", or remove the name if the method is gone; a method of a mixin API (google.iam.v1.IAMPolicy, google.cloud.location.Locations) is generated from its own .proto file, under its own service name")
		case packages[protoPackage(t.name.Service)]:
			list.Warnf(t.name.Loc, diag.RuleSvcUnused,
				fmt.Sprintf("the service config names service %s, which proto package %s does not define", t.name.Service, protoPackage(t.name.Service)),
				"fix the service's full name, or remove the name if the service is gone")
		}
	}
}

// warnUnusedConfigs adds to list a warning for each config with entries
// none of whose names, in order, matched a method of services.
func warnUnusedConfigs(list *diag.List, configs []*Config, order []*target, services []*ir.Service) {
	if len(services) == 0 {
		return
	}
	usedCfg := map[*Config]bool{}
	for _, t := range order {
		if t.used {
			usedCfg[t.cfg] = true
		}
	}
	for _, cfg := range configs {
		if !usedCfg[cfg] && len(cfg.Methods) > 0 {
			list.Warnf(cfg.Methods[0].Loc, diag.RuleSvcUnused,
				fmt.Sprintf("the service config %s names no method of the services generated (%s)", cfg.Name, serviceNames(services)),
				"pass the service config of the API being generated, or remove it")
		}
	}
}

// Check reports, once the policy is resolved, the retry and hedging
// policies of a service config that operations do not take up
// (W-SVCCONFIG-UNSAFE), once per policy and reason, naming the methods: a
// retry policy on methods that are not idempotent, or whose client
// streams (a stream of requests cannot be replayed); a hedging policy on
// methods that are not reads. The resolution has already kept them off;
// the warning says so.
func (a *Applied) Check(services []*resolve.Service) []diag.Diagnostic {
	if a == nil {
		return nil
	}
	gs := unsafeGroups{byKey: map[string]*unsafeGroup{}}
	for _, svc := range services {
		if svc == nil {
			continue
		}
		for _, op := range svc.Operations {
			if ap, ok := a.byOp[op.Operation]; ok && op.RPC != nil {
				gs.operation(op, ap)
			}
		}
	}
	return gs.warnings()
}

// unsafeGroup is the methods one policy of a service config is not
// applied to, for one reason.
type unsafeGroup struct {
	at      diag.Location
	cfg     string
	policy  string // "retryPolicy" or "hedgingPolicy"
	reason  string // why, for one method and for several
	reasons string
	fix     func(rpcs []string) string
	methods []string // full method names with the reason's detail
	rpcs    []string // the rpcs' names, for the fix
}

// unsafeGroups gathers the methods policies are not applied to, a group
// per policy and reason, in the order first met.
type unsafeGroups struct {
	list  []*unsafeGroup
	byKey map[string]*unsafeGroup
}

// add puts method (rpc in the .proto file) in the group of the policy
// written at at, for reason.
func (gs *unsafeGroups) add(at diag.Location, cfg, policy, reason, reasons string, fix func([]string) string, method, rpc string) {
	key := at.String() + "\x00" + reason
	g, ok := gs.byKey[key]
	if !ok {
		g = &unsafeGroup{at: at, cfg: cfg, policy: policy, reason: reason, reasons: reasons, fix: fix}
		gs.byKey[key] = g
		gs.list = append(gs.list, g)
	}
	g.methods, g.rpcs = append(g.methods, method), append(g.rpcs, rpc)
}

// operation adds op to the groups of the policies of its entry ap that
// it does not take up.
func (gs *unsafeGroups) operation(op *resolve.Operation, ap applied) {
	p := op.Policy.Policy
	basis := op.Policy.Sources["idempotent"].Note()
	if basis == "" {
		basis = op.Policy.Sources["idempotent"].String()
	}
	switch {
	case ap.mc.Retry == nil:
	case op.RPC.ClientStreams():
		gs.add(*ap.mc.Retry, ap.cfg.Name, "retryPolicy", "its client streams requests, which cannot be replayed; it is opened once",
			"their clients stream requests, which cannot be replayed; they are opened once", reopenFix,
			fmt.Sprintf("%s (%s)", op.RPC.FullMethod, op.RPC.Kind), op.RPC.Name)
	case p.Idempotency == runtime.NotIdempotent:
		gs.add(*ap.mc.Retry, ap.cfg.Name, "retryPolicy", "it is not idempotent, and a retried request may repeat its side effect; it is sent once",
			"they are not idempotent, and a retried request may repeat its side effect; they are sent once", declareFix,
			fmt.Sprintf("%s (not idempotent: %s)", op.RPC.FullMethod, basis), op.RPC.Name)
	}
	if ap.mc.Hedge != nil && (p.Idempotency != runtime.ReadOnly || op.RPC.ClientStreams()) {
		gs.add(*ap.mc.Hedge, ap.cfg.Name, "hedgingPolicy", "only reads are sent twice at once", "only reads are sent twice at once", hedgeFix,
			fmt.Sprintf("%s (%s: %s)", op.RPC.FullMethod, p.Idempotency, basis), op.RPC.Name)
	}
}

// warnings is a W-SVCCONFIG-UNSAFE warning per group.
func (gs *unsafeGroups) warnings() []diag.Diagnostic {
	var list diag.List
	for _, g := range gs.list {
		reason := g.reason
		if len(g.methods) > 1 {
			reason = g.reasons
		}
		list.Warnf(g.at, diag.RuleSvcUnsafe,
			fmt.Sprintf("the %s of %s is not applied to %s: %s", g.policy, g.cfg, strings.Join(g.methods, ", "), reason), g.fix(g.rpcs))
	}
	return list.Warnings()
}

// reopenFix is the advice for methods whose client streams, which a
// retry policy is not applied to.
func reopenFix([]string) string {
	return "nothing to change in the .proto file: the caller opens the stream again when it ends with an error it can recover from"
}

// declareFix is the advice for methods a retry policy is not applied
// to: how the .proto file declares that repeating them is safe.
func declareFix(rpcs []string) string {
	return fmt.Sprintf(`if repeating %s is harmless, write option idempotency_level = IDEMPOTENT; in the rpc, or (resilient.v1.method).idempotency_key = "idempotency-key" if the server deduplicates by key`, orList(rpcs))
}

// hedgeFix is the advice for methods a hedging policy is not applied to.
func hedgeFix(rpcs []string) string {
	return fmt.Sprintf("if %s has no side effect, write option idempotency_level = NO_SIDE_EFFECTS; in the rpc", orList(rpcs))
}

// orList joins names as "A", "A or B", "A, B or C".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// suggestMethod is ` (did you mean "X"?)` for the method of svc nearest
// to name, or empty.
func suggestMethod(svc *ir.Service, name string) string {
	var names []string
	for _, op := range svc.Operations {
		if op.RPC != nil {
			names = append(names, op.RPC.Name)
		}
	}
	if s := closest(name, names); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// protoPackage is the proto package of a service's full name.
func protoPackage(fullName string) string {
	if i := strings.LastIndexByte(fullName, '.'); i >= 0 {
		return fullName[:i]
	}
	return ""
}

// serviceNames lists the services' full names, at most three and a
// count.
func serviceNames(services []*ir.Service) string {
	var names []string
	for i, svc := range services {
		if i == 3 {
			names = append(names, fmt.Sprintf("%d more", len(services)-3))
			break
		}
		names = append(names, svc.FullName)
	}
	return strings.Join(names, ", ")
}
