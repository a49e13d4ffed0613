package grpcgen_test

import (
	"bytes"
	"fmt"
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
	"github.com/resilientgo/resilient/policyspec"
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

// fleetGreeter is greeter with a service option that declares a fleet.
func fleetGreeter(t *testing.T) *ir.Service {
	t.Helper()
	at := diag.Location{File: "hello.proto", Line: 6, Col: 1, Path: "hello.Greeter.(resilient.v1.service)"}
	spec, err := policyspec.DecodeValue(map[string]any{"fleet": map[string]any{"store": "cache"}}, at)
	if err != nil {
		t.Fatal(err)
	}
	svc := greeter()
	svc.Resilience = []ir.PolicyLayer{{Level: ir.LevelService, Spec: spec, Location: at}}
	return svc
}

// TestNamesAreWhatIsDeclared: the names Names lists as the resilient
// client's are exactly the package-level names the emitted code declares,
// with a fleet and without, so that CheckNames checks what Emit writes.
func TestNamesAreWhatIsDeclared(t *testing.T) {
	for _, fleet := range []bool{false, true} {
		t.Run(fmt.Sprintf("fleet=%v", fleet), func(t *testing.T) {
			in := greeter()
			if fleet {
				in = fleetGreeter(t)
			}
			testNamesAreWhatIsDeclared(t, in, fleet)
		})
	}
}

func testNamesAreWhatIsDeclared(t *testing.T, in *ir.Service, fleet bool) {
	svc, _, err := resolve.RPC(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if svc.Dependency.HasFleet() != fleet {
		t.Fatalf("HasFleet() = %v, want %v", svc.Dependency.HasFleet(), fleet)
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
	for name, what := range grpcgen.Names("Greeter", fleet) {
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

// resolved resolves the policy of svc, without a policy file.
func resolved(t *testing.T, svc *ir.Service) *resolve.Service {
	t.Helper()
	rs, _, err := resolve.RPC(svc, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestCheckNames: names declared twice in one Go package are reported at
// the later declaration, naming both; With<Service>Fleet is a name of the
// client only when its policy declares a fleet.
func TestCheckNames(t *testing.T) {
	at := func(line int) diag.Location { return diag.Location{File: "hello.proto", Line: line, Col: 1} }
	fleetOption := []ir.Declaration{{Name: "WithGreeterFleet", What: "message hello.WithGreeterFleet", Location: at(30)}}
	tests := []struct {
		name     string
		declared []ir.Declaration
		services []*resolve.Service
		want     []string
	}{
		{"no clash", []ir.Declaration{{Name: "M", What: "message hello.M", Location: at(5)}}, []*resolve.Service{resolved(t, greeter())}, nil},
		{"a message named like the policy table", []ir.Declaration{{Name: "GreeterPolicy", What: "message hello.GreeterPolicy", Location: at(20)}},
			[]*resolve.Service{resolved(t, greeter())},
			[]string{"hello.proto:20:1: E-NAME-COLLISION: the resilient client's policy table of service hello.Greeter and message hello.GreeterPolicy both map to Go name GreeterPolicy"}},
		{"a message named like protoc-gen-go-grpc's server", []ir.Declaration{{Name: "GreeterServer", What: "message hello.GreeterServer", Location: at(2)}},
			[]*resolve.Service{resolved(t, greeter())},
			[]string{"hello.proto:6:1: E-NAME-COLLISION: message hello.GreeterServer and the server interface of protoc-gen-go-grpc of service hello.Greeter both map to Go name GreeterServer"}},
		{"two messages", []ir.Declaration{{Name: "Foo_Bar", What: "message hello.Foo.Bar", Location: at(3)}, {Name: "Foo_Bar", What: "message hello.Foo_Bar", Location: at(4)}},
			nil,
			[]string{"hello.proto:4:1: E-NAME-COLLISION: message hello.Foo.Bar and message hello.Foo_Bar both map to Go name Foo_Bar"}},
		{"a method named like the policy's own field", nil,
			[]*resolve.Service{resolved(t, func() *ir.Service {
				s := greeter()
				s.Operations[0].Name, s.Operations[0].RPC.Name = "Dependency", "Dependency"
				return s
			}())},
			[]string{"hello.proto:7:3: E-NAME-RESERVED: rpc Dependency of service hello.Greeter maps to Go name Dependency, which the generated GreeterPolicy uses for the dependency-wide policy"}},
		{"a message named like the fleet option, with a fleet", fleetOption,
			[]*resolve.Service{resolved(t, fleetGreeter(t))},
			[]string{"hello.proto:30:1: E-NAME-COLLISION: a resilient client option of service hello.Greeter and message hello.WithGreeterFleet both map to Go name WithGreeterFleet"}},
		{"a message named like the fleet option, without a fleet", fleetOption,
			[]*resolve.Service{resolved(t, greeter())}, nil},
		{"a service whose policy did not resolve", fleetOption,
			[]*resolve.Service{{IR: fleetGreeter(t)}}, nil},
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
