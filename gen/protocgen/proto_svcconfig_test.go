package protocgen_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/gen/protocgen"
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
			req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": src}, p+",review=REVIEW.md", "x.proto")
			if err != nil {
				t.Fatal(err)
			}
			resp, warnings := protocgen.Proto(req, protocgen.ProtoOptions{ReadFile: read})
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
				"// Get: read-only (idempotency_level), 4 attempts (service config " + name + "); timeout 30s (service config " + name + ")",
				"// Put: idempotent (idempotency_level), 4 attempts (service config " + name + "); timeout 7s; attempt",
				"// List: read-only (idempotency_level), 4 attempts (service config " + name + "); timeout 3s; attempt",
				"// Send: not idempotent (idempotency_level), 1 attempt (not idempotent: never retried); timeout 30s (service config " + name + ").",
			} {
				if !strings.Contains(code, want) {
					t.Errorf("generated code lacks %q:\n%s", want, code)
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
		req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": src}, tt.param, "x.proto")
		if err != nil {
			t.Fatal(err)
		}
		if got := runProto(req, read, nil).GetError(); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: error %q, want %q", tt.param, got, tt.want)
		}
	}
	files["conf/policy.yaml"] = "grpcServiceConfigs: [gone.json]\n"
	req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": src}, "policy=conf/policy.yaml", "x.proto")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := runProto(req, read, nil).GetError(), "conf/policy.yaml:1:22: E-READ: cannot read the service config conf/gone.json"; !strings.HasPrefix(got, want) {
		t.Errorf("error %q, want %q", got, want)
	}
}

// TestProtoAdvice: the fixes of a proto run's diagnostics are written for
// the .proto file (the option to write, or idempotency_level), never in
// the YAML spelling of the policy file, unless the key sits in the
// policy file.
func TestProtoAdvice(t *testing.T) {
	tests := []struct {
		name, src, policy string
		rule              string
		fix               string // a part of the fix
	}{
		{"retry on a method sent once", "service S { rpc A(M) returns (M) { option (resilient.v1.method) = {retry: {max_retries: 2}}; } }\n", "",
			"E-RETRY-UNSAFE", `write option idempotency_level = IDEMPOTENT; in its rpc; if the server deduplicates by key, (resilient.v1.method).idempotency_key = "idempotency-key"`},
		{"retry on a method sent once, from the policy file", "service S { rpc A(M) returns (M); }\n", "dependencies:\n  p.S:\n    operations:\n      A: {retry: {maxRetries: 2}}\n",
			"E-RETRY-UNSAFE", "write option idempotency_level = IDEMPOTENT; in its rpc; if the server deduplicates by key, idempotencyKey: idempotency-key in the policy file's entry"},
		{"hedge on a write", "service S { rpc A(M) returns (M) { option idempotency_level = IDEMPOTENT; option (resilient.v1.method) = {hedge: {max_hedges: 1 delay: {nanos: 100000000}}}; } }\n", "",
			"E-HEDGE-UNSAFE", "write option idempotency_level = NO_SIDE_EFFECTS; in its rpc"},
		{"hedge without a delay", "service S { rpc A(M) returns (M) { option idempotency_level = NO_SIDE_EFFECTS; option (resilient.v1.method) = {hedge: {max_hedges: 1}}; } }\n", "",
			"E-HEDGE-DELAY", "delay: {nanos: 120000000}"},
		{"fallback on a write", "service S { rpc A(M) returns (M) { option (resilient.v1.method) = {fallback: {kind: FALLBACK_KIND_CACHED}}; } }\n", "",
			"E-FALLBACK-UNSAFE", "idempotency_level = NO_SIDE_EFFECTS"},
		{"shared without a cache", "service S { rpc A(M) returns (M) { option idempotency_level = NO_SIDE_EFFECTS; option (resilient.v1.method) = {fallback: {shared: true}}; } }\n", "",
			"E-FALLBACK-KIND", "FALLBACK_KIND_CACHED"},
		{"attempt timeout above the total", "service S { rpc A(M) returns (M) { option idempotency_level = IDEMPOTENT; option (resilient.v1.method) = {timeout: {seconds: 1} attempt_timeout: {seconds: 2}}; } }\n", "",
			"E-TIMEOUT-ORDER", "lower attempt_timeout"},
		{"a zero duration", "service S { rpc A(M) returns (M) { option (resilient.v1.method) = {timeout: {}}; } }\n", "",
			"E-DURATION", "{seconds: 1 nanos: 500000000}"},
		{"a budget out of range", "service S { option (resilient.v1.service) = {retry: {budget: 2}}; rpc A(M) returns (M); }\n", "",
			"E-RANGE", "such as 0.1"},
		{"a connect timeout on a service", "service S { option (resilient.v1.service) = {connect_timeout: {seconds: 1}}; rpc A(M) returns (M); }\n", "",
			"W-KEY-NOT-GRPC", "remove connect_timeout from the option, and dial with"},
		{"a policy file value the option overrides", "service S { option (resilient.v1.service) = {timeout: {seconds: 2}}; rpc A(M) returns (M); }\n", "dependencies:\n  p.S:\n    timeout: 5s\n",
			"W-SHADOWED", "change the option in the .proto file"},
	}
	yamlish := []string{"remove connectTimeout", "idempotent: true", "idempotencyKey: Idempotency-Key", "kind: cached", "kind: static", "attemptTimeout", "spec root", `"120ms"`, `"10%"`, "x-resilience", "specification"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			param := ""
			if tt.policy != "" {
				param = "policy=policy.yaml"
			}
			req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": protoHeader + tt.src}, param, "x.proto")
			if err != nil {
				t.Fatal(err)
			}
			resp, warnings := protocgen.Proto(req, protocgen.ProtoOptions{ReadFile: func(string) ([]byte, error) { return []byte(tt.policy), nil }})
			lines := strings.Split(resp.GetError(), "\n")
			for _, w := range warnings {
				lines = append(lines, w.Error())
			}
			found := false
			for _, l := range lines {
				if strings.Contains(l, tt.rule+":") && strings.Contains(l, tt.fix) {
					found = true
				}
				for _, y := range yamlish {
					if i := strings.Index(l, "; "); i >= 0 && strings.Contains(l[i:], y) && !strings.Contains(l, "policy.yaml:") {
						t.Errorf("%q gives policy-file advice (%q) for the .proto file", l, y)
					}
				}
			}
			if !found {
				t.Errorf("no %s with a fix containing %q in\n%s", tt.rule, tt.fix, strings.Join(lines, "\n"))
			}
		})
	}
}

