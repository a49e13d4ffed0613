package svcconfig

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// FuzzParse: any input decodes to a config or to diagnostics, never a
// panic; every diagnostic names the file and a rule, and every error is
// placed at a line of the input.
func FuzzParse(f *testing.F) {
	f.Add([]byte(pubsubLike))
	f.Add([]byte(`{"methodConfig": [{"name": [{}], "hedgingPolicy": {"maxAttempts": "3", "hedgingDelay": "0.5s"}}]}`))
	f.Add([]byte(`{"method_config": [{"name": [{"service": "a.B", "method": "C"}], "timeout": "1.000000001s"}]}`))
	f.Add([]byte("{\"methodConfig\": [\n"))
	matches, _ := filepath.Glob("../testdata/googleapis/google/*/v1/*_grpc_service_config.json")
	for _, m := range matches {
		if data, err := os.ReadFile(m); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, warnings, err := Parse("f.json", data)
		ds := append(diag.From(err), warnings...)
		for _, d := range ds {
			if d.Location.File != "f.json" || d.Rule == "" {
				t.Fatalf("diagnostic without file or rule: %#v", d)
			}
		}
		if err != nil && len(diag.From(err)) == 0 {
			t.Fatalf("an error that is no diagnostic: %v", err)
		}
		if cfg == nil {
			if err == nil {
				t.Fatal("no config and no error")
			}
			return
		}
		svc := &ir.Service{Name: "B", FullName: "a.B", Operations: []*ir.Operation{{Name: "C", ID: "C", RPC: &ir.RPC{FullMethod: "/a.B/C", Name: "C"}}}}
		Apply([]*Config{cfg}, []*ir.Service{svc})
	})
}

// BenchmarkParse decodes Pub/Sub's service config, the largest of the
// test data's.
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("../testdata/googleapis/google/pubsub/v1/pubsub_grpc_service_config.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Parse("pubsub_grpc_service_config.json", data); err != nil {
			b.Fatal(err)
		}
	}
}
