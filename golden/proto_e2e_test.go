package golden

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/resilientgo/resilient/gen/protocgen"
	"github.com/resilientgo/resilient/gen/protoir/prototest"
	"github.com/resilientgo/resilient/internal/repomod"
	"github.com/resilientgo/resilient/internal/testtier"
)

// corpusProto is the proto corpus, relative to this folder.
const corpusProto = "../gen/testdata/corpus/proto"

// moduleRoot returns the absolute path of the module root.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// newBuildModule makes a temporary module that uses the repository's
// modules through replace directives, with this module's requirements
// (the versions of grpc and protobuf the generated code is built with).
func newBuildModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	root := moduleRoot(t)
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var reqs strings.Builder
	inRequire := false
	for line := range strings.Lines(string(gomod)) {
		switch trimmed := strings.TrimSpace(line); {
		case trimmed == "require (":
			inRequire = true
		case inRequire && trimmed == ")":
			inRequire = false
		case inRequire && !strings.HasPrefix(trimmed, repomod.Path):
			reqs.WriteString(line)
		}
	}
	must(t, repomod.WriteModule(dir, root, "example.com/built", "1.26.0", "require (\n"+reqs.String()+")\n"))
	return dir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func goBuild(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./... in %s: %v\n%s", dir, err, out)
	}
}

// TestProtocEndToEnd runs the real protoc with protoc-gen-go,
// protoc-gen-go-grpc and protoc-gen-resilient, then builds the result.
func TestProtocEndToEnd(t *testing.T) {
	testtier.Slow(t)
	protoc := testtier.Tool(t, "protoc", "apt-get install -y protobuf-compiler")
	bin := t.TempDir()
	root := moduleRoot(t)
	for _, c := range [][2]string{
		{"protoc-gen-resilient", "./cmd/protoc-gen-resilient"},
		{"protoc-gen-go", "google.golang.org/protobuf/cmd/protoc-gen-go"},
	} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(bin, c[0]), c[1])
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", c[0], err, out)
		}
	}
	grpcBin := goGRPCPlugin(t)
	out := newBuildModule(t)
	src, err := filepath.Abs(filepath.Join("proto", "options"))
	must(t, err)
	args := []string{
		"-I", src, "-I", filepath.Join(root, "annotations"),
		"--plugin=protoc-gen-resilient=" + filepath.Join(bin, "protoc-gen-resilient"),
		"--plugin=protoc-gen-go=" + filepath.Join(bin, "protoc-gen-go"),
		"--plugin=protoc-gen-go-grpc=" + grpcBin,
		"--go_out=" + out, "--go_opt=paths=source_relative",
		"--go-grpc_out=" + out, "--go-grpc_opt=paths=source_relative",
		"--resilient_out=" + out, "--resilient_opt=paths=source_relative,policy=" + filepath.Join(src, "policy.yaml") + ",review=review.md",
		"options.proto",
	}
	cmd := exec.Command(protoc, args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, b)
	}
	got, err := os.ReadFile(filepath.Join(out, "options_resilient.pb.go"))
	must(t, err)
	want, err := os.ReadFile(filepath.Join("proto", "options", "options_resilient.pb.go"))
	must(t, err)
	if string(got) != string(want) {
		t.Errorf("protoc output differs from the in-process golden file\n%s", firstDiff(want, got))
	}
	goBuild(t, out)
}

// TestProtoCorpusBuilds generates every service of the shared proto corpus
// with protoc-gen-go, protoc-gen-go-grpc and protoc-gen-resilient, and
// builds them all in one module.
func TestProtoCorpusBuilds(t *testing.T) {
	testtier.Slow(t)
	if _, err := os.Stat(corpusProto); err != nil {
		t.Fatalf("the proto corpus belongs at %s: %v", corpusProto, err)
	}
	entries := []struct{ root, file string }{
		{"grpc-proto", "grpc/health/v1/health.proto"},
		{"grpc-proto", "grpc/reflection/v1/reflection.proto"},
		{"grpc-go", "examples/helloworld/helloworld/helloworld.proto"},
		{"grpc-go", "examples/route_guide/routeguide/route_guide.proto"},
		{"grpc-go-proto3", "examples/route_guide/routeguide/route_guide.proto"},
		{"googleapis", "google/pubsub/v1/pubsub.proto"},
		{"googleapis", "google/pubsub/v1/schema.proto"},
		{"googleapis", "google/cloud/tasks/v2/cloudtasks.proto"},
		{"googleapis", "google/firestore/v1/firestore.proto"},
		{"googleapis", "google/longrunning/operations.proto"},
		{"googleapis", "google/cloud/workflows/v1/workflows.proto"},
		{"googleapis", "google/iam/v1/iam_policy.proto"},
	}
	out := newBuildModule(t)
	grpcBin := goGRPCPlugin(t)
	// Messages of every googleapis file the services import, generated
	// once, into their own Go packages under the module.
	goFiles := map[string]bool{}
	for i, e := range entries {
		root := filepath.Join(corpusProto, e.root)
		req, err := prototest.Request([]string{root}, nil, "", e.file)
		if err != nil {
			t.Fatalf("%s: %v", e.file, err)
		}
		// Every file of the request that is not a well-known type goes
		// into the module under its go_package path, mapped below
		// example.com/built so that imports resolve.
		var toGenerate []string
		var params []string
		for _, f := range req.ProtoFile {
			if strings.HasPrefix(f.GetName(), "google/protobuf/") {
				continue
			}
			params = append(params, "M"+f.GetName()+"="+goPath(i, e.root, f.GetName(), f.GetOptions().GetGoPackage()))
			if f.GetName() == e.file || (e.root == "googleapis" && !goFiles[f.GetName()]) {
				toGenerate = append(toGenerate, f.GetName())
				goFiles[f.GetName()] = e.root == "googleapis"
			}
		}
		req.FileToGenerate = toGenerate
		req.Parameter = proto.String("module=example.com/built," + strings.Join(params, ","))
		writeResponse(t, out, generateGo(t, req))
		only := proto.CloneOf(req)
		only.FileToGenerate = []string{e.file}
		writeResponse(t, out, runPlugin(t, grpcBin, only))
		resp, _ := protocgen.Proto(only, protocgen.ProtoOptions{})
		if resp.Error != nil {
			t.Fatalf("%s/%s: %s", e.root, e.file, resp.GetError())
		}
		if len(resp.File) == 0 {
			t.Errorf("%s/%s: no resilient client generated", e.root, e.file)
		}
		writeResponse(t, out, resp)
	}
	goBuild(t, out)
}

// goPath places a corpus file's Go package inside the build module under
// its go_package path: the googleapis files share one tree, the others get
// a folder per entry so that the two route_guide versions do not clash.
func goPath(i int, root, name, goPackage string) string {
	path, pkg, _ := strings.Cut(goPackage, ";")
	if pkg == "" {
		pkg = filepath.Base(path)
	}
	prefix := "example.com/built/"
	if root != "googleapis" {
		prefix += string(rune('a'+i)) + "/"
	}
	return prefix + path + ";" + pkg
}
