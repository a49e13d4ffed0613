package golden

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/cmd/protoc-gen-go/internal_gengo"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen/protocgen"
	"github.com/resilientgo/resilient/gen/protoir/prototest"
)

// protoCase is one folder of golden/proto, and a package of this module:
// .proto inputs (and an optional policy.yaml) with, beside them, the
// generated Go package: protoc-gen-go's and protoc-gen-go-grpc's output
// (rewritten by -update) and ours (compared byte for byte), plus
// review.md; doc.go says what the case proves, and some cases have tests
// of their own. Adding a case is adding a folder, a row here, then running
// go test ./golden -update.
type protoCase struct {
	name  string
	files []string
	param string
	// warnings says whether the case's warnings.txt holds the warnings
	// the plugin reports, one per line, compared as the files are.
	warnings bool
}

var protoCases = []protoCase{
	{"unary", []string{"greeter.proto"}, "paths=source_relative,review=review.md", false},
	{"streaming", []string{"streams.proto"}, "paths=source_relative,review=review.md", false},
	{"options", []string{"options.proto"}, "paths=source_relative,policy=policy.yaml,review=review.md", false},
	{"twoservices", []string{"two.proto"}, "paths=source_relative,review=review.md", false},
	{"editions", []string{"route.proto"}, "paths=source_relative,review=review.md", false},
	{"behaviour", []string{"counter.proto"}, "paths=source_relative", false},
	{"fleet", []string{"stock.proto"}, "paths=source_relative,review=review.md", false},
	{"empty", []string{"empty.proto"}, "paths=source_relative,review=review.md", false},
	{"svcconfig", []string{"catalog.proto"}, "paths=source_relative,service_config=catalog_grpc_service_config.json,policy=policy.yaml,review=review.md", true},
}

// protoRequest compiles a case's files in-process.
func protoRequest(t *testing.T, dir string, c protoCase) *pluginpb.CodeGeneratorRequest {
	t.Helper()
	req, err := prototest.Request([]string{dir, prototest.AnnotationsDir("golden")}, nil, c.param, c.files...)
	if err != nil {
		t.Fatalf("compiling %s: %v", c.name, err)
	}
	return req
}

func TestProtoGolden(t *testing.T) {
	listed := map[string]bool{}
	for _, c := range protoCases {
		listed[c.name] = true
	}
	entries, err := os.ReadDir("proto")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !listed[e.Name()] {
			t.Errorf("golden/proto/%s is not a case: add it to protoCases in golden/proto_test.go", e.Name())
		}
	}
	for _, c := range protoCases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join("proto", c.name)
			requireDoc(t, dir)
			req := protoRequest(t, dir, c)
			resp, warnings := protocgen.Proto(req, protocgen.ProtoOptions{ReadFile: func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }})
			if c.warnings {
				var b strings.Builder
				for _, w := range warnings {
					b.WriteString(w.Error() + "\n")
				}
				compareOrUpdate(t, filepath.Join(dir, "warnings.txt"), []byte(b.String()))
			}
			if resp.Error != nil {
				t.Fatalf("protoc-gen-resilient: %s", resp.GetError())
			}
			if len(resp.File) == 0 {
				t.Fatal("no file generated")
			}
			for _, f := range resp.File {
				compareOrUpdate(t, filepath.Join(dir, f.GetName()), []byte(f.GetContent()))
			}
			if *update {
				other := proto.CloneOf(req)
				other.Parameter = proto.String("paths=source_relative")
				writeResponse(t, dir, generateGo(t, other))
				writeResponse(t, dir, runPlugin(t, goGRPCPlugin(t), other))
			}
		})
	}
}

func compareOrUpdate(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v; run go test ./golden -run TestProtoGolden -update", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the generated output; review the change and run go test ./golden -run TestProtoGolden -update\n%s", path, firstDiff(want, got))
	}
}

// firstDiff shows the first differing line.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\n-" + a + "\n+" + b
		}
	}
	return ""
}

func itoa(n int) string { return strconv.Itoa(n) }

// generateGo runs protoc-gen-go in-process.
func generateGo(t *testing.T, req *pluginpb.CodeGeneratorRequest) *pluginpb.CodeGeneratorResponse {
	t.Helper()
	plugin, err := protogen.Options{}.New(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range plugin.Files {
		if f.Generate {
			internal_gengo.GenerateFile(plugin, f)
		}
	}
	plugin.SupportedFeatures = internal_gengo.SupportedFeatures
	plugin.SupportedEditionsMinimum = internal_gengo.SupportedEditionsMinimum
	plugin.SupportedEditionsMaximum = internal_gengo.SupportedEditionsMaximum
	return plugin.Response()
}

var goGRPC struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// TestMain removes the protoc-gen-go-grpc binary that tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if goGRPC.path != "" {
		os.RemoveAll(filepath.Dir(goGRPC.path))
	}
	os.Exit(code)
}

// goGRPCPlugin builds protoc-gen-go-grpc once per test binary, at the
// version go.mod pins (it is a tool of the module).
func goGRPCPlugin(t *testing.T) string {
	t.Helper()
	goGRPC.once.Do(func() {
		dir, err := os.MkdirTemp("", "protoc-gen-go-grpc")
		if err != nil {
			goGRPC.err = err
			return
		}
		goGRPC.path = filepath.Join(dir, "protoc-gen-go-grpc")
		cmd := exec.Command("go", "build", "-o", goGRPC.path, "google.golang.org/grpc/cmd/protoc-gen-go-grpc")
		cmd.Dir = ".."
		goGRPC.out, goGRPC.err = cmd.CombinedOutput()
	})
	if goGRPC.err != nil {
		t.Fatalf("building protoc-gen-go-grpc: %v\n%s", goGRPC.err, goGRPC.out)
	}
	return goGRPC.path
}

// runPlugin runs a plugin binary on req.
func runPlugin(t *testing.T, bin string, req *pluginpb.CodeGeneratorRequest) *pluginpb.CodeGeneratorResponse {
	t.Helper()
	in, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
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
	return resp
}

func writeResponse(t *testing.T, dir string, resp *pluginpb.CodeGeneratorResponse) {
	t.Helper()
	if resp.Error != nil {
		t.Fatalf("plugin error: %s", resp.GetError())
	}
	for _, f := range resp.File {
		p := filepath.Join(dir, f.GetName())
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.GetContent()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
