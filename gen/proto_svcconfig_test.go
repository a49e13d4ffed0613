package gen_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/protoir/prototest"
)

// TestProtoServiceConfig: service_config= and the policy file's
// grpcServiceConfigs (relative to the policy file's folder) are read as a
// layer below the policy file and the proto options, each value's origin
// naming the file in the policy comment and the review; a file that
// cannot be read, or that does not parse, is an error at its place.
func TestProtoServiceConfig(t *testing.T) {
	src := protoHeader + `service S {
  rpc Get(M) returns (M) { option idempotency_level = NO_SIDE_EFFECTS; }
  rpc Put(M) returns (M) {
    option idempotency_level = IDEMPOTENT;
    option (resilient.v1.method).timeout = {seconds: 7};
  }
  rpc List(M) returns (M) { option idempotency_level = NO_SIDE_EFFECTS; }
  rpc Send(M) returns (M);
}
`
	const cfg = `{"methodConfig": [{
  "name": [{"service": "p.S"}],
  "timeout": "30s",
  "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.2s", "maxBackoff": "5s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}
}]}`
	files := map[string]string{
		"conf/policy.yaml":                "grpcServiceConfigs: [s_grpc_service_config.json]\ndependencies:\n  p.S:\n    operations:\n      List: {timeout: 3s}\n",
		"conf/s_grpc_service_config.json": cfg,
		"top_grpc_service_config.json":    cfg,
		"conf/plain.yaml":                 "dependencies:\n  p.S:\n    operations:\n      List: {timeout: 3s}\n",
		"bad.json":                        "{\"methodConfig\": [\n  {\"name\": [{}], \"timeout\": 5}\n]}",
	}
	read := func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	for _, param := range []string{"service_config=top_grpc_service_config.json", "policy=conf/policy.yaml"} {
		t.Run(param, func(t *testing.T) {
			p := param
			if !strings.HasPrefix(param, "policy=") {
				p += ",policy=conf/plain.yaml"
			}
			req, err := prototest.Request([]string{prototest.AnnotationsDir("gen")}, map[string]string{"x.proto": src}, p+",review=REVIEW.md", "x.proto")
			if err != nil {
				t.Fatal(err)
			}
			resp, warnings := gen.Proto(req, gen.ProtoOptions{ReadFile: read})
			if resp.GetError() != "" || len(warnings) != 1 || warnings[0].Rule != "W-SVCCONFIG-UNSAFE" {
				t.Fatalf("Proto = error %q, warnings %v; want files and the retry policy on Send reported", resp.GetError(), warnings)
			}
			var code, review string
			for _, f := range resp.File {
				if strings.HasSuffix(f.GetName(), ".go") {
					code = f.GetContent()
				} else {
					review = f.GetContent()
				}
			}
			name := "s_grpc_service_config.json"
			if !strings.HasPrefix(param, "policy=") {
				name = "top_grpc_service_config.json"
			}
			for _, want := range []string{
				"// Get: read-only (idempotency_level), 4 attempts (service config " + name + "), timeout 30s (service config " + name + ")",
				"// Put: idempotent (idempotency_level), 4 attempts (service config " + name + "), timeout 7s,",
				"// List: read-only (idempotency_level), 4 attempts (service config " + name + "), timeout 3s,",
				"// Send: not idempotent (idempotency_level), 1 attempt (not idempotent: never retried), timeout 30s (service config " + name + ").",
			} {
				if !strings.Contains(code, want) {
					t.Errorf("generated code lacks %q", want)
				}
			}
			if want := "| p.S/Get (gRPC) | – / ≥"; !strings.Contains(review, want) || !strings.Contains(review, "total 30 s (service config "+name+") | 3 (service config "+name+")") {
				t.Errorf("review does not name the service config as the origin:\n%s", review)
			}
		})
	}

	for _, tt := range []struct{ param, want string }{
		{"service_config=missing.json", "missing.json: E-READ: cannot read the service config missing.json"},
		{"service_config=bad.json", "bad.json:2:18: E-SVCCONFIG: methodConfig[0].timeout is not a duration: it is a number"},
		{"service_config=", `E-PARAMETER: service_config= names no file`},
	} {
		req, err := prototest.Request([]string{prototest.AnnotationsDir("gen")}, map[string]string{"x.proto": src}, tt.param, "x.proto")
		if err != nil {
			t.Fatal(err)
		}
		if got := runProto(req, read, nil).GetError(); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: error %q, want %q", tt.param, got, tt.want)
		}
	}
	files["conf/policy.yaml"] = "grpcServiceConfigs: [gone.json]\n"
	req, err := prototest.Request([]string{prototest.AnnotationsDir("gen")}, map[string]string{"x.proto": src}, "policy=conf/policy.yaml", "x.proto")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := runProto(req, read, nil).GetError(), "conf/policy.yaml:1:22: E-READ: cannot read the service config conf/gone.json"; !strings.HasPrefix(got, want) {
		t.Errorf("error %q, want %q", got, want)
	}
}
