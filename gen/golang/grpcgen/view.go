package grpcgen

import (
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec"
)

// serviceView is everything the emitters of one service write, decided.
type serviceView struct {
	goName string // Greeter
	names  serviceNames
	// pkg is the Go package's name, the prefix of error messages.
	pkg      string
	fullName string // helloworld.Greeter
	source   string
	doc      string
	dep      *policyspec.Dependency
	// fleet: the policy declares a fleet, and the client has
	// With<Service>Fleet.
	fleet bool
	// serviceConfig: a gRPC service config gives a method a policy
	// layer, named in the layers the policy's doc comment lists.
	serviceConfig bool
	methods       []*methodView
}

// methodView is one method of the client.
type methodView struct {
	goName     string // SayHello
	protoName  string // the rpc name as written
	field      string // opSayHello: the client's *runtime.Operation
	fullMethod string
	kind       ir.StreamKind
	in, out    ir.GoIdent
	doc        string
	deprecated bool
	policy     *policyspec.Operation
}

func newServiceView(rs *resolve.Service, pkg string) *serviceView {
	svc := rs.IR
	v := &serviceView{goName: svc.Name, names: namesOf(svc.Name), pkg: pkg, fullName: svc.FullName, source: svc.Source, doc: svc.Doc, dep: rs.Dependency,
		fleet: rs.Dependency.HasFleet()}
	for _, op := range rs.Operations {
		for _, l := range op.Resilience {
			v.serviceConfig = v.serviceConfig || l.Level == ir.LevelServiceConfig
		}
		v.methods = append(v.methods, &methodView{
			goName:     op.Name,
			protoName:  op.RPC.Name,
			field:      opField(op.Name),
			fullMethod: op.RPC.FullMethod,
			kind:       op.RPC.Kind,
			in:         op.RPC.Input,
			out:        op.RPC.Output,
			doc:        op.RPC.Leading,
			deprecated: op.RPC.Deprecated,
			policy:     op.Policy,
		})
	}
	return v
}

// opField names the client's field holding a method's operation; the
// prefix keeps it clear of Go keywords and of the other fields.
func opField(goName string) string { return "op" + goName }
