package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen/protoir/prototest"
	"github.com/resilientgo/resilient/internal/testtier"
)

// checkInput writes a .proto file whose service config and policy give
// warnings of several rules and, when broken, an error too, and returns
// its folder.
func checkInput(t *testing.T, broken bool) string {
	t.Helper()
	dir := t.TempDir()
	create := "rpc Create(M) returns (M);"
	if broken {
		create = "rpc Create(M) returns (M) { option (resilient.v1.method) = {retry: {max_retries: 2}}; }"
	}
	files := map[string]string{
		"shop.proto": `syntax = "proto3";
package shop;
import "resilient/v1/resilient.proto";
option go_package = "example.com/shop;shop";
message M {}
service Shop {
  option (resilient.v1.service) = {timeout: {seconds: 4}};
  rpc Get(M) returns (M) { option idempotency_level = NO_SIDE_EFFECTS; }
  ` + create + `
}
`,
		"other.proto": "syntax = \"proto3\";\noption go_package = \"example.com/other;other\";\nmessage N {}\nservice Other { rpc Ping(N) returns (N); }\n",
		"policy.yaml": "grpcServiceConfigs: [shop_grpc_service_config.json]\ndependencies:\n  shop.Shop:\n    timeout: 3s\n",
		"shop_grpc_service_config.json": `{"methodConfig": [{"name": [{"service": "shop.Shop"}, {"service": "shop.Shop", "method": "Gone"}],
  "timeout": "20s", "waitForReady": true,
  "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE", "INTERNAL"]}}]}`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// buildPlugin builds protoc-gen-resilient into a temporary folder.
func buildPlugin(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "protoc-gen-resilient")
	cmd := exec.Command("go", "build", "-o", bin, "../protoc-gen-resilient")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building protoc-gen-resilient: %v\n%s", err, out)
	}
	return bin
}

// pluginReport runs the plugin binary on req, in dir, and returns what it
// reports as check prints it: the response's errors, then its warnings.
func pluginReport(t *testing.T, bin, dir string, req *pluginpb.CodeGeneratorRequest) []string {
	t.Helper()
	in, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.Bytes())
	}
	resp := &pluginpb.CodeGeneratorResponse{}
	if err := proto.Unmarshal(out, resp); err != nil {
		t.Fatal(err)
	}
	var lines []string
	if e := resp.GetError(); e != "" {
		lines = strings.Split(e, "\n")
	}
	return append(lines, strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")...)
}

// runCheck runs resilient-proto check in dir.
func runCheck(t *testing.T, dir string, args ...string) ([]string, int) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"check"}, args...), &stdout, &stderr)
	t.Chdir(wd)
	if stderr.Len() > 0 {
		t.Errorf("check wrote to standard error: %s", stderr.String())
	}
	return strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n"), code
}

// TestCheckReportsWhatGenerateReports: resilient-proto check prints the
// errors and warnings protoc-gen-resilient reports for the same files and
// parameters, the service config's included, one per line, and fails
// when there is an error.
func TestCheckReportsWhatGenerateReports(t *testing.T) {
	bin := buildPlugin(t)
	annotations, err := filepath.Abs(prototest.AnnotationsDir("cmd/resilient-proto"))
	if err != nil {
		t.Fatal(err)
	}
	for _, broken := range []bool{false, true} {
		dir := checkInput(t, broken)
		const param = "paths=source_relative,policy=policy.yaml"
		got, code := runCheck(t, dir, "-I", ".", "-I", annotations, "-opt", param, "shop.proto", "other.proto")
		req, err := prototest.Request([]string{dir, annotations}, nil, param, "shop.proto", "other.proto")
		if err != nil {
			t.Fatal(err)
		}
		want := pluginReport(t, bin, dir, req)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("broken=%v: check and protoc-gen-resilient differ (-plugin +check):\n%s", broken, diff)
		}
		rules := []string{"W-NO-PACKAGE", "W-SHADOWED", "W-SVCCONFIG-CODES", "W-SVCCONFIG-IGNORED", "W-SVCCONFIG-UNSAFE", "W-SVCCONFIG-UNUSED"}
		if broken {
			rules = append([]string{"E-RETRY-UNSAFE"}, rules...)
		}
		var seen []string
		for _, l := range got {
			for _, r := range rules {
				if strings.Contains(l, " "+r+": ") && !slices.Contains(seen, r) {
					seen = append(seen, r)
				}
			}
		}
		slices.Sort(seen)
		slices.Sort(rules)
		if diff := cmp.Diff(rules, seen); diff != "" {
			t.Errorf("broken=%v: rules reported (-want +got):\n%s\n%s", broken, diff, strings.Join(got, "\n"))
		}
		if wantCode := map[bool]int{false: exitOK, true: exitFail}[broken]; code != wantCode {
			t.Errorf("broken=%v: status %d, want %d\n%s", broken, code, wantCode, strings.Join(got, "\n"))
		}
	}
}

// TestCheckWithProtoc: check reports what protoc-gen-resilient reports
// when the real protoc compiles the files (source positions included).
func TestCheckWithProtoc(t *testing.T) {
	testtier.Slow(t)
	protoc := testtier.Tool(t, "protoc", "apt-get install -y protobuf-compiler")
	bin := buildPlugin(t)
	annotations, err := filepath.Abs(prototest.AnnotationsDir("cmd/resilient-proto"))
	if err != nil {
		t.Fatal(err)
	}
	dir := checkInput(t, true)
	const param = "paths=source_relative,policy=policy.yaml"
	got, _ := runCheck(t, dir, "-I", ".", "-I", annotations, "-opt", param, "shop.proto")
	cmd := exec.Command(protoc, "-I", ".", "-I", annotations, "--plugin=protoc-gen-resilient="+bin,
		"--resilient_out="+t.TempDir(), "--resilient_opt="+param, "shop.proto")
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	var want []string
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		want = append(want, strings.TrimPrefix(l, "--resilient_out: "))
	}
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("check and protoc differ (-protoc +check):\n%s", diff)
	}
}
