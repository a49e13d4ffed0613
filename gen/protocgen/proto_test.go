package protocgen_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen/protocgen"
	"github.com/resilientgo/resilient/gen/protoir/prototest"
	"github.com/resilientgo/resilient/policyspec/diag"
)

const protoHeader = "syntax = \"proto3\";\npackage p;\nimport \"resilient/v1/resilient.proto\";\noption go_package = \"example.com/p\";\nmessage M {}\n"

func TestProtoBadInput(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // substrings of the error, in order
	}{
		{"missing go_package", "syntax = \"proto3\";\npackage nogo;\nservice S { rpc A(M) returns (M); }\nmessage M {}\n",
			[]string{"x.proto: E-GO-PACKAGE: unable to determine Go import path for \"x.proto\"", `(proto package "nogo")`}},
		{"retry on a method that is not idempotent", protoHeader + "service S { rpc A(M) returns (M) { option (resilient.v1.method) = {retry: {max_retries: 2}}; } }\n",
			[]string{"x.proto:6:", "E-RETRY-UNSAFE", "p.S.A.(resilient.v1.method)"}},
		{"negative duration", protoHeader + "service S { rpc A(M) returns (M) { option (resilient.v1.method) = {timeout: {seconds: -5}}; } }\n",
			[]string{"E-DURATION", `timeout "-5s"`, "p.S.A.(resilient.v1.method).timeout"}},
		{"static fallback on an RPC", protoHeader + "service S { rpc A(M) returns (M) { option idempotency_level = NO_SIDE_EFFECTS; option (resilient.v1.method) = {fallback: {kind: FALLBACK_KIND_STATIC, value: \"{}\"}}; } }\n",
			[]string{"x.proto:6:", "E-FALLBACK-STATIC: static fallback not supported on method /p.S/A: its value would have to be a M message"}},
		{"retry on a bidi stream", protoHeader + "service S { rpc A(stream M) returns (stream M) { option idempotency_level = IDEMPOTENT; option (resilient.v1.method) = {retry: {max_retries: 1}}; } }\n",
			[]string{"E-RETRY-STREAM: retry policy not supported on bidi-streaming method /p.S/A"}},
		{"rpc names that map to one Go name", protoHeader + "service S { rpc get_foo(M) returns (M); rpc GetFoo(M) returns (M); }\n",
			[]string{"E-NAME-COLLISION: rpcs get_foo and GetFoo of service p.S both map to Go method GetFoo"}},
		{"message named like the client interface", protoHeader + "message SClient {}\nservice S { rpc A(M) returns (M); }\n",
			[]string{"E-NAME-COLLISION: message p.SClient and the client interface of protoc-gen-go-grpc of service p.S both map to Go name SClient"}},
		{"message named like an option of the resilient client", protoHeader + "message WithSFallbackPartition {}\nservice S { rpc A(M) returns (M); }\n",
			[]string{"E-NAME-COLLISION: message p.WithSFallbackPartition and a resilient client option of service p.S both map to Go name WithSFallbackPartition"}},
		{"a message named like the fleet option of a client with a fleet", protoHeader + "message WithSFleet {}\nservice S { option (resilient.v1.service) = {fleet: {store: \"cache\"}}; rpc A(M) returns (M); }\n",
			[]string{"E-NAME-COLLISION: message p.WithSFleet and a resilient client option of service p.S both map to Go name WithSFleet"}},
		{"an address as the fleet's store", protoHeader + "service S {\n  option (resilient.v1.service) = {fleet: {store: \"redis://:secret@cache:6379\"}};\n  rpc A(M) returns (M);\n}\n",
			[]string{`x.proto:7:3: E-FLEET-NAME: fleet.store "redis://:secret@cache:6379" looks like an address; the policy only names the store (p.S.(resilient.v1.service).fleet.store)`}},
		{"rpc named like the policy table's own field", protoHeader + "service S { rpc Dependency(M) returns (M); }\n",
			[]string{"x.proto:6:13: E-NAME-RESERVED: rpc Dependency of service p.S maps to Go name Dependency, which the generated SPolicy uses for the dependency-wide policy"}},
		{"nested message and its flattened twin", protoHeader + "message Foo { message Bar {} }\nmessage Foo_Bar {}\nservice S { rpc A(M) returns (M); }\n",
			[]string{"E-NAME-COLLISION: message p.Foo.Bar and message p.Foo_Bar both map to Go name Foo_Bar"}},
		{"a problem at the option's own line, in the author's spelling",
			protoHeader + "service S {\n  rpc A(M) returns (M) {\n    option idempotency_level = IDEMPOTENT;\n    option (resilient.v1.method).attempt_timeout = {seconds: -1};\n  }\n}\n",
			[]string{`x.proto:9:5: E-DURATION: attempt_timeout "-1s" must be a positive Go duration (it is negative) (p.S.A.(resilient.v1.method).attempt_timeout)`}},
		{"a duration whose seconds and nanos disagree",
			protoHeader + "service S {\n  rpc A(M) returns (M) {\n    option (resilient.v1.method) = {timeout: {seconds: 1 nanos: -5}};\n  }\n}\n",
			[]string{"x.proto:8:5: E-OPTION: timeout is not a duration: its seconds and nanos have different signs"}},
		{"all problems together, sorted", protoHeader + "service S { rpc A(M) returns (M) { option (resilient.v1.method) = {retry: {max_retries: 2}}; } rpc B(M) returns (M) { option (resilient.v1.method) = {attempt_timeout: {seconds: -1}}; } }\n",
			[]string{"E-RETRY-UNSAFE", "\n", "E-DURATION"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": tt.src}, "", "x.proto")
			if err != nil {
				t.Fatal(err)
			}
			resp := runProto(req, nil, nil)
			got := resp.GetError()
			rest := got
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("Run error = %q, want it to contain %q (in order %q)", got, w, tt.want)
				}
				rest = rest[i+len(w):]
			}
			if len(resp.File) != 0 {
				t.Errorf("Run wrote %d files despite the error", len(resp.File))
			}
		})
	}
}

