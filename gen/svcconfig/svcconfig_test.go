package svcconfig

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// lines renders diagnostics as "file:line:col RULE", one per element.
func lines(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Location.String()+" "+string(d.Rule))
	}
	return out
}

func errs(err error) []diag.Diagnostic {
	if err == nil {
		return nil
	}
	return diag.From(err)
}

const pubsubLike = `{
  "methodConfig": [{
    "name": [{"service": "p.S", "method": "Get"}, {"service": "p.S", "method": "Create"}],
    "timeout": "60s",
    "retryPolicy": {
      "maxAttempts": 7,
      "initialBackoff": "0.250s",
      "maxBackoff": "32s",
      "backoffMultiplier": 1.3,
      "retryableStatusCodes": ["UNAVAILABLE", "INTERNAL", 10]
    }
  }, {
    "name": [{"service": "p.S"}],
    "timeout": "5s"
  }, {
    "name": [{}],
    "timeout": "9s",
    "waitForReady": true
  }]
}
`

// TestParseMapsOntoThePolicy: timeout, maxAttempts (at most 5), the
// backoff's base and cap become the entry's policy, each at its line and
// column; what has no counterpart is reported once per file.
func TestParseMapsOntoThePolicy(t *testing.T) {
	cfg, warnings, err := Parse("s.json", []byte(pubsubLike))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Methods) != 3 {
		t.Fatalf("%d method configs, want 3", len(cfg.Methods))
	}
	s := cfg.Methods[0].Spec
	got := []string{
		s.Timeout.Value.String() + "@" + s.Timeout.Loc.String() + " " + s.Timeout.Loc.Path,
		strconv.Itoa(s.Retry.MaxRetries.Value) + "@" + s.Retry.MaxRetries.Loc.String() + " " + s.Retry.MaxRetries.Loc.Path,
		s.Retry.Base.Value.String() + "@" + s.Retry.Base.Loc.String() + " " + s.Retry.Base.Loc.Path,
		s.Retry.Cap.Value.String() + "@" + s.Retry.Cap.Loc.String() + " " + s.Retry.Cap.Loc.Path,
	}
	want := []string{
		"1m0s@s.json:4:5 methodConfig[0].timeout",
		"4@s.json:6:7 methodConfig[0].retryPolicy.maxAttempts",
		"250ms@s.json:7:7 methodConfig[0].retryPolicy.initialBackoff",
		"32s@s.json:8:7 methodConfig[0].retryPolicy.maxBackoff",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("policy mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{
		"s.json:9:7 W-SVCCONFIG-IGNORED",
		"s.json:10:7 W-SVCCONFIG-CODES",
		"s.json:18:5 W-SVCCONFIG-IGNORED",
	}, lines(warnings)); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	for _, w := range warnings {
		if w.Rule == diag.RuleSvcCodes && !strings.Contains(w.Message, "INTERNAL, ABORTED, which the client never retries") {
			t.Errorf("codes warning %q does not list INTERNAL and ABORTED (10)", w.Message)
		}
	}
	if got := cfg.Methods[1].Names; len(got) != 1 || got[0].String() != "p.S/*" {
		t.Errorf("second entry names %v, want p.S/*", got)
	}
}

// TestParseErrors: malformed JSON, unknown fields, wrong types and what
// gRPC refuses are E-SVCCONFIG at their line and column, with a fix.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // "line:col" and a part of the message or fix
		part      string
	}{
		{"syntax", "{\n  \"methodConfig\": [\n    {\"name\": [}]\n}", "3:15", "not valid JSON"},
		{"truncated", "{\"methodConfig\": [", "1:19", "ends too early"},
		{"trailing text", "{}\n{}", "2:1", "text after"},
		{"unknown field", "{\"methodConfig\": [{\"name\": [{}], \"timout\": \"1s\"}]}", "1:34", `did you mean "timeout"?`},
		{"snake_case is protobuf JSON too", "{\"method_config\": [{\"name\": [{}], \"retry_policy\": {\"max_attempts\": 1, \"retryable_status_codes\": [\"UNAVAILABLE\"]}}]}", "1:52", "at least 2"},
		{"duplicate key", "{\"methodConfig\": [],\n \"methodConfig\": []}", "2:2", "written twice"},
		{"wrong type", "{\"methodConfig\": {}}", "1:2", "want a list"},
		{"bad duration", "{\"methodConfig\": [{\"name\": [{}], \"timeout\": \"5\"}]}", "1:34", "does not end in s"},
		{"bad code", "{\"methodConfig\": [{\"name\": [{}], \"retryPolicy\": {\"maxAttempts\": 2, \"retryableStatusCodes\": [\"UNAVAILBLE\"]}}]}", "1:93", `did you mean "UNAVAILABLE"?`},
		{"no codes", "{\"methodConfig\": [{\"name\": [{}], \"retryPolicy\": {\"maxAttempts\": 2}}]}", "1:34", "requires them"},
		{"method without service", "{\"methodConfig\": [{\"name\": [{\"method\": \"Get\"}]}]}", "1:29", "without its service"},
		{"both policies", "{\"methodConfig\": [{\"name\": [{}], \"retryPolicy\": {\"maxAttempts\": 2, \"retryableStatusCodes\": [14]}, \"hedgingPolicy\": {\"maxAttempts\": 2}}]}", "1:99", "one of them"},
		{"not an object", "[]", "1:1", "want a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse("c.json", []byte(tt.src))
			ds := errs(err)
			if len(ds) == 0 {
				t.Fatalf("no error, want one at %s", tt.want)
			}
			found := false
			for _, d := range ds {
				at := strings.TrimPrefix(d.Location.String(), "c.json:")
				if d.Rule == diag.RuleSvcConfig && at == tt.want && strings.Contains(d.Message+"; "+d.Fix, tt.part) {
					found = true
				}
				if d.Fix == "" {
					t.Errorf("%v has no fix", d)
				}
			}
			if !found {
				t.Errorf("got %v, want E-SVCCONFIG at %s with %q", err, tt.want, tt.part)
			}
		})
	}
}

