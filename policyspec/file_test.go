package policyspec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const examplePolicy = `defaults:
  connectTimeout: 300ms
  retry:
    budget: 10%
dependencies:
  inventory:
    latency: {p50: 20ms, p95: 90ms, p99: 180ms, p999: 350ms, rps: 200}
    breaker: {failureRate: 50, minimumCalls: 20, window: 10s, openFor: 30s}
    operations:
      ReserveItem:
        idempotencyKey: Idempotency-Key
      GetItem:
        hedge: {maxHedges: 1}
        fallback: {kind: cached, ttl: 5m}
  billing: {}
`

func TestDecodeFile(t *testing.T) {
	f, err := DecodeFile("policy.yaml", []byte(examplePolicy))
	if err != nil {
		t.Fatalf("DecodeFile: %v", err)
	}
	type summary struct {
		Defaults []string
		Deps     map[string][]string
		Ops      map[string][]string
	}
	got := summary{Defaults: flat(f.Defaults), Deps: map[string][]string{}, Ops: map[string][]string{}}
	var order []string
	for _, d := range f.Dependencies {
		order = append(order, d.Name)
		got.Deps[d.Name] = flat(d.Spec)
		for _, o := range d.Operations {
			order = append(order, d.Name+"/"+o.Name)
			got.Ops[d.Name+"/"+o.Name] = flat(o.Spec)
		}
	}
	want := summary{
		Defaults: []string{"connectTimeout=300ms@2:3", "retry.budget=0.1@4:5"},
		Deps: map[string][]string{
			"billing": nil,
			"inventory": {"breaker.failureRate=50@8:15", "breaker.minimumCalls=20@8:32", "breaker.window=10s@8:50", "breaker.openFor=30s@8:63",
				"latency.p50=20ms@7:15", "latency.p95=90ms@7:26", "latency.p99=180ms@7:37", "latency.p999=350ms@7:49", "latency.rps=200@7:62"},
		},
		Ops: map[string][]string{
			"inventory/GetItem":     {"hedge.maxHedges=1@13:17", "fallback.kind=cached@14:20", "fallback.ttl=5m0s@14:34"},
			"inventory/ReserveItem": {"idempotencyKey=Idempotency-Key@11:9"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DecodeFile mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"billing", "inventory", "inventory/GetItem", "inventory/ReserveItem"}, order); diff != "" {
		t.Errorf("DecodeFile order mismatch (-want +got):\n%s", diff)
	}
	if got := len(f.DependencyLayers("inventory")); got != 2 {
		t.Errorf("DependencyLayers(inventory) has %d layers, want 2", got)
	}
	if got := len(f.DependencyLayers("unknown")); got != 1 {
		t.Errorf("DependencyLayers(unknown) has %d layers, want 1 (the defaults)", got)
	}
	if got := f.OperationLayers("inventory", "GetItem"); len(got) != 1 || got[0].Kind != LayerFileOperation {
		t.Errorf("OperationLayers(inventory, GetItem) = %v, want one policy file operation layer", got)
	}
	var none *File
	if none.DependencyLayers("x") != nil || none.OperationLayers("x", "y") != nil || none.CheckNames(nil) != nil {
		t.Errorf("a nil *File must have no layers and no problems")
	}
}

func TestDecodeFileErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{name: "empty file", src: ""},
		{name: "comment only", src: "# nothing yet\n"},
		{
			name: "yaml syntax",
			src:  "defaults: [1, 2\n",
			want: []string{"policy.yaml:2: E-YAML: line 2: did not find expected ',' or ']'; fix the yaml syntax"},
		},
		{
			name: "tab indentation",
			src:  "defaults:\n\ttimeout: 1s\n",
			want: []string{"policy.yaml:2: E-YAML: line 2: found character that cannot start any token; tabs are not allowed in yaml indentation; indent with spaces"},
		},
		{
			name: "not a mapping",
			src:  "- a\n- b\n",
			want: []string{`policy.yaml:1:1: E-TYPE: policy file must be a mapping with defaults and dependencies, found a list`},
		},
		{
			name: "every problem in one pass, sorted",
			src: `dependencis: {}
defaults:
  breaker: {window: 0s}
  idempotent: true
dependencies:
  inventory:
    operations:
      GetItem:
        bulkhead: {maxConcurrent: 8}
        retry: {maxRetries: 9}
  billing:
    operations: [a]
`,
			want: []string{
				`policy.yaml:1:1: E-EXT-UNKNOWN: unknown key "dependencis" in policy file (/dependencis); did you mean "dependencies"?`,
				`policy.yaml:3:13: E-BREAKER-WINDOW: breaker.window "0s" must be a positive Go duration (it is zero) (/defaults/breaker/window); write e.g. "30s"`,
				`policy.yaml:4:3: E-SCOPE: idempotent describes one operation and cannot be set on the policy file defaults (/defaults/idempotent); set it on each operation it is true of`,
				`policy.yaml:9:20: E-SCOPE: bulkhead.maxConcurrent is dependency-wide and cannot be set on the policy file operation (/dependencies/inventory/operations/GetItem/bulkhead/maxConcurrent); move it to the dependency (policy file dependency entry, spec root or proto service option)`,
				`policy.yaml:10:17: E-RANGE: retry.maxRetries 9 must be in [0, 5] (/dependencies/inventory/operations/GetItem/retry/maxRetries); more than 5 retries multiplies load during an incident; use 2 (the default) or fewer`,
				`policy.yaml:12:17: E-TYPE: operations must be a mapping from operation names to policies, found a list (/dependencies/billing/operations)`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := DecodeFile("policy.yaml", []byte(tt.src))
			if f == nil {
				t.Fatal("DecodeFile returned a nil *File")
			}
			if diff := cmp.Diff(tt.want, messages(err)); diff != "" {
				t.Errorf("DecodeFile errors mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckNames(t *testing.T) {
	f, err := DecodeFile("policy.yaml", []byte(`dependencies:
  inventroy: {timeout: 1s}
  billing:
    operations:
      Charge: {}
      Refnd: {}
`))
	if err != nil {
		t.Fatalf("DecodeFile: %v", err)
	}
	err = f.CheckNames(map[string][]string{"inventory": {"GetItem"}, "billing": {"Charge", "Refund"}})
	want := []string{
		`policy.yaml:2:3: E-POLICY-UNUSED: policy file names dependency "inventroy", which does not exist (/dependencies/inventroy); did you mean "inventory"?`,
		`policy.yaml:6:7: E-POLICY-UNUSED: policy file names operation of billing "Refnd", which does not exist (/dependencies/billing/operations/Refnd); did you mean "Refund"?`,
	}
	if diff := cmp.Diff(want, messages(err)); diff != "" {
		t.Errorf("CheckNames mismatch (-want +got):\n%s", diff)
	}
}

// TestDecodeFileQuotesLittle: a file that is not a policy (a private key
// given by mistake, a value pasted whole) is quoted by at most the start
// of its offending line.
func TestDecodeFileQuotesLittle(t *testing.T) {
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAAAAAAAEAAAAzAAAAC3NzaC1lZDI1NTE5AAAAIG\n-----END OPENSSH PRIVATE KEY-----\n"
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name, data, want string
	}{
		{"private key", key,
			`id:1:1: E-TYPE: policy file must be a mapping with defaults and dependencies, found "-----BEGIN OPENSSH PRIVATE KEY-----"…`},
		{"long value", "defaults:\n  timeout: " + long + "\n",
			`id:2:3: E-DURATION: timeout "` + strings.Repeat("x", 120) + `"… must be a positive Go duration (it is not a Go duration) (/defaults/timeout); write e.g. "800ms"`},
		{"multi-line key", "defaults:\n  ? |\n    first line\n    AAAA-secret\n  : 1\n",
			`id:2:5: E-EXT-UNKNOWN: unknown key "first line"… in policy (/defaults/first line…); known keys: idempotent, idempotencyKey, timeout, attemptTimeout, connectTimeout, deadlineHeader, retry, breaker, bulkhead, hedge, fallback, fleet, latency`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeFile("id", []byte(tt.data))
			if err == nil || err.Error() != tt.want {
				t.Errorf("DecodeFile error =\n%v\nwant\n%s", err, tt.want)
			}
		})
	}
}

// TestDecodeServiceConfigs: grpcServiceConfigs lists relative file names
// (one name alone is a list of one), each at its place; a name that
// leaves the policy file's folder, or a value that is not a name, is an
// error.
func TestDecodeServiceConfigs(t *testing.T) {
	tests := []struct {
		src     string
		want    []string
		wantErr string
	}{
		{"grpcServiceConfigs: [a_grpc_service_config.json, ./cfg/b.json]\n", []string{"a_grpc_service_config.json@1:22", "cfg/b.json@1:50"}, ""},
		{"grpcServiceConfigs: a.json\n", []string{"a.json@1:21"}, ""},
		{"grpcServiceConfigs: [../a.json]\n", nil, "policy.yaml:1:22: E-TYPE: grpcServiceConfigs names \"../a.json\", which is not a relative path inside the policy file's folder"},
		{"grpcServiceConfigs: [{a: b}]\n", nil, "E-TYPE"},
		{"grpcServiceConfig: [a.json]\n", nil, `did you mean "grpcServiceConfigs"?`},
	}
	for _, tt := range tests {
		f, err := DecodeFile("policy.yaml", []byte(tt.src))
		var got []string
		for _, r := range f.ServiceConfigs {
			got = append(got, fmt.Sprintf("%s@%d:%d", r.Name, r.Loc.Line, r.Loc.Col))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q: ServiceConfigs mismatch (-want +got):\n%s", tt.src, diff)
		}
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%q: %v", tt.src, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%q: error %v, want one containing %q", tt.src, err, tt.wantErr)
		}
	}
}