func TestProtoEdition2024(t *testing.T) {
	// protocompile v0.14.1 cannot parse edition 2024; build the request
	// from an edition 2023 file and raise its edition.
	req, err := prototest.Request(nil, map[string]string{"e.proto": "edition = \"2023\";\npackage e;\noption go_package = \"example.com/e\";\nmessage M {}\nservice S { rpc A(M) returns (M); }\n"}, "", "e.proto")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range req.ProtoFile {
		if f.GetName() == "e.proto" {
			f.Edition = editionPtr(int32(descriptorpb.Edition_EDITION_2024))
		}
	}
	got := runProto(req, nil, nil).GetError()
	if !strings.Contains(got, "E-EDITION-UNSUPPORTED: edition 2024 of e.proto is not supported (supported: proto2, proto3, 2023)") {
		t.Errorf("Run error = %q, want E-EDITION-UNSUPPORTED", got)
	}
}

// TestProtoRequestErrors: what protogen refuses before generation comes
// back as one diagnostic of the rule that says why.
func TestProtoRequestErrors(t *testing.T) {
	const src = "syntax = \"proto3\";\npackage u;\noption go_package = \"example.com/u\";\n"
	tests := []struct {
		param, src, want string
	}{
		{"polcy=x.yaml", src, `E-PARAMETER: unknown parameter "polcy"; use paths, module, M<file>, policy, service_config or review`},
		{"paths=bogus", src, `E-PARAMETER: unknown path type "bogus": want "import" or "source_relative"; pass parameters as`},
		{"paths=source_relative,module=example.com", src, "E-PARAMETER: cannot use module= with paths=source_relative; "},
		{"", "syntax = \"proto3\";\npackage u;\noption go_package = \"u\";\n", `u.proto: E-GO-PACKAGE: invalid Go import path "u" for "u.proto" (proto package "u"); give the file`},
	}
	for _, tt := range tests {
		req, err := prototest.Request(nil, map[string]string{"u.proto": tt.src}, tt.param, "u.proto")
		if err != nil {
			t.Fatal(err)
		}
		if got := runProto(req, nil, nil).GetError(); !strings.HasPrefix(got, tt.want) || strings.Contains(got, "\n") {
			t.Errorf("%s: error = %q, want one line starting %q", tt.param, got, tt.want)
		}
	}
}

