package protocgen_test

import (
	"errors"
	"io/fs"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/resilientgo/resilient/gen/protoir/prototest"
)

// FuzzProtoParameter feeds arbitrary plugin parameters (what protoc passes after
// --resilient_opt) to the plugin: it must answer with files or an error in
// the response, never panic, and never read a file it was not named.
func FuzzProtoParameter(f *testing.F) {
	req, err := prototest.Request(nil, map[string]string{"x.proto": "syntax = \"proto3\";\npackage p;\noption go_package = \"example.com/p\";\nmessage M {}\nservice S { rpc A(M) returns (M); }\n"}, "", "x.proto")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range []string{"", "paths=source_relative", "module=example.com", "policy=p.yaml,review=R.md",
		"Mx.proto=example.com/q", "review=", "policy", "paths=bogus", "unknown=1", ",,,", "policy=a=b"} {
		f.Add(p)
	}
	readFile := func(name string) ([]byte, error) {
		if name == "p.yaml" {
			return []byte("defaults:\n  timeout: 2s\n"), nil
		}
		return nil, errors.New("no such file")
	}
	f.Fuzz(func(t *testing.T, parameter string) {
		r := proto.Clone(req).(*pluginpb.CodeGeneratorRequest)
		r.Parameter = proto.String(parameter)
		resp := runProto(r, readFile, nil)
		if resp.GetError() == "" && len(resp.File) == 0 {
			t.Errorf("parameter %q: no error and no file", parameter)
		}
		for _, f := range resp.File {
			if !fs.ValidPath(f.GetName()) {
				t.Errorf("parameter %q: file %q is not a relative path inside the output directory", parameter, f.GetName())
			}
		}
	})
}
