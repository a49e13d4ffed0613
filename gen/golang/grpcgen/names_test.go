package grpcgen_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/gen/golang/grpcgen"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// greeter is a service hello.Greeter with one method of every kind.
func greeter() *ir.Service {
	svc := &ir.Service{Name: "Greeter", FullName: "hello.Greeter", Source: "hello.proto",
		GoPackage: ir.GoPackage{ImportPath: "example.com/hello", Name: "hello"},
		Location:  diag.Location{File: "hello.proto", Line: 6, Col: 1, Path: "hello.Greeter"}}
	msg := ir.GoIdent{ImportPath: "example.com/hello", Name: "M"}
	for i, kind := range []ir.StreamKind{ir.Unary, ir.ServerStreaming, ir.ClientStreaming, ir.BidiStreaming} {
		name := []string{"Hi", "Listen", "Tell", "Chat"}[i]
		svc.Operations = append(svc.Operations, &ir.Operation{Name: name, ID: name, Idempotency: ir.ReadOnly,
			RPC:      &ir.RPC{FullMethod: "/hello.Greeter/" + name, Name: name, Kind: kind, Input: msg, Output: msg},
			Location: diag.Location{File: "hello.proto", Line: 7 + i, Col: 3, Path: "hello.Greeter." + name}})
	}
	return svc
}

// TestNamesAreWhatIsDeclared: the names Names lists as the resilient
// client's are exactly the package-level names the emitted code declares,
// so that CheckNames checks what Emit writes.
func TestNamesAreWhatIsDeclared(t *testing.T) {
	svc, _, err := resolve.RPC(greeter(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := grpcgen.Emit(&buf, grpcgen.File{Source: "hello.proto", Package: svc.IR.GoPackage, Services: []*resolve.Service{svc}}); err != nil {
		t.Fatal(err)
	}
	file, err := parser.ParseFile(token.NewFileSet(), "hello_resilient.pb.go", buf.Bytes(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				declared = append(declared, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					declared = append(declared, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name != "_" {
							declared = append(declared, n.Name)
						}
					}
				}
			}
		}
	}
	var ours []string
	for name, what := range grpcgen.Names("Greeter") {
		if !strings.Contains(what, "protoc-gen-go-grpc") {
			ours = append(ours, name)
		}
	}
	slices.Sort(ours)
	slices.Sort(declared)
	if diff := cmp.Diff(ours, declared); diff != "" {
		t.Errorf("Names and the emitted declarations differ (-Names +emitted):\n%s", diff)
	}
}

// TestCheckNames: names declared twice in one Go package are reported at
// the later declaration, naming both.
func TestCheckNames(t *testing.T) {
	at := func(line int) diag.Location { return diag.Location{File: "hello.proto", Line: line, Col: 1} }
	tests := []struct {
		name     string
		declared []ir.Declaration
		services []*ir.Service
		want     []string
	}{
		{"no clash", []ir.Declaration{{Name: "M", What: "message hello.M", Location: at(5)}}, []*ir.Service{greeter()}, nil},
		{"a message named like the policy table", []ir.Declaration{{Name: "GreeterPolicy", What: "message hello.GreeterPolicy", Location: at(20)}},
			[]*ir.Service{greeter()},
			[]string{"hello.proto:20:1: E-NAME-COLLISION: the resilient client's policy table of service hello.Greeter and message hello.GreeterPolicy both map to Go name GreeterPolicy"}},
		{"a message named like protoc-gen-go-grpc's server", []ir.Declaration{{Name: "GreeterServer", What: "message hello.GreeterServer", Location: at(2)}},
			[]*ir.Service{greeter()},
			[]string{"hello.proto:6:1: E-NAME-COLLISION: message hello.GreeterServer and the server interface of protoc-gen-go-grpc of service hello.Greeter both map to Go name GreeterServer"}},
		{"two messages", []ir.Declaration{{Name: "Foo_Bar", What: "message hello.Foo.Bar", Location: at(3)}, {Name: "Foo_Bar", What: "message hello.Foo_Bar", Location: at(4)}},
			nil,
			[]string{"hello.proto:4:1: E-NAME-COLLISION: message hello.Foo.Bar and message hello.Foo_Bar both map to Go name Foo_Bar"}},
		{"a method named like the policy's own field", nil,
			[]*ir.Service{func() *ir.Service {
				s := greeter()
				s.Operations[0].Name, s.Operations[0].RPC.Name = "Dependency", "Dependency"
				return s
			}()},
			[]string{"hello.proto:7:3: E-NAME-RESERVED: rpc Dependency of service hello.Greeter maps to Go name Dependency, which the generated GreeterPolicy uses for the dependency-wide policy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range grpcgen.CheckNames(tt.declared, tt.services) {
				got = append(got, d.Error())
			}
			for i := range got {
				if i < len(tt.want) && !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("diagnostic %d = %q, want it to start %q", i, got[i], tt.want[i])
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("CheckNames = %q, want %d diagnostics %q", got, len(tt.want), tt.want)
			}
		})
	}
}
