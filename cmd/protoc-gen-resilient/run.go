package main

import (
	"fmt"
	"io"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen/protocgen"
	"github.com/resilientgo/resilient/internal/version"
)

// run reads a CodeGeneratorRequest from stdin and writes the response to
// stdout, and the warnings to stderr one per line prefixed "warning: ".
// Problems with the request's content go back in the response's error
// field, as protoc expects, and the status is 0; a command line protoc
// never passes, or a request that cannot be read or a response that
// cannot be written, is reported on stderr with status 1.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 {
		switch args[0] {
		case "-version", "--version":
			fmt.Fprintln(stdout, version.String("protoc-gen-resilient"))
			return 0
		case "-h", "-help", "--help", "help":
			fmt.Fprint(stdout, help)
			return 0
		}
	}
	if len(args) > 0 {
		fmt.Fprintf(stderr, "protoc-gen-resilient: unknown argument %q: protoc and buf pass parameters in the request (--resilient_opt); -h lists them\n", args[0])
		return 1
	}
	in, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "protoc-gen-resilient: reading the request: %v\n", err)
		return 1
	}
	req := &pluginpb.CodeGeneratorRequest{}
	if err := proto.Unmarshal(in, req); err != nil {
		fmt.Fprintf(stderr, "protoc-gen-resilient: reading the request: %v\n", err)
		return 1
	}
	resp, warnings := protocgen.Proto(req, protocgen.ProtoOptions{})
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w.Error())
	}
	out, err := proto.Marshal(resp)
	if err == nil {
		_, err = stdout.Write(out)
	}
	if err != nil {
		fmt.Fprintf(stderr, "protoc-gen-resilient: writing the response: %v\n", err)
		return 1
	}
	return 0
}

// help is what -h prints: how the plugin is run and its parameters, as the
// package documentation lists them.
const help = `protoc-gen-resilient: a protoc and buf plugin that writes <name>_resilient.pb.go,
typed resilient gRPC clients, beside protoc-gen-go's and protoc-gen-go-grpc's output.
protoc and buf run it and pass its parameters in the request:

  protoc -I . --go_out=. --go-grpc_out=. --resilient_out=. \
    --resilient_opt=paths=source_relative,policy=resilience.yaml,review=REVIEW.md x.proto

Parameters (comma-separated in --resilient_opt, or opt: in buf.gen.yaml):
  paths=import|source_relative  where output goes, as for protoc-gen-go; default import
  module=<prefix>               strip this Go import path prefix from output names
  M<file>=<import path>         the Go package of a .proto file without go_package
  policy=<file>                 policy file (YAML), relative to the working directory
  service_config=<file>         gRPC service config (JSON), relative to the working
                                directory; repeatable
  review=<file>                 also write the Markdown resilience review, a relative
                                path under the output directory

Flags when run by hand:
  -version  print the version and exit
  -h        print this help and exit
`
