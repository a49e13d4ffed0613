package protoir

import (
	"strings"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/resilientgo/resilient/gen/ir"
)

// The bases of a method's idempotency, as the review shows them.
const (
	// BasisLevel is the basis of an idempotency_level, or of none written
	// and nothing else to go by.
	BasisLevel = "idempotency_level"
	// BasisHTTP prefixes the HTTP method of a google.api.http binding.
	BasisHTTP = "from google.api.http "
	// BasisGet and BasisList are the standard methods of AIP-131 and
	// AIP-132.
	BasisGet  = "from AIP-131"
	BasisList = "from AIP-132"
)

// longRunning is the message a long-running operation returns.
const longRunning = "google.longrunning.Operation"

// idempotency infers a method's idempotency from what its .proto file
// says, most specific first: its idempotency_level; then its
// google.api.http binding (GET is a read, PUT and DELETE are idempotent,
// POST, PATCH and custom are not), as RFC 9110 defines the methods: a PUT
// or DELETE that starts a long-running operation (returns
// google.longrunning.Operation) is idempotent too, since sending it again
// applies nothing twice (the server answers with the operation under way,
// or that the resource is gone), and its basis says "long-running"; then,
// with no binding, the standard methods of Google's API
// conventions, Get<X> (AIP-131) and List<Xs> (AIP-132) with their
// standard request, which are reads. The basis says which applied, for
// the review. The resilience option, a policy layer, overrides all of
// them later.
func idempotency(m *protogen.Method, opts *descriptorpb.MethodOptions) (ir.Idempotency, string) {
	if l := opts.GetIdempotencyLevel(); l != descriptorpb.MethodOptions_IDEMPOTENCY_UNKNOWN {
		return Idempotency(l), BasisLevel
	}
	lro := m.Output.Desc.FullName() == longRunning
	if rule := httpRule(opts); rule != nil {
		verb, idem := httpVerb(rule)
		if idem == ir.Idempotent && lro {
			return ir.Idempotent, BasisHTTP + verb + ", long-running"
		}
		return idem, BasisHTTP + verb
	}
	if m.Desc.IsStreamingClient() || lro {
		return ir.NotIdempotent, BasisLevel
	}
	return standardMethod(m)
}

// standardMethod is the idempotency of a method without an HTTP binding
// by its name and messages: a read when it is a standard Get<X>
// (AIP-131) or List<Xs> (AIP-132) method with its standard request, else
// not idempotent.
func standardMethod(m *protogen.Method) (ir.Idempotency, string) {
	name := string(m.Desc.Name())
	in := m.Input.Desc
	if string(in.Name()) != name+"Request" {
		return ir.NotIdempotent, BasisLevel
	}
	switch {
	case strings.HasPrefix(name, "Get") && len(name) > 3 && isString(in.Fields().ByName("name")):
		return ir.ReadOnly, BasisGet
	case strings.HasPrefix(name, "List") && len(name) > 4 && string(m.Output.Desc.Name()) == name+"Response" &&
		(in.Fields().ByName("page_token") != nil || isString(in.Fields().ByName("parent"))):
		return ir.ReadOnly, BasisList
	}
	return ir.NotIdempotent, BasisLevel
}

// isString reports whether fd is a singular string field.
func isString(fd protoreflect.FieldDescriptor) bool {
	return fd != nil && fd.Kind() == protoreflect.StringKind && fd.Cardinality() != protoreflect.Repeated
}

// httpRule returns the method's google.api.http binding; nil when it has
// none, or its options cannot be read (policyOption reports that).
func httpRule(opts *descriptorpb.MethodOptions) *annotations.HttpRule {
	if opts == nil {
		return nil
	}
	typed, err := typedOptions(opts)
	if err != nil || typed == nil || !proto.HasExtension(typed, annotations.E_Http) {
		return nil
	}
	rule, _ := proto.GetExtension(typed, annotations.E_Http).(*annotations.HttpRule)
	return rule
}

// httpVerb returns the HTTP method of a binding and the idempotency RFC
// 9110 gives it.
func httpVerb(rule *annotations.HttpRule) (string, ir.Idempotency) {
	switch rule.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		return "GET", ir.ReadOnly
	case *annotations.HttpRule_Put:
		return "PUT", ir.Idempotent
	case *annotations.HttpRule_Delete:
		return "DELETE", ir.Idempotent
	case *annotations.HttpRule_Post:
		return "POST", ir.NotIdempotent
	case *annotations.HttpRule_Patch:
		return "PATCH", ir.NotIdempotent
	case *annotations.HttpRule_Custom:
		return "custom " + rule.GetCustom().GetKind(), ir.NotIdempotent
	}
	return "without a method", ir.NotIdempotent
}
