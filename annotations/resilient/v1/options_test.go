package resilientv1_test

import (
	"context"
	"testing"

	"github.com/bufbuild/protocompile"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/durationpb"

	resilientv1 "github.com/resilientgo/resilient/annotations/resilient/v1"
)

// TestExtensionNumbers pins the extension numbers: they are wire format
// and must never change.
func TestExtensionNumbers(t *testing.T) {
	tests := []struct {
		ext      protoreflect.ExtensionType
		name     protoreflect.FullName
		number   protoreflect.FieldNumber
		extendee protoreflect.FullName
	}{
		{resilientv1.E_File, "resilient.v1.file", 71630, "google.protobuf.FileOptions"},
		{resilientv1.E_Service, "resilient.v1.service", 71631, "google.protobuf.ServiceOptions"},
		{resilientv1.E_Method, "resilient.v1.method", 71632, "google.protobuf.MethodOptions"},
	}
	for _, tt := range tests {
		d := tt.ext.TypeDescriptor()
		if d.FullName() != tt.name || d.Number() != tt.number || d.ContainingMessage().FullName() != tt.extendee {
			t.Errorf("extension %s = %d on %s, want %s = %d on %s", d.FullName(), d.Number(), d.ContainingMessage().FullName(),
				tt.name, tt.number, tt.extendee)
		}
	}
}

// petsProto uses every option the way a service's .proto does.
const petsProto = `syntax = "proto3";
package pets.v1;
import "resilient/v1/resilient.proto";
option go_package = "example.com/pets/v1;petsv1";
option (resilient.v1.file) = {retry: {max_retries: 2 base: {nanos: 100000000} cap: {seconds: 2}}};

message GetPetRequest { string id = 1; }
message Pet { string name = 1; }

service Pets {
  option (resilient.v1.service) = {
    breaker: {failure_rate: 50 minimum_calls: 20 window: {seconds: 10} open_for: {seconds: 30} half_open_probes: 5}
    bulkhead: {max_concurrent: 32 max_wait: {nanos: 10000000}}
    retry: {budget: 0.1 min_per_second: 10}
    latency: {p50: {nanos: 20000000} p95: {nanos: 90000000} p99: {nanos: 180000000} p999: {nanos: 350000000} rps: 200}
  };
  rpc GetPet(GetPetRequest) returns (Pet) {
    option idempotency_level = NO_SIDE_EFFECTS;
    option (resilient.v1.method) = {
      timeout: {seconds: 1 nanos: 500000000}
      attempt_timeout: {nanos: 400000000}
      retry: {max_retries: 0}
      hedge: {delay: {nanos: 120000000} max_hedges: 1}
      fallback: {kind: FALLBACK_KIND_CACHED ttl: {seconds: 300}}
    };
  }
  rpc CreatePet(Pet) returns (Pet) {
    option (resilient.v1.method) = {idempotency_key: "idempotency-key" idempotent: false};
  }
  rpc DeletePet(GetPetRequest) returns (Pet) {}
}
`

