package main

import (
	"fmt"
	"io"
	"os"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen/golang/grpcgen"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "protoc-gen-resilient:", err)
		os.Exit(1)
	}
}

// run reads a CodeGeneratorRequest from stdin and writes the response to
// stdout; problems with the input go back in the response's error field.
func run(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 1 && args[0] == "--version" {
		_, err := fmt.Fprintln(stdout, "protoc-gen-resilient (github.com/resilientgo/resilient)")
		return err
	}
	if len(args) > 0 {
		return fmt.Errorf("unknown argument %q: protoc and buf pass parameters in the request (--resilient_opt)", args[0])
	}
	in, err := io.ReadAll(stdin)
	if err != nil {
		return err
	}
	req := &pluginpb.CodeGeneratorRequest{}
	if err := proto.Unmarshal(in, req); err != nil {
		return fmt.Errorf("reading the request: %w", err)
	}
	out, err := proto.Marshal(grpcgen.Run(req, nil, os.Stderr))
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}