// rpcOp is an operation of p.S named name.
func rpcOp(name string, kind ir.StreamKind, idem ir.Idempotency) *ir.Operation {
	return &ir.Operation{Name: name, ID: name, Idempotency: idem,
		RPC:      &ir.RPC{FullMethod: "/p.S/" + name, Name: name, Kind: kind, IdempotencyBasis: "from google.api.http POST"},
		Location: diag.Location{File: "s.proto", Line: 7, Col: 3, Path: "p.S." + name}}
}

// TestApplyPicksAsGRPCDoes: the entry naming the method wins over the
// service's, which wins over the default; the layer sits below the
// policy file, and its origin names the file.
func TestApplyPicksAsGRPCDoes(t *testing.T) {
	cfg, _, err := Parse("dir/s_grpc_service_config.json", []byte(pubsubLike))
	if err != nil {
		t.Fatal(err)
	}
	get, list, create := rpcOp("Get", ir.Unary, ir.ReadOnly), rpcOp("List", ir.Unary, ir.ReadOnly), rpcOp("Create", ir.Unary, ir.Idempotent)
	other := &ir.Service{Name: "T", FullName: "q.T", Operations: []*ir.Operation{{Name: "Ping", ID: "Ping", RPC: &ir.RPC{FullMethod: "/q.T/Ping", Name: "Ping"}}}}
	svc := &ir.Service{Name: "S", FullName: "p.S", Operations: []*ir.Operation{get, list, create}}
	_, warnings, err := Apply([]*Config{cfg}, []*ir.Service{svc, other})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("Apply: %v, warnings %v", err, warnings)
	}
	file, err := policyspec.DecodeFile("policy.yaml", []byte("dependencies:\n  p.S:\n    operations:\n      List: {timeout: 3s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*ir.Service{svc, other} {
		f := file
		if s == other {
			f = nil
		}
		res, _, err := resolve.RPC(s, f)
		if err != nil {
			t.Fatalf("resolve %s: %v", s.FullName, err)
		}
		for _, op := range res.Operations {
			got := op.Policy.Policy.Timeout.String() + " (" + op.Policy.Sources["timeout"].Note() + ")"
			want := map[string]string{
				"Get":    "1m0s (service config s_grpc_service_config.json)",
				"Create": "1m0s (service config s_grpc_service_config.json)",
				"List":   "3s ()",
				"Ping":   "9s (service config s_grpc_service_config.json)",
			}[op.Name]
			if got != want {
				t.Errorf("%s timeout = %s, want %s", op.Name, got, want)
			}
		}
		if s == svc {
			if got := res.Operations[0].Policy.Policy.Retry.MaxRetries; got != 4 {
				t.Errorf("Get retries = %d, want 4 (7 attempts count as 5)", got)
			}
		}
	}
}