// TestProtoPolicyForOneOfTwoServices: a policy file entry for one service
// of a run with two is not reported as naming nothing while the other is
// resolved; an entry that names no service of the run still is.
func TestProtoPolicyForOneOfTwoServices(t *testing.T) {
	src := protoHeader + "service S { rpc A(M) returns (M); }\nservice T { rpc B(M) returns (M); }\n"
	req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": src}, "policy=p.yaml,review=r.md", "x.proto")
	if err != nil {
		t.Fatal(err)
	}
	policy := "dependencies:\n  p.S:\n    operations:\n      A: {timeout: 3s}\n  p.T:\n    timeout: 4s\n"
	resp, _ := protocgen.Proto(req, protocgen.ProtoOptions{ReadFile: func(string) ([]byte, error) { return []byte(policy), nil }})
	if resp.GetError() != "" {
		t.Fatalf("a policy for both services of the run: %s", resp.GetError())
	}
	policy += "  p.U: {}\n    \n"
	policy = strings.Replace(policy, "      A: {timeout: 3s}", "      A: {timeout: 3s}\n      Z: {timeout: 3s}", 1)
	resp, _ = protocgen.Proto(req, protocgen.ProtoOptions{ReadFile: func(string) ([]byte, error) { return []byte(policy), nil }})
	got := resp.GetError()
	if strings.Count(got, "E-POLICY-UNUSED") != 2 || !strings.Contains(got, `dependency "p.U"`) || !strings.Contains(got, `operation of p.S "Z"`) {
		t.Errorf("error %q, want E-POLICY-UNUSED for p.U and for p.S's Z, once each", got)
	}
}