// TestOptionsReadBack compiles petsProto against resilient.proto and reads
// every option back, typed, from the compiled descriptor.
func TestOptionsReadBack(t *testing.T) {
	c := protocompile.Compiler{Resolver: protocompile.WithStandardImports(protocompile.CompositeResolver{
		&protocompile.SourceResolver{Accessor: protocompile.SourceAccessorFromMap(map[string]string{"pets.proto": petsProto})},
		&protocompile.SourceResolver{ImportPaths: []string{"../.."}},
	})}
	files, err := c.Compile(context.Background(), "pets.proto")
	if err != nil {
		t.Fatal(err)
	}
	// Round-trip through the wire form, as protoc hands descriptors to a
	// plugin, and parse with the registered extensions.
	b, err := proto.Marshal(protodesc.ToFileDescriptorProto(files[0]))
	if err != nil {
		t.Fatal(err)
	}
	fdp := new(descriptorpb.FileDescriptorProto)
	if err := (proto.UnmarshalOptions{Resolver: protoregistry.GlobalTypes}).Unmarshal(b, fdp); err != nil {
		t.Fatal(err)
	}
	dur := durationpb.New

	gotFile := proto.GetExtension(fdp.GetOptions(), resilientv1.E_File).(*resilientv1.Policy)
	wantFile := &resilientv1.Policy{Retry: &resilientv1.Retry{MaxRetries: proto.Uint32(2), Base: dur(100e6), Cap: dur(2e9)}}
	if diff := cmp.Diff(wantFile, gotFile, protocmp.Transform()); diff != "" {
		t.Errorf("file option (-want +got):\n%s", diff)
	}

	svc := fdp.GetService()[0]
	gotSvc := proto.GetExtension(svc.GetOptions(), resilientv1.E_Service).(*resilientv1.Policy)
	wantSvc := &resilientv1.Policy{
		Breaker: &resilientv1.Breaker{FailureRate: proto.Float64(50), MinimumCalls: proto.Uint32(20), Window: dur(10e9),
			OpenFor: dur(30e9), HalfOpenProbes: proto.Uint32(5)},
		Bulkhead: &resilientv1.Bulkhead{MaxConcurrent: proto.Uint32(32), MaxWait: dur(10e6)},
		Retry:    &resilientv1.Retry{Budget: proto.Float64(0.1), MinPerSecond: proto.Float64(10)},
		Latency:  &resilientv1.Latency{P50: dur(20e6), P95: dur(90e6), P99: dur(180e6), P999: dur(350e6), Rps: proto.Float64(200)},
	}
	if diff := cmp.Diff(wantSvc, gotSvc, protocmp.Transform()); diff != "" {
		t.Errorf("service option (-want +got):\n%s", diff)
	}

	tests := []struct {
		method string
		want   *resilientv1.MethodPolicy // nil: option absent
	}{
		{"GetPet", &resilientv1.MethodPolicy{
			Timeout: dur(1500e6), AttemptTimeout: dur(400e6),
			Retry:    &resilientv1.Retry{MaxRetries: proto.Uint32(0)},
			Hedge:    &resilientv1.Hedge{Delay: dur(120e6), MaxHedges: proto.Uint32(1)},
			Fallback: &resilientv1.Fallback{Kind: resilientv1.FallbackKind_FALLBACK_KIND_CACHED, Ttl: dur(300e9)},
		}},
		{"CreatePet", &resilientv1.MethodPolicy{IdempotencyKey: proto.String("idempotency-key"), Idempotent: proto.Bool(false)}},
		{"DeletePet", nil},
	}
	for i, tt := range tests {
		m := svc.GetMethod()[i]
		if m.GetName() != tt.method {
			t.Fatalf("method %d is %s, want %s", i, m.GetName(), tt.method)
		}
		if !proto.HasExtension(m.GetOptions(), resilientv1.E_Method) {
			if tt.want != nil {
				t.Errorf("%s: no (resilient.v1.method) option", tt.method)
			}
			continue
		}
		got := proto.GetExtension(m.GetOptions(), resilientv1.E_Method).(*resilientv1.MethodPolicy)
		if diff := cmp.Diff(tt.want, got, protocmp.Transform()); diff != "" {
			t.Errorf("%s option (-want +got):\n%s", tt.method, diff)
		}
	}
	// proto3 optional keeps "set to zero" apart from "unset".
	if got := proto.GetExtension(svc.GetMethod()[0].GetOptions(), resilientv1.E_Method).(*resilientv1.MethodPolicy); got.Retry.MaxRetries == nil || got.Idempotent != nil {
		t.Errorf("GetPet: max_retries set = %v, idempotent set = %v; want true, false", got.Retry.MaxRetries != nil, got.Idempotent != nil)
	}
}
