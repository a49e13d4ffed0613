package resilientv1_test

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	resilientv1 "github.com/resilientgo/resilient/annotations/resilient/v1"
	"github.com/resilientgo/resilient/policyspec"
)

// TestVocabulary: the options spell exactly the policy keys in snake_case;
// Policy has all of them but idempotent, MethodPolicy the operation-level
// ones.
func TestVocabulary(t *testing.T) {
	tests := []struct {
		msg     protoreflect.MessageDescriptor
		missing []string // policy keys deliberately absent
	}{
		// deadlineHeader is HTTP only: gRPC sends grpc-timeout.
		{(&resilientv1.Policy{}).ProtoReflect().Descriptor(), []string{"idempotent", "deadlineHeader"}},
		{(&resilientv1.MethodPolicy{}).ProtoReflect().Descriptor(), []string{"deadlineHeader", "fleet.store", "fleet.prefix",
			"breaker.failureRate", "breaker.minimumCalls", "breaker.window", "breaker.openFor",
			"breaker.halfOpenProbes", "bulkhead.maxConcurrent", "bulkhead.maxWait"}},
	}
	for _, tt := range tests {
		got := map[string]bool{}
		var walk func(prefix string, md protoreflect.MessageDescriptor)
		walk = func(prefix string, md protoreflect.MessageDescriptor) {
			fields := md.Fields()
			for i := range fields.Len() {
				f := fields.Get(i)
				path := prefix + string(f.Name())
				if m := f.Message(); m != nil && m.FullName().Parent() == "resilient.v1" {
					walk(path+".", m)
					continue
				}
				key, ok := policyspec.CamelCase(path)
				if !ok {
					t.Errorf("%s: field %s is not a policy key", md.FullName(), path)
					continue
				}
				got[key] = true
			}
		}
		walk("", tt.msg)
		for _, k := range policyspec.Keys() {
			if !got[k] && !slices.Contains(tt.missing, k) {
				t.Errorf("%s: policy key %q (%s) has no field", tt.msg.FullName(), k, policyspec.SnakeCase(k))
			}
		}
	}
}
