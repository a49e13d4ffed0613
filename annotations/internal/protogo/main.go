// Command protogo generates the Go code of the annotation protos with the
// protoc-gen-go code generator pinned in go.mod, compiling the .proto files
// in-process with github.com/bufbuild/protocompile, so that regeneration
// needs neither protoc nor a plugin binary and gives byte-identical output
// on every machine.
//
// Usage, from the annotations directory (see generate.go):
//
//	go run ./internal/protogo resilient/v1/resilient.proto
//
// Each file is written beside its .proto (paths=source_relative).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/bufbuild/protocompile"
	gengo "google.golang.org/protobuf/cmd/protoc-gen-go/internal_gengo"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/pluginpb"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "protogo:", err)
		os.Exit(1)
	}
}

func run(files []string) error {
	if len(files) == 0 {
		return errors.New("no .proto files given")
	}
	c := protocompile.Compiler{
		Resolver:       protocompile.WithStandardImports(&protocompile.SourceResolver{}),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	compiled, err := c.Compile(context.Background(), files...)
	if err != nil {
		return err
	}
	req := &pluginpb.CodeGeneratorRequest{
		FileToGenerate: files,
		Parameter:      ptr("paths=source_relative"),
	}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		imports := fd.Imports()
		for i := range imports.Len() {
			add(imports.Get(i).FileDescriptor)
		}
		req.ProtoFile = append(req.ProtoFile, protodesc.ToFileDescriptorProto(fd))
	}
	for _, fd := range compiled {
		add(fd)
	}
	plugin, err := protogen.Options{}.New(req)
	if err != nil {
		return err
	}
	for _, f := range plugin.Files {
		if f.Generate {
			gengo.GenerateFile(plugin, f)
		}
	}
	plugin.SupportedFeatures = gengo.SupportedFeatures
	resp := plugin.Response()
	if resp.Error != nil {
		return errors.New(resp.GetError())
	}
	for _, f := range resp.File {
		if err := os.WriteFile(f.GetName(), []byte(f.GetContent()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