// TestApplyReportsWhatIsNotTakenUp: a retry policy on a method that is
// not idempotent or whose client streams, a hedging policy on a write, a
// name matching no method of a generated service or package, a method
// named twice.
func TestApplyReportsWhatIsNotTakenUp(t *testing.T) {
	const src = `{"methodConfig": [
{"name": [{"service": "p.S", "method": "Create"}, {"service": "p.S", "method": "Stream"}, {"service": "p.S", "method": "Gett"}],
 "retryPolicy": {"maxAttempts": 3, "retryableStatusCodes": ["UNAVAILABLE"]}},
{"name": [{"service": "p.S", "method": "Put"}], "hedgingPolicy": {"maxAttempts": 2, "hedgingDelay": "0.1s"}},
{"name": [{"service": "p.Typo"}, {"service": "other.pkg.S"}], "timeout": "1s"}
]}`
	cfg, _, err := Parse("c.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	svc := &ir.Service{Name: "S", FullName: "p.S", Operations: []*ir.Operation{
		rpcOp("Create", ir.Unary, ir.NotIdempotent), rpcOp("Stream", ir.BidiStreaming, ir.Idempotent),
		rpcOp("Get", ir.Unary, ir.ReadOnly), rpcOp("Put", ir.Unary, ir.Idempotent)}}
	applied, warnings, err := Apply([]*Config{cfg}, []*ir.Service{svc})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{
		"c.json:2:91 W-SVCCONFIG-UNUSED",
		"c.json:5:11 W-SVCCONFIG-UNUSED",
	}, lines(warnings)); diff != "" {
		t.Errorf("Apply warnings mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(warnings[0].Fix, `did you mean "Get"?`) {
		t.Errorf("unused method fix %q has no suggestion", warnings[0].Fix)
	}
	res, _, err := resolve.RPC(svc, nil)
	if err != nil {
		t.Fatalf("a service config's policy on a stream or a write must not be an error: %v", err)
	}
	checked := applied.Check([]*resolve.Service{res})
	if diff := cmp.Diff([]string{
		"c.json:3:2 W-SVCCONFIG-UNSAFE",
		"c.json:3:2 W-SVCCONFIG-UNSAFE",
		"c.json:4:49 W-SVCCONFIG-UNSAFE",
	}, lines(checked)); diff != "" {
		t.Errorf("Check mismatch (-want +got):\n%s", diff)
	}
	for _, d := range checked {
		if strings.Contains(d.Fix, "idempotent: true") || strings.Contains(d.Fix, "idempotencyKey:") {
			t.Errorf("%v gives policy-file advice for a .proto method", d)
		}
	}
	for _, op := range res.Operations {
		p := op.Policy.Policy
		if op.Name != "Get" && (op.Name != "Put" && p.Retry.MaxRetries > 0 || p.Hedge.MaxHedges > 0) {
			t.Errorf("%s: retries %d, hedges %d: a policy not taken up was applied", op.Name, p.Retry.MaxRetries, p.Hedge.MaxHedges)
		}
	}
	if got := res.Operations[0].Policy.Policy.Idempotency; got != runtime.NotIdempotent {
		t.Errorf("Create is %v", got)
	}

	// Two methods a policy is not applied to for one reason: one warning
	// names both.
	svc2 := &ir.Service{Name: "S", FullName: "p.S", Operations: []*ir.Operation{
		rpcOp("Create", ir.Unary, ir.NotIdempotent), rpcOp("Gett", ir.Unary, ir.NotIdempotent)}}
	applied2, _, err := Apply([]*Config{cfg}, []*ir.Service{svc2})
	if err != nil {
		t.Fatal(err)
	}
	res2, _, err := resolve.RPC(svc2, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := applied2.Check([]*resolve.Service{res2})
	if len(got) != 1 || !strings.Contains(got[0].Message, "/p.S/Create (not idempotent: from google.api.http POST), /p.S/Gett (not idempotent: from google.api.http POST): they are not idempotent") ||
		!strings.Contains(got[0].Fix, "if repeating Create or Gett is harmless, write option idempotency_level = IDEMPOTENT;") {
		t.Errorf("Check = %v, want one warning naming Create and Gett", got)
	}

	_, _, err = Apply([]*Config{cfg, cfg}, []*ir.Service{svc})
	var d diag.Diagnostic
	if !errors.As(err, &d) || d.Rule != diag.RuleSvcConfig || !strings.Contains(d.Message, "named twice") {
		t.Errorf("a method named in two configs: %v, want E-SVCCONFIG", err)
	}
}

// TestUnusedConfig: a config that names no method of the run at all is
// said once.
func TestUnusedConfig(t *testing.T) {
	cfg, _, err := Parse("c.json", []byte(`{"methodConfig": [{"name": [{"service": "z.Z"}], "timeout": "1s"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, warnings, _ := Apply([]*Config{cfg}, []*ir.Service{{Name: "S", FullName: "p.S"}})
	if diff := cmp.Diff([]string{"c.json:1:19 W-SVCCONFIG-UNUSED"}, lines(warnings)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestNoName: a methodConfig without a name applies to nothing, and is
// said so.
func TestNoName(t *testing.T) {
	cfg, warnings, err := Parse("c.json", []byte(`{"methodConfig": [{"timeout": "1s"}]}`))
	if err != nil || cfg == nil {
		t.Fatalf("Parse: %v", err)
	}
	if diff := cmp.Diff([]string{"c.json:1:19 W-SVCCONFIG-UNUSED"}, lines(warnings)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