func editionPtr(n int32) *descriptorpb.Edition { e := descriptorpb.Edition(n); return &e }

// TestProtoWarnings: warnings are written, one per line, and the files are
// still generated; with an error as well, the warnings are still written.
func TestProtoWarnings(t *testing.T) {
	const noPackage = "syntax = \"proto3\";\nimport \"resilient/v1/resilient.proto\";\noption go_package = \"example.com/np\";\nmessage M {}\n"
	for _, tt := range []struct {
		name, src string
		wantErr   string
	}{
		{"warning only", noPackage + "service S { rpc A(M) returns (M); }\n", ""},
		{"warning and error", noPackage + "service S { rpc A(M) returns (M) { option (resilient.v1.method) = {retry: {max_retries: 2}}; } }\n", "E-RETRY-UNSAFE"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"np.proto": tt.src}, "", "np.proto")
			if err != nil {
				t.Fatal(err)
			}
			var warn strings.Builder
			resp := runProto(req, nil, &warn)
			want := "warning: np.proto:5:1: W-NO-PACKAGE: service S has no proto package"
			if !strings.HasPrefix(warn.String(), want) || strings.Count(warn.String(), "\n") != 1 {
				t.Errorf("warnings = %q, want one line starting %q", warn.String(), want)
			}
			if tt.wantErr == "" && (resp.GetError() != "" || len(resp.File) == 0) {
				t.Errorf("Run = error %q, %d files; want files and no error", resp.GetError(), len(resp.File))
			}
			if tt.wantErr != "" && !strings.Contains(resp.GetError(), tt.wantErr) {
				t.Errorf("Run error = %q, want %s", resp.GetError(), tt.wantErr)
			}
		})
	}
}

// TestProtoPolicyFileConfined: the plugin reads its policy file only when it
// is a regular file in its own folder, never what a link leads to.
func TestProtoPolicyFileConfined(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"outside", "conf"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "outside", "secret.yaml"), []byte("hunter2: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"zero.yaml": "/dev/zero", "secret.yaml": "../outside/secret.yaml"} {
		if err := os.Symlink(target, filepath.Join(dir, "conf", name)); err != nil {
			t.Fatal(err)
		}
	}
	src := protoHeader + "service S { rpc A(M) returns (M); }\n"
	for _, tt := range []struct{ policy, want string }{
		{filepath.Join(dir, "conf", "zero.yaml"), filepath.Join(dir, "conf", "zero.yaml") + ": E-READ: cannot read the policy file: it is a symbolic link that leads outside its folder; name a regular file"},
		{filepath.Join(dir, "conf", "secret.yaml"), filepath.Join(dir, "conf", "secret.yaml") + ": E-READ: cannot read the policy file: it is a symbolic link that leads outside its folder; name a regular file"},
		{filepath.Join(dir, "outside"), filepath.Join(dir, "outside") + ": E-READ: cannot read the policy file: it is a directory, not a regular file; name a regular file"},
	} {
		req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": src}, "policy="+tt.policy, "x.proto")
		if err != nil {
			t.Fatal(err)
		}
		if got := runProto(req, nil, nil).GetError(); !strings.HasPrefix(got, tt.want) {
			t.Errorf("policy=%s: Run error = %q, want %q", tt.policy, got, tt.want)
		}
	}
}

