// Command protogen generates the Go code of petstore.proto without protoc:
// it compiles the file in-process with github.com/bufbuild/protocompile
// and runs three generators on the request protoc would send,
//
//   - protoc-gen-go (the messages), in-process, at the version pinned in
//     go.mod;
//   - protoc-gen-go-grpc (the plain client and the server interface), as
//     the tool pinned in go.mod (go tool protoc-gen-go-grpc), fed the
//     serialized request on stdin;
//   - protoc-gen-resilient (the resilient client and its review),
//     in-process,
//
// writing petstorepb/*.pb.go and petstorepb/REVIEW.md. The output is the
// same byte for byte on every machine.
//
// Usage, from examples/petstore (see generate.go):
//
//	go run ./internal/protogen
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	gengo "google.golang.org/protobuf/cmd/protoc-gen-go/internal_gengo"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen/protocgen"
	"github.com/resilientgo/resilient/gen/protoir/prototest"
)

const (
	// module maps go_package import paths to folders of examples/petstore.
	module = "module=github.com/resilientgo/resilient/examples/petstore"
	// source is the .proto file, relative to examples/petstore.
	source = "petstore.proto"
	// annotations is the include root of resilient/v1/resilient.proto.
	annotations = "../../annotations"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "protogen:", err)
		os.Exit(1)
	}
}

func run() error {
	req, err := prototest.Request([]string{".", annotations}, nil, module, source)
	if err != nil {
		return err
	}
	plugins := []struct {
		name  string
		param string
		run   func(*pluginpb.CodeGeneratorRequest) (*pluginpb.CodeGeneratorResponse, error)
	}{
		{"protoc-gen-go", module, goMessages},
		{"protoc-gen-go-grpc", module, goGRPC},
		{"protoc-gen-resilient", module + ",policy=policy.grpc.yaml,review=petstorepb/REVIEW.md", resilient},
	}
	for _, g := range plugins {
		r := proto.CloneOf(req)
		r.Parameter = proto.String(g.param)
		resp, err := g.run(r)
		if err == nil && resp.Error != nil {
			err = errors.New(resp.GetError())
		}
		if err != nil {
			return fmt.Errorf("%s: %w", g.name, err)
		}
		if err := write(resp); err != nil {
			return err
		}
	}
	return nil
}

// goMessages runs protoc-gen-go in-process.
func goMessages(req *pluginpb.CodeGeneratorRequest) (*pluginpb.CodeGeneratorResponse, error) {
	plugin, err := protogen.Options{}.New(req)
	if err != nil {
		return nil, err
	}
	for _, f := range plugin.Files {
		if f.Generate {
			gengo.GenerateFile(plugin, f)
		}
	}
	plugin.SupportedFeatures = gengo.SupportedFeatures
	plugin.SupportedEditionsMinimum = gengo.SupportedEditionsMinimum
	plugin.SupportedEditionsMaximum = gengo.SupportedEditionsMaximum
	return plugin.Response(), nil
}

// goGRPC runs the protoc-gen-go-grpc tool of go.mod on req.
func goGRPC(req *pluginpb.CodeGeneratorRequest) (*pluginpb.CodeGeneratorResponse, error) {
	in, err := proto.Marshal(req)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "tool", "protoc-gen-go-grpc")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w\n%s", err, stderr.Bytes())
	}
	resp := &pluginpb.CodeGeneratorResponse{}
	return resp, proto.Unmarshal(out, resp)
}

// resilient runs protoc-gen-resilient in-process, writing its warnings to
// stderr as the plugin does.
func resilient(req *pluginpb.CodeGeneratorRequest) (*pluginpb.CodeGeneratorResponse, error) {
	resp, warnings := protocgen.Proto(req, protocgen.ProtoOptions{ReadFile: os.ReadFile})
	for _, w := range warnings {
		fmt.Fprintf(os.Stderr, "warning: %s\n", w.Error())
	}
	return resp, nil
}

func write(resp *pluginpb.CodeGeneratorResponse) error {
	for _, f := range resp.File {
		name := filepath.FromSlash(f.GetName())
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, []byte(f.GetContent()), 0o644); err != nil {
			return err
		}
	}
	return nil
}
