// Package prototest compiles .proto sources in-process into the
// CodeGeneratorRequest that protoc would send a plugin, for tests of the
// proto front end and of protoc-gen-resilient that run without protoc.
package prototest

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"
)

// AnnotationsDir returns the include root of resilient/v1/resilient.proto
// for a test running in dir, a folder of the module named by its path from
// the module root ("golden", "gen/protoir").
func AnnotationsDir(fromRoot string) string {
	up := strings.Repeat("../", strings.Count(filepath.ToSlash(fromRoot), "/")+1)
	return filepath.FromSlash(up + "annotations")
}

// Request compiles files (paths relative to one of importPaths, or keys of
// sources, which are read before the import paths) with source info and
// returns the request that generates them with parameter. The standard
// google/protobuf imports are built in.
func Request(importPaths []string, sources map[string]string, parameter string, files ...string) (*pluginpb.CodeGeneratorRequest, error) {
	resolver := &protocompile.SourceResolver{
		ImportPaths: importPaths,
		Accessor: func(name string) (io.ReadCloser, error) {
			if s, ok := sources[name]; ok {
				return io.NopCloser(strings.NewReader(s)), nil
			}
			for _, dir := range importPaths {
				if rel, err := filepath.Rel(dir, name); err == nil && !strings.HasPrefix(rel, "..") {
					if s, ok := sources[filepath.ToSlash(rel)]; ok {
						return io.NopCloser(strings.NewReader(s)), nil
					}
				}
			}
			return os.Open(name)
		},
	}
	c := protocompile.Compiler{
		Resolver:       protocompile.WithStandardImports(resolver),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	linked, err := c.Compile(context.Background(), files...)
	if err != nil {
		return nil, err
	}
	req := &pluginpb.CodeGeneratorRequest{FileToGenerate: files}
	if parameter != "" {
		req.Parameter = proto.String(parameter)
	}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		imports := fd.Imports()
		for i := 0; i < imports.Len(); i++ {
			add(imports.Get(i).FileDescriptor)
		}
		req.ProtoFile = append(req.ProtoFile, toProto(fd))
	}
	for _, f := range linked {
		add(f)
	}
	// What a plugin receives: the request on the wire.
	b, err := proto.Marshal(req)
	if err != nil {
		return nil, err
	}
	out := &pluginpb.CodeGeneratorRequest{}
	return out, proto.Unmarshal(b, out)
}

func toProto(fd protoreflect.FileDescriptor) *descriptorpb.FileDescriptorProto {
	if r, ok := fd.(linker.Result); ok {
		return r.FileDescriptorProto()
	}
	return protodesc.ToFileDescriptorProto(fd)
}
