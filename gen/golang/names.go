package golang

import (
	"github.com/resilientgo/resilient/gen/diag"
	"github.com/resilientgo/resilient/gen/ir"
)

// reservedNames are the package-level names the client itself declares.
var reservedNames = map[string]bool{
	"Client": true, "NewClient": true, "Option": true, "Policy": true, "DefaultPolicy": true,
	"WithHTTPClient": true, "WithPolicy": true, "WithObserver": true, "WithFallbackStore": true,
	"WithLogger": true, "WithDependencyName": true,
}

// reservedMethods are the Client's own methods and the Policy's own
// fields, which no operation may be named.
var reservedMethods = map[string]bool{"Dependency": true}

// checkNames reports model types named like the client's own
// declarations (E-NAME-RESERVED), operations named like a Client method
// of its own, and Params and Error types that a model type already uses
// (E-NAME-COLLISION).
func checkNames(svc *ir.Service, v *clientView, list *diag.List) {
	types := map[string]bool{}
	for _, t := range svc.Types {
		types[t.Name] = true
		if reservedNames[t.Name] {
			list.Errorf(t.Location, "E-NAME-RESERVED", "schema name "+t.Name+" is used by the generated client",
				"rename the schema, or give it another Go name with x-go-name")
		}
	}
	for i, op := range v.ops {
		loc := svc.Operations[i].Location
		if reservedMethods[op.name] {
			list.Errorf(loc, "E-NAME-RESERVED", "operation name "+op.name+" is a method of the generated Client",
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
				list.Errorf(loc, "E-NAME-COLLISION", "the client's type "+name+" of operation "+op.name+" has the name of a schema",
					"rename the schema or the operation with x-go-name")
			}
		}
	}
}