// TestProtoReviewPath: review= names a file inside protoc's output tree,
// never outside it.
func TestProtoReviewPath(t *testing.T) {
	src := protoHeader + "service S { rpc A(M) returns (M); }\n"
	for _, tt := range []struct{ review, file, err string }{
		{"REVIEW.md", "REVIEW.md", ""},
		{"docs/./REVIEW.md", "docs/REVIEW.md", ""},
		{"docs/../REVIEW.md", "REVIEW.md", ""},
		{"../../x.md", "", `E-PARAMETER: review="../../x.md" is not a relative path inside the output directory; name a file such as REVIEW.md or docs/REVIEW.md`},
		{"docs/../../x.md", "", `E-PARAMETER: review="docs/../../x.md" is not a relative path`},
		{"/etc/x.md", "", `E-PARAMETER: review="/etc/x.md" is not a relative path`},
		{`C:\x.md`, "", `E-PARAMETER: review="C:\\x.md" is not a relative path`},
		{`..\x.md`, "", `E-PARAMETER: review="..\\x.md" is not a relative path`},
		{"a\nb.md", "", `E-PARAMETER: review="a\nb.md" is not a relative path`},
		{".", "", `E-PARAMETER: review="." is not a relative path`},
	} {
		req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": src}, "review="+tt.review, "x.proto")
		if err != nil {
			t.Fatal(err)
		}
		resp := runProto(req, nil, nil)
		if tt.err != "" {
			if got := resp.GetError(); !strings.Contains(got, tt.err) || len(resp.File) != 0 {
				t.Errorf("review=%q: error %q and %d files, want an error containing %q", tt.review, got, len(resp.File), tt.err)
			}
			continue
		}
		var names []string
		for _, f := range resp.File {
			names = append(names, f.GetName())
		}
		if resp.GetError() != "" || !slices.Contains(names, tt.file) {
			t.Errorf("review=%q: error %q, files %q; want %s among them", tt.review, resp.GetError(), names, tt.file)
		}
	}
}

// TestProtoSourceNameInComments: a .proto file name holding line breaks, a
// comment closer and directive text reaches the generated file only as
// text of one comment line.
func TestProtoSourceNameInComments(t *testing.T) {
	src := protoHeader + "service S { rpc A(M) returns (M); }\n"
	req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": src}, "paths=source_relative,review=R.md", "x.proto")
	if err != nil {
		t.Fatal(err)
	}
	// A name the output directory can hold (no "//", no ":"), so that the
	// file is generated.
	const name = "evil\n+build ignore\n*/ func init() { panic(1) } /*\r.proto"
	for _, f := range req.ProtoFile {
		if f.GetName() == "x.proto" {
			f.Name = proto.String(name)
		}
	}
	req.FileToGenerate = []string{name}
	resp := runProto(req, nil, nil)
	if resp.GetError() != "" {
		t.Fatal(resp.GetError())
	}
	for _, f := range resp.File {
		if strings.HasSuffix(f.GetName(), ".md") {
			// The title is the file's base name, after the last "/".
			if lines := strings.Split(strings.TrimSpace(f.GetContent()), "\n"); lines[0] != "## Resilience review: * .proto" {
				t.Errorf("review heading = %q", lines[0])
			}
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.GetName(), f.GetContent(), parser.ParseComments)
		if err != nil {
			t.Fatalf("%s does not parse: %v", f.GetName(), err)
		}
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "init" {
				t.Errorf("%s: func init", fset.Position(fn.Pos()))
			}
		}
		for _, g := range file.Comments {
			for _, c := range g.List {
				if strings.HasPrefix(c.Text, "/*") || strings.HasPrefix(c.Text, "//go:") {
					t.Errorf("%s: comment %q", fset.Position(c.Pos()), c.Text)
				}
			}
		}
		if want := "// source: evil+build ignore*/ func init() { panic(1) } /*.proto\n"; !strings.Contains(f.GetContent(), want) {
			t.Errorf("%s lacks the header line %q", f.GetName(), want)
		}
	}
}

// TestProtoOutputOutsideTheTree: a Go import path that would put the
// generated file outside protoc's output directory is refused.
func TestProtoOutputOutsideTheTree(t *testing.T) {
	src := "syntax = \"proto3\";\npackage p;\nmessage M {}\nservice S { rpc A(M) returns (M); }\n"
	for _, param := range []string{"Mx.proto=..", "Mx.proto=../../evil", "Mx.proto=/abs/evil"} {
		req, err := prototest.Request(nil, map[string]string{"x.proto": src}, param, "x.proto")
		if err != nil {
			t.Fatal(err)
		}
		resp := runProto(req, nil, nil)
		if got := resp.GetError(); !strings.Contains(got, "x.proto: E-OUTPUT-PATH: the generated file") || len(resp.File) != 0 {
			t.Errorf("%s: error %q and %d files, want E-OUTPUT-PATH and none", param, got, len(resp.File))
		}
	}
}

