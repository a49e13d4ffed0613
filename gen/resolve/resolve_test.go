package resolve_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// layer is the policy value v decoded as a front end gives it, every
// field located at loc.
func layer(level ir.Level, v map[string]any, loc diag.Location) ir.PolicyLayer {
	spec, err := policyspec.DecodeValue(v, loc)
	if err != nil {
		panic(err)
	}
	return ir.PolicyLayer{Level: level, Spec: spec, Location: loc}
}

// httpOp is an HTTP operation of api.yaml named name (operationId id),
// with its x-resilience value, if any, at line 10.
func httpOp(name, id, method string, ext map[string]any) *ir.Operation {
	op := &ir.Operation{Name: name, ID: id, Method: method, Path: "/" + id,
		Idempotency: ir.MethodIdempotency(method),
		Location:    diag.Location{File: "api.yaml", Line: 5, Col: 3, Path: "#/paths/~1" + id + "/" + strings.ToLower(method)}}
	if ext != nil {
		op.Resilience = []ir.PolicyLayer{layer(ir.LevelOperation, ext, diag.Location{File: "api.yaml", Line: 10, Col: 7, Path: op.Path + "/x-resilience"})}
	}
	return op
}

// rpcOp is a method of the gRPC service p.S written as rpc, of kind, with
// its (resilient.v1.method) option value, if any.
func rpcOp(rpc string, kind ir.StreamKind, idem ir.Idempotency, option map[string]any) *ir.Operation {
	op := &ir.Operation{Name: strings.ToUpper(rpc[:1]) + rpc[1:], ID: rpc, Idempotency: idem,
		RPC:      &ir.RPC{FullMethod: "/p.S/" + rpc, Name: rpc, Kind: kind, Output: ir.GoIdent{Name: "M"}},
		Location: diag.Location{File: "s.proto", Line: 7, Col: 3, Path: "p.S." + rpc}}
	if option != nil {
		op.Resilience = []ir.PolicyLayer{layer(ir.LevelOperation, option, diag.Location{File: "s.proto", Line: 7, Col: 3, Path: "p.S." + rpc + ".(resilient.v1.method)"})}
	}
	return op
}

func rpcService(ops ...*ir.Operation) *ir.Service {
	return &ir.Service{Name: "S", FullName: "p.S", Source: "s.proto", Operations: ops,
		Location: diag.Location{File: "s.proto", Line: 6, Col: 1, Path: "p.S"}}
}

func decodeFile(t *testing.T, text string) *policyspec.File {
	t.Helper()
	if text == "" {
		return nil
	}
	f, err := policyspec.DecodeFile("policy.yaml", []byte(text))
	if err != nil {
		t.Fatalf("DecodeFile: %v", err)
	}
	return f
}

// rules renders diagnostics as "file:line:col RULE", one per element.
func rules(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Location.String()+" "+string(d.Rule))
	}
	return out
}

// errorRules is rules of the diagnostics joined in err.
func errorRules(err error) []string {
	if err == nil {
		return nil
	}
	var ds []diag.Diagnostic
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		ds = append(ds, e.(diag.Diagnostic))
	}
	return rules(ds)
}

// TestOperationsCarryTheirPolicy: every operation of the result is the
// IR's operation, in the IR's order, with the policy resolved for it.
func TestOperationsCarryTheirPolicy(t *testing.T) {
	svc := &ir.Service{Name: "API", Operations: []*ir.Operation{
		httpOp("ListPets", "listPets", "GET", nil),
		httpOp("CreatePet", "createPet", "POST", map[string]any{"timeout": "3s"}),
		httpOp("DeletePet", "deletePet", "DELETE", nil),
	}}
	res, _, err := resolve.HTTP(svc, "api", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Operations) != len(svc.Operations) || res.IR != svc {
		t.Fatalf("HTTP = %d operations of %p, want %d of %p", len(res.Operations), res.IR, len(svc.Operations), svc)
	}
	for i, op := range res.Operations {
		if op.Operation != svc.Operations[i] || op.Policy.Name != op.Name {
			t.Errorf("operation %d = %s with the policy of %s, want %s with its own", i, op.Name, op.Policy.Name, svc.Operations[i].Name)
		}
	}
	if got := res.Operations[1].Policy.Policy.Timeout; got != 3*time.Second {
		t.Errorf("CreatePet timeout = %v, want 3s from its x-resilience", got)
	}
	if got := res.Operations[0].Policy.Policy.Idempotency; got != runtime.ReadOnly {
		t.Errorf("ListPets idempotency = %v, want read-only from GET", got)
	}
}

