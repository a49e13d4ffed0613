package golang

import (
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// reservedNames returns the package-level names the client declares
// whatever the spec's types: its type, constructor, policy table and
// options, WithFleet among them when the policy declares a fleet.
func reservedNames(fleet bool) map[string]bool {
	names := map[string]bool{"Client": true, "NewClient": true, "Policy": true, "DefaultPolicy": true}
	for _, n := range clientOptions(fleet, nil).Names() {
		names[n] = true
	}
	for _, n := range routeNames {
		names[n] = true
	}
	return names
}

// reservedMethods are the Client's own methods and the Policy's own
// fields, which no operation may be named.
var reservedMethods = map[string]bool{"Dependency": true}

// declaredNames returns the package-level names of the models (types and
// enum constants), of the client's own declarations and of the
// operations' Params types and unshared Error types.
func declaredNames(svc *ir.Service, ops []*opView, fleet bool) map[string]bool {
	taken := reservedNames(fleet)
	for _, t := range svc.Types {
		taken[t.Name] = true
		if t.Enum != nil {
			for _, e := range t.Enum.Values {
				taken[e.Name] = true
			}
		}
	}
	for _, op := range ops {
		if op.params != nil {
			taken[op.params.name] = true
		}
		taken[op.name+"Error"] = true
	}
	return taken
}

// checkNames reports model types named like the client's own
// declarations (E-NAME-RESERVED), operations named like a Client method
// of its own, and Params and Error types that a model type already uses
// (E-NAME-COLLISION).
func checkNames(svc *ir.Service, v *clientView, list *diag.List) {
	reservedNames := reservedNames(v.fleet)
	types := map[string]bool{}
	for _, t := range svc.Types {
		types[t.Name] = true
		if reservedNames[t.Name] {
			list.Errorf(t.Location, diag.RuleNameReserved, "schema name "+t.Name+" is used by the generated client",
				"rename the schema, or give it another Go name with x-go-name")
		}
	}
	for _, op := range v.ops {
		loc := op.src.Location
		if reservedMethods[op.name] {
			list.Errorf(loc, diag.RuleNameReserved, "operation name "+op.name+" is a method of the generated Client",
				"give the operation another Go name with x-go-name or another operationId")
		}
		var generated []string
		if op.params != nil {
			generated = append(generated, op.params.name)
		}
		if op.errType != nil {
			generated = append(generated, op.errType.name)
		}
		for _, name := range generated {
			if types[name] || reservedNames[name] {
				list.Errorf(loc, diag.RuleNameCollision, "the client's type "+name+" of operation "+op.name+" has the name of a schema",
					"rename the schema or the operation with x-go-name")
			}
		}
	}
}
