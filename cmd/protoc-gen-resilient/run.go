package main

import (
	"fmt"
	"io"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen"
)

// run reads a CodeGeneratorRequest from stdin and writes the response to
// stdout, and the warnings to stderr one per line prefixed "warning: ".
// Problems with the request's content go back in the response's error
// field, as protoc expects, and the status is 0; a command line protoc
// never passes, or a request that cannot be read or a response that
// cannot be written, is reported on stderr with status 1.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "--version" {
		fmt.Fprintln(stdout, "protoc-gen-resilient (github.com/resilientgo/resilient)")
		return 0
	}
	if len(args) > 0 {
		fmt.Fprintf(stderr, "protoc-gen-resilient: unknown argument %q: protoc and buf pass parameters in the request (--resilient_opt)\n", args[0])
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
	resp, warnings := gen.Proto(req, gen.ProtoOptions{})
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
