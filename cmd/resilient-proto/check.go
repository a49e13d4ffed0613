package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen/protocgen"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// check runs "resilient-proto check": it compiles the .proto files (and
// every .proto file of a folder) in-process, hands them to the plugin's
// own generator with the parameters -opt gives, as protoc would with
// --resilient_opt, and prints what protoc-gen-resilient would report,
// writing nothing: the errors one per line, then the warnings, each
// prefixed "warning: ", all on standard output. The status is 0 without
// errors, 1 with errors, 2 for unusable input or flags.
func check(args []string, stdout, stderr io.Writer) int {
	var imports, opts multi
	fs := flag.NewFlagSet("resilient-proto check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&imports, "I", "import `folder` of .proto files (repeatable; default: the file's folder); resilient/v1/resilient.proto is built in")
	fs.Var(&opts, "opt", "protoc-gen-resilient's `parameters`, as --resilient_opt takes them (repeatable): policy=, service_config=, M<file>=, ...")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: resilient-proto check [-I DIR]... [-opt PARAMETERS]... FILE.proto|FOLDER...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUnusable
	}
	if fs.NArg() == 0 {
		fs.Usage()
		fmt.Fprintln(stderr, "resilient-proto check: want .proto files or a folder")
		return exitUnusable
	}
	// Each argument is compiled with its imports; a file already in the
	// request, an import of an earlier one, is not added twice.
	req := &pluginpb.CodeGeneratorRequest{}
	seen := map[string]bool{}
	for _, arg := range fs.Args() {
		set, names, err := compileNames(arg, imports)
		if err != nil {
			fmt.Fprintf(stderr, "resilient-proto check: %s: %v\n", arg, err)
			return exitUnusable
		}
		for _, f := range set.File {
			if !seen[f.GetName()] {
				seen[f.GetName()] = true
				req.ProtoFile = append(req.ProtoFile, f)
			}
		}
		for _, n := range names {
			if !slices.Contains(req.FileToGenerate, n) {
				req.FileToGenerate = append(req.FileToGenerate, n)
			}
		}
	}
	if len(opts) > 0 {
		req.Parameter = proto.String(strings.Join(opts, ","))
	}
	lines, failed := report(protocgen.Proto(req, protocgen.ProtoOptions{}))
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	if failed {
		return exitFail
	}
	return exitOK
}

// report renders a plugin run as protoc-gen-resilient reports it: the
// response's errors one per line, then the warnings prefixed "warning: ";
// failed says whether there were errors.
func report(resp *pluginpb.CodeGeneratorResponse, warnings []diag.Diagnostic) ([]string, bool) {
	var lines []string
	if e := resp.GetError(); e != "" {
		lines = strings.Split(e, "\n")
	}
	for _, w := range warnings {
		lines = append(lines, "warning: "+w.Error())
	}
	return lines, resp.Error != nil
}