// TestDiagnosticsAtTheirKeys: the rules of resolution point at the key
// that breaks them, where the front end placed it, across layers.
func TestDiagnosticsAtTheirKeys(t *testing.T) {
	const ptr = "#/paths/~1things/post/x-resilience"
	tests := []struct {
		name       string
		item, op   string // the path item's and the operation's x-resilience, as YAML
		idempotent bool
		want       []string
	}{
		{"retries on a plain POST, at maxRetries", "", "timeout: 2s\nretry:\n  maxRetries: 2\n", false,
			[]string{"api.yaml:3:3 E-RETRY-UNSAFE"}},
		{"an attempt timeout not below the total, at the narrower key", "timeout: 1s\n", "attemptTimeout: 2s\n", true,
			[]string{"api.yaml:1:1 E-TIMEOUT-ORDER"}},
		{"a fallback on a write, at its kind", "", "\n\nfallback:\n  kind: cached\n", false,
			[]string{"api.yaml:4:3 E-FALLBACK-UNSAFE"}},
	}
	decode := func(t *testing.T, file, text string) []ir.PolicyLayer {
		if text == "" {
			return nil
		}
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(text), &n); err != nil {
			t.Fatal(err)
		}
		spec, err := policyspec.DecodeNode(&n, diag.Location{File: file, Path: ptr})
		if err != nil {
			t.Fatal(err)
		}
		return []ir.PolicyLayer{{Level: ir.LevelOperation, Spec: spec, Location: diag.Location{File: file, Line: 1, Col: 1, Path: ptr}}}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := httpOp("AddThing", "addThing", "POST", nil)
			op.Resilience = append(decode(t, "item.yaml", tt.item), decode(t, "api.yaml", tt.op)...)
			if len(op.Resilience) == 2 {
				op.Resilience[0].Level = ir.LevelPathItem
			}
			if tt.idempotent {
				op.Idempotency = ir.Idempotent
			}
			_, _, err := resolve.HTTP(&ir.Service{Name: "API", Operations: []*ir.Operation{op}}, "api", nil)
			if diff := cmp.Diff(tt.want, errorRules(err)); diff != "" {
				t.Errorf("HTTP diagnostics mismatch (-want +got):\n%s\nerror: %v", diff, err)
			}
		})
	}
}