// TestProtoKeysThatMeanNothingToGRPC: connectTimeout and deadlineHeader
// written for a gRPC service are reported once each, where they were
// written, and left out of the generated policy; the files are still
// generated.
func TestProtoKeysThatMeanNothingToGRPC(t *testing.T) {
	src := protoHeader + "service S {\n  option (resilient.v1.service) = {connect_timeout: {seconds: 1}};\n  rpc A(M) returns (M);\n  rpc B(M) returns (M);\n}\n"
	policy := "dependencies:\n  p.S:\n    deadlineHeader: false\n"
	req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": src}, "policy=policy.yaml", "x.proto")
	if err != nil {
		t.Fatal(err)
	}
	var warn strings.Builder
	resp := runProto(req, func(string) ([]byte, error) { return []byte(policy), nil }, &warn)
	if resp.GetError() != "" || len(resp.File) == 0 {
		t.Fatalf("Run = error %q, %d files; want files", resp.GetError(), len(resp.File))
	}
	want := []string{
		"warning: policy.yaml:3:5: W-KEY-NOT-GRPC: deadlineHeader has no effect on gRPC service p.S: the deadline goes out as grpc-timeout",
		"warning: x.proto:7:3: W-KEY-NOT-GRPC: connectTimeout has no effect on a gRPC client",
	}
	lines := strings.Split(strings.TrimSpace(warn.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("warnings = %q, want %d lines", warn.String(), len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("warning %d = %q, want it to start %q", i, lines[i], w)
		}
	}
	code := resp.File[0].GetContent()
	if strings.Contains(code, "ConnectTimeout") {
		t.Errorf("generated policy keeps the connect timeout:\n%s", code)
	}
}

// runProto runs protocgen.Proto as protoc-gen-resilient does, writing the
// warnings to warn (when not nil) one per line, prefixed "warning: ".
func runProto(req *pluginpb.CodeGeneratorRequest, readFile func(string) ([]byte, error), warn io.Writer) *pluginpb.CodeGeneratorResponse {
	resp, warnings := protocgen.Proto(req, protocgen.ProtoOptions{ReadFile: readFile})
	if warn != nil {
		for _, w := range warnings {
			fmt.Fprintf(warn, "warning: %s\n", w.Error())
		}
	}
	return resp
}

// TestProtoPolicyWarningIsNotFatal: a warning of the policy layer (a
// policy file value the .proto file overrides) comes back as a warning,
// as oapi-resilient reports it, and the files are generated.
func TestProtoPolicyWarningIsNotFatal(t *testing.T) {
	src := protoHeader + "service S {\n  option (resilient.v1.service) = {timeout: {seconds: 2}};\n  rpc A(M) returns (M);\n}\n"
	policy := "dependencies:\n  p.S:\n    timeout: 5s\n"
	req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": src}, "policy=policy.yaml", "x.proto")
	if err != nil {
		t.Fatal(err)
	}
	resp, warnings := protocgen.Proto(req, protocgen.ProtoOptions{ReadFile: func(string) ([]byte, error) { return []byte(policy), nil }})
	if resp.GetError() != "" || len(resp.File) == 0 {
		t.Fatalf("Proto = error %q, %d files; want files", resp.GetError(), len(resp.File))
	}
	if len(warnings) != 1 || warnings[0].Rule != "W-SHADOWED" || warnings[0].Severity != diag.Warning {
		t.Errorf("warnings = %v, want one W-SHADOWED warning", warnings)
	}
}

// TestProtoIdempotencyKeyNotMetadata: an idempotency key name that gRPC
// cannot send as metadata is refused at generation time, where it was
// written, with a fix; a valid one generates.
func TestProtoIdempotencyKeyNotMetadata(t *testing.T) {
	for _, tt := range []struct{ key, want string }{
		{"idem#key", `x.proto:8:3: E-METADATA-KEY: idempotency key "idem#key" of method /p.S/A is not a gRPC metadata key`},
		{"grpc-idem", `E-METADATA-KEY: idempotency key "grpc-idem"`},
		{"idem-bin", `E-METADATA-KEY: idempotency key "idem-bin"`},
		{"Idempotency-Key", ""},
	} {
		src := protoHeader + "service S {\n  rpc A(M) returns (M) {\n  option (resilient.v1.method) = {idempotency_key: \"" + tt.key + "\"};\n  }\n}\n"
		req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/protocgen")}, map[string]string{"x.proto": src}, "", "x.proto")
		if err != nil {
			t.Fatal(err)
		}
		resp := runProto(req, nil, nil)
		got := resp.GetError()
		if tt.want == "" {
			if got != "" || len(resp.File) == 0 {
				t.Errorf("%q: error %q, %d files; want files", tt.key, got, len(resp.File))
			}
			continue
		}
		if !strings.Contains(got, tt.want) || !strings.Contains(got, "such as idempotency-key") || len(resp.File) != 0 {
			t.Errorf("%q: error %q, %d files; want %q with its fix, no file", tt.key, got, len(resp.File), tt.want)
		}
	}
}

// TestProtoReviewIdempotencyBasis: on Google's Pub/Sub protos, which set
// no idempotency_level, the review says where each idempotency comes
// from, and a GET-bound method is retried.
func TestProtoReviewIdempotencyBasis(t *testing.T) {
	req, err := prototest.Request([]string{"../testdata/googleapis"}, nil, "review=REVIEW.md", "google/pubsub/v1/pubsub.proto")
	if err != nil {
		t.Fatal(err)
	}
	resp := runProto(req, nil, nil)
	if resp.GetError() != "" {
		t.Fatal(resp.GetError())
	}
	review := resp.File[len(resp.File)-1].GetContent()
	var getTopic string
	for _, line := range strings.Split(review, "\n") {
		if strings.HasPrefix(line, "| google.pubsub.v1.Publisher/GetTopic (gRPC) |") {
			getTopic = line
		}
	}
	if !strings.Contains(getTopic, "| 2 (default), full jitter") || !strings.HasSuffix(getTopic, "| yes (from google.api.http GET) |") {
		t.Errorf("GetTopic's row = %q, want 2 retries, read-only from google.api.http GET", getTopic)
	}
	for _, want := range []string{
		"| yes (from google.api.http GET) |\n",
		"| yes (from google.api.http PUT) |\n",
		"| yes (from google.api.http DELETE) |\n",
		"| no (from google.api.http POST) |\n",
	} {
		if !strings.Contains(review, want) {
			t.Errorf("review lacks %q:\n%s", want, review)
		}
	}
	if n := strings.Count(review, "(from google.api.http GET)"); n != 8 {
		t.Errorf("%d GET-bound methods are reads, want 8", n)
	}
}

// TestProtoRequestErrorByPosition: protogen's refusals are classified by
// where in the request they lie, not by their wording: a descriptor that
// does not build is E-REQUEST even when the file's name reads like a
// parameter or a Go package problem.
func TestProtoRequestErrorByPosition(t *testing.T) {
	for _, name := range []string{"parameter.proto", "no Go package.proto", "module=.proto"} {
		broken := &descriptorpb.FileDescriptorProto{
			Name: proto.String(name), Package: proto.String("p"), Syntax: proto.String("proto3"),
			Options: &descriptorpb.FileOptions{GoPackage: proto.String("example.com/p")},
			MessageType: []*descriptorpb.DescriptorProto{{Name: proto.String("M"), Field: []*descriptorpb.FieldDescriptorProto{{
				Name: proto.String("x"), Number: proto.Int32(1), Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
				Type: descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(), TypeName: proto.String(".p.Missing"),
			}}}},
		}
		req := &pluginpb.CodeGeneratorRequest{FileToGenerate: []string{name}, ProtoFile: []*descriptorpb.FileDescriptorProto{broken}}
		got := runProto(req, nil, nil).GetError()
		if !strings.HasPrefix(got, "E-REQUEST: ") {
			t.Errorf("%s: error %q, want E-REQUEST", name, got)
		}
	}
}
