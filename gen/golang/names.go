package golang

import (
	"maps"
	"slices"
	"strconv"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// ReservedNames returns, sorted, the package-level names a generated
// HTTP client may declare for itself whatever the spec: its type,
// constructor, policy table and options (WithFleet included). A front end
// renames the spec's declarations that would take one.
func ReservedNames() []string {
	return slices.Sorted(maps.Keys(reservedNames(true)))
}

// ReservedMethods returns, sorted, the methods of a generated Client that
// are not operations; no operation may be named like one.
func ReservedMethods() []string {
	return slices.Sorted(maps.Keys(reservedMethods))
}

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

// modelNames returns the package-level names of the models (types and
// enum constants) and of the client's own declarations.
func modelNames(svc *ir.Service, fleet bool) map[string]bool {
	taken := reservedNames(fleet)
	for _, t := range svc.Types {
		taken[t.Name] = true
		if t.Enum != nil {
			for _, e := range t.Enum.Values {
				taken[e.Name] = true
			}
		}
	}
	return taken
}

// nameParams names every operation's Params type with [generatedName].
func nameParams(ops []*opView, used map[string]bool, list *diag.List) {
	for _, op := range ops {
		if op.params != nil {
			op.params.name, op.params.renamed = generatedName(op, "Params", used, list)
		}
	}
}

// generatedName names a type the client declares for operation op:
// op's name and kind (GetPetParams), or, when a model, the client or an
// earlier type has that name, op's name, "Call" and kind (GetPetCallParams),
// numbered if need be, with a warning (W-NAME-RENAMED). It returns the
// name, which used gets, and why it is not the usual one ("" when it is).
func generatedName(op *opView, kind string, used map[string]bool, list *diag.List) (string, string) {
	name := op.name + kind
	if !used[name] {
		used[name] = true
		return name, ""
	}
	base := op.name + "Call" + kind
	renamed := base
	for i := 2; used[renamed]; i++ {
		renamed = base + strconv.Itoa(i)
	}
	used[renamed] = true
	why := "It is not called " + name + ", which a schema or the client's own declarations have."
	list.Warnf(op.src.Location, diag.RuleNameRenamed,
		"the "+kind+" type of operation "+op.name+" is named "+renamed+": a schema or the client's own declarations have "+name,
		"choose another method name for the operation with x-go-name, or another name for the schema")
	return renamed, why
}

// checkNames reports what no rename has resolved: model types named like
// the client's own declarations (E-NAME-RESERVED) and operations named
// like a Client method of its own, left when the front end was not told
// the client's names (see [ReservedNames]).
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
	}
}