// TestPolicyFileLookup: a policy file entry for an operation may name it
// by its operationId (an rpc by its name as written) or by its Go name;
// an entry that names nothing is an error.
func TestPolicyFileLookup(t *testing.T) {
	tests := []struct {
		name    string
		rpc     bool
		file    string
		op      string // the operation whose timeout is checked
		timeout time.Duration
		errs    []string
	}{
		{"HTTP, by operationId", false, "dependencies:\n  api:\n    operations:\n      listPets: {timeout: 4s}\n", "ListPets", 4 * time.Second, nil},
		{"HTTP, by Go name", false, "dependencies:\n  api:\n    operations:\n      ListPets: {timeout: 5s}\n", "ListPets", 5 * time.Second, nil},
		{"HTTP, an unknown name", false, "dependencies:\n  api:\n    operations:\n      listPet: {timeout: 5s}\n", "ListPets", runtime.DefaultTimeout,
			[]string{"policy.yaml:4:7 E-POLICY-UNUSED"}},
		{"RPC, by rpc name", true, "dependencies:\n  p.S:\n    operations:\n      get_item: {timeout: 4s}\n", "GetItem", 4 * time.Second, nil},
		{"RPC, by Go name", true, "dependencies:\n  p.S:\n    operations:\n      GetItem: {timeout: 5s}\n", "GetItem", 5 * time.Second, nil},
		{"RPC, beside another service's entry, for the run to check", true, "dependencies:\n  p.T:\n    timeout: 9s\n  p.S:\n    operations:\n      get_item: {timeout: 4s}\n", "GetItem", 4 * time.Second, nil},
		{"HTTP, beside an entry of no dependency", false, "dependencies:\n  other: {}\n  api:\n    operations:\n      listPets: {timeout: 4s}\n", "ListPets", 0,
			[]string{"policy.yaml:2:3 E-POLICY-UNUSED"}},
		{"RPC, an unknown name", true, "dependencies:\n  p.S:\n    operations:\n      getitem: {timeout: 5s}\n", "GetItem", 0,
			[]string{"policy.yaml:4:7 E-POLICY-UNUSED"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := decodeFile(t, tt.file)
			var res *resolve.Service
			var err error
			if tt.rpc {
				op := rpcOp("get_item", ir.Unary, ir.ReadOnly, nil)
				op.Name = "GetItem"
				res, _, err = resolve.RPC(rpcService(op), file)
			} else {
				res, _, err = resolve.HTTP(&ir.Service{Name: "API", Operations: []*ir.Operation{httpOp("ListPets", "listPets", "GET", nil)}}, "api", file)
			}
			if diff := cmp.Diff(tt.errs, errorRules(err)); diff != "" {
				t.Fatalf("diagnostics mismatch (-want +got):\n%s\nerror: %v", diff, err)
			}
			if tt.errs != nil {
				return
			}
			if got := res.Operations[0].Policy.Policy.Timeout; got != tt.timeout {
				t.Errorf("%s timeout = %v, want %v", tt.op, got, tt.timeout)
			}
		})
	}
}

// TestStreamRules: a method whose client streams is never retried nor
// hedged, and asking for it on the method is an error; a fallback on any
// stream is an error; a static fallback on any RPC is an error and left
// out.
func TestStreamRules(t *testing.T) {
	retry := map[string]any{"retry": map[string]any{"maxRetries": 2}}
	hedge := map[string]any{"hedge": map[string]any{"delay": "50ms"}}
	cached := map[string]any{"fallback": map[string]any{"kind": "cached"}}
	const noRetries = -1
	static := map[string]any{"fallback": map[string]any{"kind": "static", "value": map[string]any{}}}
	tests := []struct {
		name   string
		kind   ir.StreamKind
		option map[string]any
		// fileRetry puts a retry block on the (resilient.v1.file) option.
		fileRetry bool
		errs      []string
		// wantRetries is the resolved MaxRetries, unchecked when zero;
		// noRetries means none (Retry.Disabled).
		wantRetries  int
		wantFallback bool
	}{
		{"unary, retried", ir.Unary, retry, false, nil, 2, false},
		{"client stream, retry on the method", ir.ClientStreaming, retry, false, []string{"s.proto:7:3 E-RETRY-STREAM"}, noRetries, false},
		{"bidi stream, hedge on the method", ir.BidiStreaming, hedge, false, []string{"s.proto:7:3 E-RETRY-STREAM"}, noRetries, false},
		{"client stream, retry from the file: left out", ir.ClientStreaming, nil, true, nil, noRetries, false},
		{"server stream, retry from the file: kept", ir.ServerStreaming, nil, true, nil, 3, false},
		{"server stream, cached fallback", ir.ServerStreaming, cached, false, []string{"s.proto:7:3 E-FALLBACK-STREAM"}, 0, false},
		{"unary, static fallback", ir.Unary, static, false, []string{"s.proto:7:3 E-FALLBACK-STATIC"}, 0, false},
		{"unary, cached fallback", ir.Unary, cached, false, nil, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := rpcService(rpcOp("Op", tt.kind, ir.ReadOnly, tt.option))
			if tt.fileRetry {
				svc.Resilience = []ir.PolicyLayer{layer(ir.LevelDocument, map[string]any{"retry": map[string]any{"maxRetries": 3}},
					diag.Location{File: "s.proto", Line: 3, Col: 1, Path: "p.(resilient.v1.file)"})}
			}
			res, _, err := resolve.RPC(svc, nil)
			if diff := cmp.Diff(tt.errs, errorRules(err)); diff != "" {
				t.Fatalf("diagnostics mismatch (-want +got):\n%s\nerror: %v", diff, err)
			}
			p := res.Operations[0].Policy.Policy
			if p.Name != "/p.S/Op" {
				t.Errorf("policy name = %q, want the full method /p.S/Op", p.Name)
			}
			switch {
			case tt.wantRetries == noRetries && (!p.Retry.Disabled || p.Retry.MaxRetries != 0):
				t.Errorf("Retry = %+v, want Disabled", p.Retry)
			case tt.wantRetries > 0 && (p.Retry.MaxRetries != tt.wantRetries || p.Retry.Disabled):
				t.Errorf("Retry = %+v, want %d retries", p.Retry, tt.wantRetries)
			}
			if tt.wantRetries == noRetries && (p.Hedge != runtime.HedgePolicy{}) {
				t.Errorf("Hedge = %+v, want none on a stream of requests", p.Hedge)
			}
			if got := p.Fallback.Kind != runtime.FallbackNone; got != tt.wantFallback {
				t.Errorf("Fallback = %v, want one: %v", p.Fallback.Kind, tt.wantFallback)
			}
		})
	}
}

