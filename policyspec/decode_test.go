package policyspec

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

func TestDecodeNode(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		want     []string
		wantErrs []string
	}{
		{
			name: "every kind of key",
			src: `idempotent: true
idempotencyKey: Idempotency-Key
timeout: 1500ms
retry: {maxRetries: 2, base: 100ms, budget: 10%, minPerSecond: 10}
breaker: {failureRate: 50, window: 10s}
bulkhead: {maxConcurrent: 32, maxWait: 0s}
fallback: {kind: static, value: {stock: 0}}
latency: {p99: 180ms, rps: 200}
`,
			want: []string{
				"idempotent=true@1:1", "idempotencyKey=Idempotency-Key@2:1", "timeout=1.5s@3:1",
				"retry.maxRetries=2@4:9", "retry.base=100ms@4:24", "retry.budget=0.1@4:37", "retry.minPerSecond=10@4:50",
				"breaker.failureRate=50@5:11", "breaker.window=10s@5:28",
				"bulkhead.maxConcurrent=32@6:12", "bulkhead.maxWait=0s@6:31",
				"fallback.kind=static@7:12", "fallback.value=map[stock:0]@7:26",
				"latency.p99=180ms@8:11", "latency.rps=200@8:23",
			},
		},
		{
			name: "budget as a number",
			src:  "retry: {budget: 0.25}",
			want: []string{"retry.budget=0.25@1:9"},
		},
		{
			name:     "unknown key with suggestion",
			src:      "timout: 1s",
			wantErrs: []string{`api.yaml:1:1: E-EXT-UNKNOWN: unknown key "timout" in policy (#/x-resilience/timout); did you mean "timeout"?`},
		},
		{
			name:     "unknown key in a block suggests by the last word",
			src:      "retry: {retires: 2}",
			wantErrs: []string{`api.yaml:1:9: E-EXT-UNKNOWN: unknown key "retires" in retry (#/x-resilience/retry/retires); did you mean "maxRetries"?`},
		},
		{
			name:     "a plural suggests its singular",
			src:      "retries: {maxRetries: 2}",
			wantErrs: []string{`api.yaml:1:1: E-EXT-UNKNOWN: unknown key "retries" in policy (#/x-resilience/retries); did you mean "retry"?`},
		},
		{
			name:     "snake_case key in yaml suggests camelCase",
			src:      "retry: {max_retries: 2}",
			wantErrs: []string{`api.yaml:1:9: E-EXT-UNKNOWN: unknown key "max_retries" in retry (#/x-resilience/retry/max_retries); did you mean "maxRetries"?`},
		},
		{
			name:     "unknown key far from all",
			src:      "hedge: {zzzzzzzz: 1}",
			wantErrs: []string{`api.yaml:1:9: E-EXT-UNKNOWN: unknown key "zzzzzzzz" in hedge (#/x-resilience/hedge/zzzzzzzz); known keys: delay, maxHedges`},
		},
		{
			name:     "duration without unit",
			src:      `timeout: "5"`,
			wantErrs: []string{`api.yaml:1:1: E-DURATION: timeout "5" must be a positive Go duration (it has no unit) (#/x-resilience/timeout); write e.g. "800ms"`},
		},
		{
			name:     "duration as a number",
			src:      "retry: {base: 5}",
			wantErrs: []string{`api.yaml:1:9: E-DURATION: retry.base 5 must be a Go duration string with a unit (#/x-resilience/retry/base); write e.g. "800ms"`},
		},
		{
			name: "spaced, negative and zero durations, all reported",
			src: `timeout: 1 sec
attemptTimeout: -5s
connectTimeout: 0s`,
			wantErrs: []string{
				`api.yaml:1:1: E-DURATION: timeout "1 sec" must be a positive Go duration (it has a space; write the unit right after the number) (#/x-resilience/timeout); write e.g. "800ms"`,
				`api.yaml:2:1: E-DURATION: attemptTimeout "-5s" must be a positive Go duration (it is negative) (#/x-resilience/attemptTimeout); write e.g. "800ms"`,
				`api.yaml:3:1: E-DURATION: connectTimeout "0s" must be a positive Go duration (it is zero) (#/x-resilience/connectTimeout); write e.g. "800ms"`,
			},
		},
		{
			name:     "too long a duration",
			src:      "fallback: {ttl: 9000h}",
			wantErrs: []string{`api.yaml:1:12: E-DURATION: fallback.ttl "9000h" must be a positive Go duration (it is longer than 168h0m0s) (#/x-resilience/fallback/ttl); write e.g. "30s"`},
		},
		{
			name:     "negative wait",
			src:      "bulkhead: {maxWait: -1ms}",
			wantErrs: []string{`api.yaml:1:12: E-DURATION: bulkhead.maxWait "-1ms" must be a Go duration of zero or more (it is negative) (#/x-resilience/bulkhead/maxWait); write e.g. "800ms"`},
		},
		{
			name: "breaker window zero and fractional",
			src:  "breaker: {window: 0s, openFor: 1500ms}\n---\n",
			want: []string{"breaker.openFor=1.5s@1:23"},
			wantErrs: []string{
				`api.yaml:1:11: E-BREAKER-WINDOW: breaker.window "0s" must be a positive Go duration (it is zero) (#/x-resilience/breaker/window); write e.g. "30s"`,
			},
		},
		{
			name:     "breaker window not whole seconds",
			src:      "breaker: {window: 1500ms}",
			wantErrs: []string{`api.yaml:1:11: E-BREAKER-WINDOW: breaker.window "1500ms" must be a whole number of seconds (the breaker counts in 1 s buckets) (#/x-resilience/breaker/window); write "2s"`},
		},
		{
			name: "ranges",
			src: `retry: {maxRetries: 7}
breaker: {failureRate: 150, minimumCalls: 0, halfOpenProbes: 0}
bulkhead: {maxConcurrent: 0}
hedge: {maxHedges: -1}
latency: {rps: 0}`,
			wantErrs: []string{
				`api.yaml:1:9: E-RANGE: retry.maxRetries 7 must be in [0, 5] (#/x-resilience/retry/maxRetries); more than 5 retries multiplies load during an incident; use 2 (the default) or fewer`,
				`api.yaml:2:11: E-RANGE: breaker.failureRate 150 must be in (0, 100] (#/x-resilience/breaker/failureRate); give a percentage such as 50`,
				`api.yaml:2:29: E-RANGE: breaker.minimumCalls 0 must be in [1, 1000000] (#/x-resilience/breaker/minimumCalls)`,
				`api.yaml:2:46: E-RANGE: breaker.halfOpenProbes 0 must be in [1, 1000] (#/x-resilience/breaker/halfOpenProbes)`,
				`api.yaml:3:12: E-RANGE: bulkhead.maxConcurrent 0 must be in [1, 1000000] (#/x-resilience/bulkhead/maxConcurrent)`,
				`api.yaml:4:9: E-RANGE: hedge.maxHedges -1 must be in [0, 4] (#/x-resilience/hedge/maxHedges); one hedge (the default) is usually enough`,
				`api.yaml:5:11: E-RANGE: latency.rps 0 must be in (0, 1000000000] (#/x-resilience/latency/rps)`,
			},
		},
		{
			name:     "negative retries",
			src:      "retry: {maxRetries: -1}",
			wantErrs: []string{`api.yaml:1:9: E-RANGE: retry.maxRetries -1 must be in [0, 5] (#/x-resilience/retry/maxRetries); more than 5 retries multiplies load during an incident; use 2 (the default) or fewer`},
		},
		{
			name: "budgets out of range",
			src: `retry: {budget: 10}
---`,
			wantErrs: []string{`api.yaml:1:9: E-RANGE: retry.budget 10 must be in (0, 1] (#/x-resilience/retry/budget); write "10%" or 0.1`},
		},
		{
			name:     "budget percentage out of range",
			src:      "retry: {budget: 150%}",
			wantErrs: []string{`api.yaml:1:9: E-RANGE: retry.budget 150% must be in (0, 1] (#/x-resilience/retry/budget)`},
		},
		{
			name:     "budget zero",
			src:      "retry: {budget: 0%}",
			wantErrs: []string{`api.yaml:1:9: E-RANGE: retry.budget 0% must be in (0, 1] (#/x-resilience/retry/budget)`},
		},
		{
			name:     "not a percentage",
			src:      "retry: {budget: ten%}",
			wantErrs: []string{`api.yaml:1:9: E-TYPE: retry.budget "ten%" is not a percentage (#/x-resilience/retry/budget); write e.g. "10%" or 0.1`},
		},
		{
			name:     "not a number",
			src:      "breaker: {failureRate: high}",
			wantErrs: []string{`api.yaml:1:24: E-TYPE: breaker.failureRate must be a number, found "high"`},
		},
		{
			name:     "not a number is nan",
			src:      "breaker: {failureRate: .nan}",
			wantErrs: []string{`api.yaml:1:11: E-RANGE: breaker.failureRate .nan must be in (0, 100] (#/x-resilience/breaker/failureRate); give a percentage such as 50`},
		},
		{
			name:     "integer expected",
			src:      "retry: {maxRetries: 1.5}",
			wantErrs: []string{`api.yaml:1:21: E-TYPE: retry.maxRetries must be an integer, found 1.5`},
		},
		{
			name:     "bool expected",
			src:      "idempotent: yes please",
			wantErrs: []string{`api.yaml:1:13: E-TYPE: idempotent must be true or false, found "yes please"`},
		},
		{
			name:     "block expected",
			src:      "retry: [1, 2]",
			wantErrs: []string{`api.yaml:1:8: E-TYPE: retry must be a mapping, found a list`},
		},
		{
			name:     "policy not a mapping",
			src:      "just text",
			wantErrs: []string{`api.yaml:1:1: E-TYPE: policy must be a mapping of policy keys, found "just text"`},
		},
		{
			name:     "bad header name",
			src:      "idempotencyKey: Idem Key",
			wantErrs: []string{`api.yaml:1:1: E-RANGE: idempotencyKey "Idem Key" is not a valid header name (#/x-resilience/idempotencyKey); write a header name such as "Idempotency-Key"`},
		},
		{
			name:     "fallback kind typo",
			src:      "fallback: {kind: cahced}",
			wantErrs: []string{`api.yaml:1:18: E-RANGE: fallback.kind "cahced" is not a fallback kind; did you mean "cached"?`},
		},
		{
			name:     "duplicate key",
			src:      "timeout: 1s\ntimeout: 2s",
			want:     []string{"timeout=1s@1:1"},
			wantErrs: []string{`api.yaml:2:1: E-YAML: duplicate key "timeout" (#/x-resilience/timeout); keep one of them`},
		},
		{
			name: "empty blocks and null are nothing",
			src:  "retry:\nhedge: {}",
		},
		{
			name: "aliases are followed",
			src:  "latency: &l {p99: 100ms}\nx: *l",
			want: []string{"latency.p99=100ms@1:14"},
			wantErrs: []string{
				`api.yaml:2:1: E-EXT-UNKNOWN: unknown key "x" in policy (#/x-resilience/x); known keys: idempotent, idempotencyKey, timeout, attemptTimeout, connectTimeout, deadlineHeader, retry, breaker, bulkhead, hedge, fallback, fleet, latency`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := decodeYAML(t, tt.src)
			if diff := cmp.Diff(tt.want, flat(s)); diff != "" {
				t.Errorf("DecodeNode spec mismatch (-want +got):\n%s", diff)
			}
			got := messages(err)
			for i := range got {
				if i < len(tt.wantErrs) && !hasPath(tt.wantErrs[i]) {
					got[i] = stripPath(got[i])
				}
			}
			if diff := cmp.Diff(tt.wantErrs, got); diff != "" {
				t.Errorf("DecodeNode errors mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// hasPath reports whether an expected message spells out its "(where)".
func hasPath(msg string) bool { return containsStr(msg, "(#/") }

// stripPath removes the "(where)" part of a message, for expectations that
// leave it out.
func stripPath(msg string) string {
	i := indexStr(msg, " (#/")
	if i < 0 {
		return msg
	}
	j := indexStr(msg[i:], ")")
	return msg[:i] + msg[i+j+1:]
}

func TestDecodeValue(t *testing.T) {
	base := diag.Location{File: "api.yaml", Line: 12, Col: 7, Path: "#/paths/~1pets/get/x-resilience"}
	tests := []struct {
		name     string
		value    any
		want     []string
		wantErrs []string
	}{
		{
			name: "kin-openapi extension value",
			value: map[string]any{
				"timeout":  "800ms",
				"retry":    map[string]any{"maxRetries": float64(1), "budget": "5%"},
				"fallback": map[string]any{"kind": "static", "value": []any{"a", true, nil}},
			},
			want: []string{"timeout=800ms@12:7", "retry.maxRetries=1@12:7", "retry.budget=0.05@12:7", "fallback.kind=static@12:7", "fallback.value=[a true <nil>]@12:7"},
		},
		{
			name:  "errors carry the path below the base",
			value: map[string]any{"retry": map[string]any{"maxRetries": 2.5, "bsae": "1s"}},
			wantErrs: []string{
				`api.yaml:12:7: E-EXT-UNKNOWN: unknown key "bsae" in retry (#/paths/~1pets/get/x-resilience/retry/bsae); did you mean "base"?`,
				`api.yaml:12:7: E-TYPE: retry.maxRetries must be an integer, found 2.5`,
			},
		},
		{
			name:  "integers of Go types",
			value: map[string]any{"retry": map[string]any{"maxRetries": 3}, "bulkhead": map[string]any{"maxConcurrent": uint16(8)}},
			want:  []string{"retry.maxRetries=3@12:7", "bulkhead.maxConcurrent=8@12:7"},
		},
		{
			name:  "unsupported go type",
			value: map[string]any{"timeout": struct{}{}},
			wantErrs: []string{
				`api.yaml:12:7: E-TYPE: unsupported value of Go type struct {}; give a string, number, boolean, list or mapping`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := DecodeValue(tt.value, base)
			if diff := cmp.Diff(tt.want, flat(s)); diff != "" {
				t.Errorf("spec mismatch (-want +got):\n%s", diff)
			}
			got := messages(err)
			for i := range got {
				if i < len(tt.wantErrs) && !hasPath(tt.wantErrs[i]) {
					got[i] = stripPath(got[i])
				}
			}
			if diff := cmp.Diff(tt.wantErrs, got); diff != "" {
				t.Errorf("errors mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecodeWritten: typed values, as a proto front end reads them, are
// checked as written text is, each at its own location, and messages
// spell keys as the author did.
func TestDecodeWritten(t *testing.T) {
	option := diag.Location{File: "pets.proto", Line: 20, Col: 5, Path: "petstore.v1.Pets.GetPet.(resilient.v1.method)"}
	at := func(line int, key string) diag.Location {
		l := option.At(line, 5)
		l.Path += "." + key
		return l
	}
	tests := []struct {
		name     string
		values   []Written
		want     []string
		wantErrs []string
	}{
		{"typed values of every kind",
			[]Written{
				{"idempotency_key", "Idempotency-Key", at(21, "idempotency_key")},
				{"attempt_timeout", 300 * time.Millisecond, at(22, "attempt_timeout")},
				{"retry.max_retries", uint64(2), at(23, "retry.max_retries")},
				{"retry.budget", 0.2, at(24, "retry.budget")},
				{"fallback.kind", runtime.FallbackCached, at(25, "fallback.kind")},
				{"fallback.shared", true, at(26, "fallback.shared")},
			},
			[]string{"idempotencyKey=Idempotency-Key@21:5", "attemptTimeout=300ms@22:5", "retry.maxRetries=2@23:5", "retry.budget=0.2@24:5",
				"fallback.kind=cached@25:5", "fallback.shared=true@26:5"},
			nil},
		{"problems at their own lines, in the author's spelling",
			[]Written{
				{"attempt_timeout", -time.Second, at(21, "attempt_timeout")},
				{"retry.max_retries", uint64(9), at(22, "retry.max_retries")},
				{"retry.max_retires", uint64(2), at(23, "retry.max_retires")},
			},
			nil,
			[]string{
				`pets.proto:21:5: E-DURATION: attempt_timeout "-1s" must be a positive Go duration (it is negative) (petstore.v1.Pets.GetPet.(resilient.v1.method).attempt_timeout); write e.g. "800ms"`,
				`pets.proto:22:5: E-RANGE: retry.max_retries 9 must be in [0, 5] (petstore.v1.Pets.GetPet.(resilient.v1.method).retry.max_retries); more than 5 retries multiplies load during an incident; use 2 (the default) or fewer`,
				`pets.proto:23:5: E-EXT-UNKNOWN: unknown key "max_retires" in retry (petstore.v1.Pets.GetPet.(resilient.v1.method).retry.max_retires); did you mean "max_retries"?`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := DecodeWritten(tt.values, option)
			if diff := cmp.Diff(tt.want, flat(s)); diff != "" {
				t.Errorf("spec mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantErrs, messages(err)); diff != "" {
				t.Errorf("errors mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEveryKeyDecodes(t *testing.T) {
	values := map[keyKind]any{
		kindBool: true, kindHeader: "K", kindDuration: "1s", kindDurationZero: "1s", kindInt: float64(1),
		kindFloat: float64(1), kindRatio: "10%", kindFallbackKind: "cached", kindAny: "x", kindHeaderSwitch: false, kindStoreName: "cache", kindKeyPrefix: "app:",
	}
	for _, def := range keyTable() {
		t.Run(def.name, func(t *testing.T) {
			var v any = values[def.kind]
			parts := splitDot(def.name)
			for i := len(parts) - 1; i >= 0; i-- {
				v = map[string]any{parts[i]: v}
			}
			s, err := DecodeValue(v, diag.Location{})
			if err != nil {
				t.Fatalf("DecodeValue(%v): %v", v, err)
			}
			if _, set := fieldSet(def.field(&s)); !set {
				t.Errorf("DecodeValue(%v) left %s unset", v, def.name)
			}
			if got, ok := CamelCase(SnakeCase(def.name)); !ok || got != def.name {
				t.Errorf("CamelCase(SnakeCase(%q)) = %q, %v, want %q, true", def.name, got, ok, def.name)
			}
		})
	}
}

func TestSnakeCase(t *testing.T) {
	tests := []struct{ camel, snake string }{
		{"idempotencyKey", "idempotency_key"},
		{"retry.maxRetries", "retry.max_retries"},
		{"breaker.halfOpenProbes", "breaker.half_open_probes"},
		{"latency.p999", "latency.p999"},
		{"timeout", "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.camel, func(t *testing.T) {
			if got := SnakeCase(tt.camel); got != tt.snake {
				t.Errorf("SnakeCase(%q) = %q, want %q", tt.camel, got, tt.snake)
			}
			if got, ok := CamelCase(tt.snake); !ok || got != tt.camel {
				t.Errorf("CamelCase(%q) = %q, %v, want %q, true", tt.snake, got, ok, tt.camel)
			}
		})
	}
	if got, ok := CamelCase("retry"); !ok || got != "retry" {
		t.Errorf(`CamelCase("retry") = %q, %v, want "retry", true`, got, ok)
	}
	if got, ok := CamelCase("retries"); ok {
		t.Errorf(`CamelCase("retries") = %q, true, want false`, got)
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr string
	}{
		{in: "800ms", want: "800ms"},
		{in: " 1.5s ", want: "1.5s"},
		{in: "2m", want: "2m0s"},
		{in: "5", wantErr: `policyspec: duration "5" has no unit`},
		{in: "1 sec", wantErr: `policyspec: duration "1 sec" has a space; write the unit right after the number`},
		{in: "-5s", wantErr: `policyspec: duration "-5s" is negative`},
		{in: "0s", wantErr: `policyspec: duration "0s" is zero`},
		{in: "0", wantErr: `policyspec: duration "0" is zero`},
		{in: "", wantErr: `policyspec: duration "" is empty`},
		{in: "1y", wantErr: `policyspec: duration "1y" is not a Go duration`},
		{in: "200h", wantErr: `policyspec: duration "200h" is longer than 168h0m0s`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, err := ParseDuration(tt.in)
			if tt.wantErr != "" {
				var de *DurationError
				if !errors.As(err, &de) || err.Error() != tt.wantErr {
					t.Fatalf("ParseDuration(%q) error = %v, want %s", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil || d.String() != tt.want {
				t.Errorf("ParseDuration(%q) = %v, %v, want %s", tt.in, d, err, tt.want)
			}
		})
	}
}

// TestDecodeDeadlineHeader: deadlineHeader is true, false or a header
// name; it resolves to the header an HTTP client sends, "" for none.
func TestDecodeDeadlineHeader(t *testing.T) {
	tests := []struct {
		value    any
		want     string // resolved header
		wantRule diag.Rule
	}{
		{value: true, want: runtime.DefaultDeadlineHeader},
		{value: false, want: ""},
		{value: "X-Budget-Ms", want: "X-Budget-Ms"},
		{value: "X Budget", wantRule: diag.RuleRange},
		{value: float64(5), wantRule: diag.RuleType},
	}
	for _, tt := range tests {
		s, err := DecodeValue(map[string]any{"deadlineHeader": tt.value}, diag.Location{File: "api.yaml"})
		if tt.wantRule != "" {
			var ds diag.List
			if !errors.As(err, &ds) || len(ds) != 1 || ds[0].Rule != tt.wantRule {
				t.Errorf("DecodeValue(deadlineHeader: %v) error = %v, want %s", tt.value, err, tt.wantRule)
			}
			continue
		}
		if err != nil {
			t.Fatalf("DecodeValue(deadlineHeader: %v): %v", tt.value, err)
		}
		d, err := ResolveDependency("dep", Layer{Kind: LayerDocument, Spec: s})
		if err != nil || d.DeadlineHeader != tt.want {
			t.Errorf("deadlineHeader: %v resolves to %q, %v; want %q", tt.value, d.DeadlineHeader, err, tt.want)
		}
	}
	d, _ := ResolveDependency("dep")
	if d.DeadlineHeader != "" || d.Sources["deadlineHeader"].Origin != OriginDefault {
		t.Errorf("unset: %q from %v, want none by default: only a server declared to read it gets it", d.DeadlineHeader, d.Sources["deadlineHeader"])
	}
}

// TestDecodeFleet: fleet names a store and a key prefix, at the dependency
// level only, and never holds an address or a credential.
func TestDecodeFleet(t *testing.T) {
	tests := []struct {
		name      string
		value     map[string]any
		wantStore string
		wantPfx   string
		wantRule  diag.Rule
	}{
		{name: "store", value: map[string]any{"store": "sessions-redis"}, wantStore: "sessions-redis", wantPfx: runtime.DefaultFleetPrefix},
		{name: "both", value: map[string]any{"store": "cache.eu-1", "prefix": "checkout:"}, wantStore: "cache.eu-1", wantPfx: "checkout:"},
		{name: "url", value: map[string]any{"store": "redis://:secret@cache:6379"}, wantRule: diag.RuleFleetName},
		{name: "password in prefix", value: map[string]any{"prefix": "user:pw@host"}, wantRule: diag.RuleFleetName},
		{name: "space", value: map[string]any{"store": "my cache"}, wantRule: diag.RuleFleetName},
		{name: "brace", value: map[string]any{"prefix": "{x}"}, wantRule: diag.RuleFleetName},
		{name: "empty", value: map[string]any{"store": ""}, wantRule: diag.RuleFleetName},
		{name: "address in prefix", value: map[string]any{"prefix": "redis://cache/"}, wantRule: diag.RuleFleetName},
		{name: "long", value: map[string]any{"store": strings.Repeat("s", 65)}, wantRule: diag.RuleFleetName},
		{name: "number", value: map[string]any{"store": float64(6379)}, wantRule: diag.RuleType},
		{name: "unknown key", value: map[string]any{"password": "x"}, wantRule: diag.RuleUnknownKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := DecodeValue(map[string]any{"fleet": tt.value}, diag.Location{File: "api.yaml"})
			if tt.wantRule != "" {
				var ds diag.List
				if !errors.As(err, &ds) || len(ds) != 1 || ds[0].Rule != tt.wantRule {
					t.Fatalf("DecodeValue(fleet: %v) error = %v, want one %s", tt.value, err, tt.wantRule)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d, err := ResolveDependency("dep", Layer{Kind: LayerDocument, Spec: s})
			if err != nil {
				t.Fatal(err)
			}
			if !d.HasFleet() || d.Policy.Fleet.Store != tt.wantStore || d.Policy.Fleet.Prefix != tt.wantPfx {
				t.Errorf("fleet = %+v, want store %q, prefix %q", d.Policy.Fleet, tt.wantStore, tt.wantPfx)
			}
		})
	}
	d, _ := ResolveDependency("dep")
	if d.HasFleet() || d.Policy.Fleet != (runtime.FleetPolicy{}) {
		t.Errorf("no fleet key: HasFleet() = %v, Fleet = %+v; want false, zero", d.HasFleet(), d.Policy.Fleet)
	}
}
