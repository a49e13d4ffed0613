package grpcgen

import (
	"fmt"
	"maps"
	"slices"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// serviceNames are the package-level Go names of one service's generated
// code. The emitters use these fields and the option set made from them
// (see serviceOptions), and [Names] lists them, so that what is checked is
// what is declared.
type serviceNames struct {
	// service is the service's Go name.
	service string
	// Declared by protoc-gen-go-grpc.
	grpcClient, grpcServer, grpcNewClient, grpcServiceDesc string
	// Declared by this package, besides the options' With functions.
	client, constructor, policy, defaultPolicy string
	option, options, optionFunc, apply         string
	// Two of the options, which doc comments name.
	withPolicy, withDependencyName string
}

// namesOf returns the names of the service whose Go name is s.
func namesOf(s string) serviceNames {
	return serviceNames{
		service:            s,
		grpcClient:         s + "Client",
		grpcServer:         s + "Server",
		grpcNewClient:      "New" + s + "Client",
		grpcServiceDesc:    s + "_ServiceDesc",
		client:             "resilient" + s + "Client",
		constructor:        "NewResilient" + s + "Client",
		policy:             s + "Policy",
		defaultPolicy:      "Default" + s + "Policy",
		option:             s + "Option",
		options:            "resilient" + s + "Options",
		optionFunc:         "resilient" + s + "OptionFunc",
		apply:              "apply" + s + "Option",
		withPolicy:         "With" + s + "Policy",
		withDependencyName: "With" + s + "DependencyName",
	}
}

// Names returns the package-level Go names that the generated code of the
// gRPC service whose Go name is s declares in its Go package, each with
// what declares it: the resilient client's own and, since that client
// implements its interface, protoc-gen-go-grpc's. fleet says whether the
// service's policy declares a fleet, which adds With<Service>Fleet.
func Names(s string, fleet bool) map[string]string {
	n := namesOf(s)
	names := map[string]string{
		n.grpcClient:      "the client interface of protoc-gen-go-grpc",
		n.grpcServer:      "the server interface of protoc-gen-go-grpc",
		n.grpcNewClient:   "the client constructor of protoc-gen-go-grpc",
		n.grpcServiceDesc: "the service descriptor of protoc-gen-go-grpc",
		n.client:          "the resilient client type",
		n.constructor:     "the resilient client constructor",
		n.policy:          "the resilient client's policy table",
		n.defaultPolicy:   "the resilient client's default policy",
		n.options:         "the resilient client's options",
		n.optionFunc:      "the resilient client's option function type",
	}
	for _, name := range serviceOptions(n, fleet).Names() {
		names[name] = "a resilient client option"
	}
	names[n.option] = "the resilient client's option type"
	return names
}

// policyFields are the fields of a service's policy table besides one per
// method, which no method may be named.
var policyFields = []string{"Dependency"}

// CheckNames reports the Go names that one Go package would declare twice
// (E-NAME-COLLISION): declared, the names protoc-gen-go declares there
// (messages and enums, which may collide among themselves: a nested
// message Foo.Bar and a message Foo_Bar), and those of the generated code
// of services, the package's services with their policy resolved (a
// service whose Dependency is nil, its policy unresolved, is checked as
// one without a fleet); and a method named like a field of the policy
// table's own (E-NAME-RESERVED). Diagnostics name what declares each name
// and point at the later of the two.
func CheckNames(declared []ir.Declaration, services []*resolve.Service) []diag.Diagnostic {
	var list diag.List
	names := map[string]ir.Declaration{}
	declare := func(d ir.Declaration) {
		prev, ok := names[d.Name]
		if !ok {
			names[d.Name] = d
			return
		}
		first, second := prev, d
		if d.Location.Before(prev.Location) {
			first, second = second, first
		}
		list.Errorf(second.Location, diag.RuleNameCollision,
			fmt.Sprintf("%s and %s both map to Go name %s", first.What, second.What, d.Name),
			"rename one of them, or move one into another Go package")
	}
	for _, d := range declared {
		declare(d)
	}
	for _, rs := range services {
		svc := rs.IR
		gn := Names(svc.Name, rs.Dependency != nil && rs.Dependency.HasFleet())
		for _, k := range slices.Sorted(maps.Keys(gn)) {
			declare(ir.Declaration{Name: k, What: gn[k] + " of service " + svc.FullName, Location: svc.Location})
		}
		for _, op := range svc.Operations {
			if slices.Contains(policyFields, op.Name) {
				list.Errorf(op.Location, diag.RuleNameReserved,
					fmt.Sprintf("rpc %s of service %s maps to Go name %s, which the generated %s uses for the dependency-wide policy", op.RPC.Name, svc.FullName, op.Name, namesOf(svc.Name).policy),
					"rename the rpc")
			}
		}
	}
	return list.Sorted()
}
