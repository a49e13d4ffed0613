package main

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen/protoir/prototest"
	"github.com/resilientgo/resilient/internal/version"
)

const greeter = "syntax = \"proto3\";\npackage hello;\nimport \"resilient/v1/resilient.proto\";\noption go_package = \"example.com/hello\";\n" +
	"message M {}\nservice Greeter {\n  rpc Hi(M) returns (M) { option idempotency_level = NO_SIDE_EFFECTS; }\n}\n"

// request is the serialized request protoc sends for files, with
// parameter.
func request(t *testing.T, files map[string]string, parameter string) []byte {
	t.Helper()
	names := slices.Sorted(maps.Keys(files))
	req, err := prototest.Request([]string{prototest.AnnotationsDir("cmd/protoc-gen-resilient")}, files, parameter, names...)
	if err != nil {
		t.Fatal(err)
	}
	b, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRun runs the plugin as protoc does, the request on stdin and the
// response on stdout, and checks the status, the response's files and
// error, and what it writes to stderr.
func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  []byte
		status int
		// stdout is the exact text written, for runs that write no
		// response.
		stdout string
		// files and respErr describe the response, for runs that write one.
		files   []string
		respErr string
		// stderr holds substrings of what is written to stderr, in order;
		// nil wants nothing written.
		stderr []string
	}{
		{name: "version", args: []string{"--version"}, status: 0,
			stdout: version.String("protoc-gen-resilient") + "\n"},
		{name: "an argument protoc never passes", args: []string{"--policy=p.yaml"}, status: 1,
			stderr: []string{`protoc-gen-resilient: unknown argument "--policy=p.yaml": protoc and buf pass parameters in the request (--resilient_opt)`}},
		{name: "stdin is not a request", stdin: []byte("not a request\xff"), status: 1,
			stderr: []string{"protoc-gen-resilient: reading the request: "}},
		{name: "a request through stdin and stdout",
			stdin: request(t, map[string]string{"hello.proto": greeter}, "paths=source_relative,review=REVIEW.md"),
			files: []string{"hello_resilient.pb.go", "REVIEW.md"}},
		{name: "module= with review=",
			stdin: request(t, map[string]string{"hello.proto": greeter}, "module=example.com,review=REVIEW.md"),
			files: []string{"hello/hello_resilient.pb.go", "REVIEW.md"}},
		{name: "paths=import with review=",
			stdin: request(t, map[string]string{"hello.proto": greeter}, "paths=import,review=docs/REVIEW.md"),
			files: []string{"example.com/hello/hello_resilient.pb.go", "docs/REVIEW.md"}},
		{name: "a review named for each proto package",
			stdin: request(t, map[string]string{"hello.proto": greeter, "bye.proto": strings.NewReplacer("package hello;", "package bye.v1;", "example.com/hello", "example.com/bye").Replace(greeter)},
				"module=example.com,review=reviews/{package}.md"),
			files: []string{"bye/bye_resilient.pb.go", "hello/hello_resilient.pb.go", "reviews/bye.v1.md", "reviews/hello.md"}},
		{name: "no service, no review",
			stdin: request(t, map[string]string{"m.proto": "syntax = \"proto3\";\npackage m;\noption go_package = \"example.com/m\";\nmessage M {}\n"}, "review=REVIEW.md"),
			files: nil},
		{name: "a bad parameter, in the response",
			stdin:   request(t, map[string]string{"hello.proto": greeter}, "polcy=p.yaml"),
			respErr: `E-PARAMETER: unknown parameter "polcy"; use paths, module, M<file>, policy, service_config or review`},
		{name: "a bad review path, in the response",
			stdin:   request(t, map[string]string{"hello.proto": greeter}, "review=../REVIEW.md"),
			respErr: `E-PARAMETER: review="../REVIEW.md" is not a relative path inside the output directory`},
		{name: "warnings on stderr, and the files",
			stdin:  request(t, map[string]string{"np.proto": strings.Replace(greeter, "package hello;\n", "", 1)}, "paths=source_relative"),
			files:  []string{"np_resilient.pb.go"},
			stderr: []string{"warning: np.proto:5:1: W-NO-PACKAGE: service Greeter has no proto package", "\n"}},
		{name: "errors in the response, warnings still on stderr",
			stdin: request(t, map[string]string{"np.proto": strings.Replace(strings.Replace(greeter, "package hello;\n", "", 1),
				"option idempotency_level = NO_SIDE_EFFECTS;", "option (resilient.v1.method) = {retry: {max_retries: 2}};", 1)}, "paths=source_relative"),
			respErr: "np.proto:6:27: E-RETRY-UNSAFE: ",
			stderr:  []string{"warning: np.proto:5:1: W-NO-PACKAGE: "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := run(tt.args, bytes.NewReader(tt.stdin), &stdout, &stderr); got != tt.status {
				t.Errorf("run = %d, want %d; stderr:\n%s", got, tt.status, stderr.String())
			}
			rest := stderr.String()
			for _, want := range tt.stderr {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("stderr = %q, want %q in it (in order %q)", stderr.String(), want, tt.stderr)
				}
				rest = rest[i+len(want):]
			}
			if tt.stderr == nil && stderr.Len() > 0 {
				t.Errorf("stderr = %q, want nothing", stderr.String())
			}
			if tt.status != 0 || tt.stdout != "" {
				if stdout.String() != tt.stdout {
					t.Errorf("stdout = %q, want %q", stdout.String(), tt.stdout)
				}
				return
			}
			resp := &pluginpb.CodeGeneratorResponse{}
			if err := proto.Unmarshal(stdout.Bytes(), resp); err != nil {
				t.Fatalf("stdout is not a response: %v", err)
			}
			if !strings.Contains(resp.GetError(), tt.respErr) || (tt.respErr == "") != (resp.GetError() == "") {
				t.Errorf("response error = %q, want %q", resp.GetError(), tt.respErr)
			}
			var names []string
			for _, f := range resp.File {
				names = append(names, f.GetName())
			}
			if !slices.Equal(names, tt.files) {
				t.Errorf("response files = %q, want %q", names, tt.files)
			}
		})
	}
}

// TestRunPolicyFromWorkingDirectory: policy= names a file relative to the
// working directory, which the plugin reads itself.
func TestRunPolicyFromWorkingDirectory(t *testing.T) {
	req := request(t, map[string]string{"hello.proto": greeter}, "paths=source_relative,policy=conf/policy.yaml")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "conf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "conf", "policy.yaml"), []byte("dependencies:\n  hello.Greeter:\n    timeout: 7s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	if got := run(nil, bytes.NewReader(req), &stdout, &stderr); got != 0 {
		t.Fatalf("run = %d; stderr:\n%s", got, stderr.String())
	}
	resp := &pluginpb.CodeGeneratorResponse{}
	if err := proto.Unmarshal(stdout.Bytes(), resp); err != nil {
		t.Fatal(err)
	}
	if resp.GetError() != "" || len(resp.File) != 1 {
		t.Fatalf("response: error %q, %d files; want one file", resp.GetError(), len(resp.File))
	}
	if code := resp.File[0].GetContent(); !strings.Contains(code, "Timeout: 7 * time.Second") {
		t.Errorf("the generated policy does not take the policy file's timeout:\n%s", code)
	}
}