// TestKeysNotForGRPC: connectTimeout and deadlineHeader written for a
// gRPC service are left out of its policy with a warning each; the
// policy file's defaults, which serve HTTP dependencies too, are left out
// without one.
func TestKeysNotForGRPC(t *testing.T) {
	tests := []struct {
		name     string
		file     string
		option   map[string]any
		warnings []string
	}{
		{"from the policy file's defaults: silent", "defaults:\n  connectTimeout: 200ms\n  deadlineHeader: X-Budget\n", nil, nil},
		{"for the service in the policy file", "dependencies:\n  p.S:\n    connectTimeout: 200ms\n    deadlineHeader: false\n", nil,
			[]string{"policy.yaml:3:5 W-KEY-NOT-GRPC", "policy.yaml:4:5 W-KEY-NOT-GRPC"}},
		{"on the method", "", map[string]any{"connectTimeout": "200ms"}, []string{"s.proto:7:3 W-KEY-NOT-GRPC"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, warnings, err := resolve.RPC(rpcService(rpcOp("Op", ir.Unary, ir.ReadOnly, tt.option)), decodeFile(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.warnings, rules(warnings)); diff != "" {
				t.Errorf("warnings mismatch (-want +got):\n%s", diff)
			}
			if res.Dependency.DeadlineHeader != "" || res.Operations[0].Policy.Policy.ConnectTimeout != 0 {
				t.Errorf("deadline header %q, connect timeout %v; want both left out", res.Dependency.DeadlineHeader, res.Operations[0].Policy.Policy.ConnectTimeout)
			}
		})
	}
}

// TestSharedFallbackOnSecuredOperation: a cached fallback on an operation
// whose credentials the request does not carry must be declared shared.
func TestSharedFallbackOnSecuredOperation(t *testing.T) {
	cached := map[string]any{"fallback": map[string]any{"kind": "cached"}}
	tests := []struct {
		name   string
		scheme ir.SchemeKind // 0: not secured
		ext    map[string]any
		errs   []string
	}{
		{"client certificate, not shared", ir.SchemeMutualTLS, cached, []string{"api.yaml:10:7 E-FALLBACK-SHARED"}},
		{"client certificate, shared", ir.SchemeMutualTLS, map[string]any{"fallback": map[string]any{"kind": "cached", "shared": true}}, nil},
		{"bearer token the client sends", ir.SchemeBearer, cached, nil},
		{"not secured", 0, cached, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := httpOp("GetPet", "getPet", "GET", tt.ext)
			svc := &ir.Service{Name: "API", Operations: []*ir.Operation{op}}
			if tt.scheme != 0 {
				op.Secured = true
				op.Security = []ir.SecurityRequirement{{Schemes: []ir.SchemeUse{{Scheme: "s"}}}}
				svc.SecuritySchemes = []*ir.SecurityScheme{{Name: "s", Kind: tt.scheme}}
			}
			_, _, err := resolve.HTTP(svc, "api", nil)
			if diff := cmp.Diff(tt.errs, errorRules(err)); diff != "" {
				t.Errorf("diagnostics mismatch (-want +got):\n%s\nerror: %v", diff, err)
			}
		})
	}
}
