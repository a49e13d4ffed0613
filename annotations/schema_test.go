package annotations_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/policyspec"
)

const schemaFile = "x-resilience.schema.json"

// designExample is the policy object of DESIGN.md, every key set.
const designExample = `
idempotent: true            # override the HTTP-method default
idempotencyKey: Idempotency-Key
timeout: 1500ms             # total, retries and backoff included
attemptTimeout: 400ms       # per attempt; must be below timeout
connectTimeout: 300ms
retry:
  maxRetries: 2
  base: 100ms
  cap: 2s
  budget: 10%
  minPerSecond: 10
breaker:
  failureRate: 50
  minimumCalls: 20
  window: 10s
  openFor: 30s
  halfOpenProbes: 5
bulkhead:
  maxConcurrent: 32
  maxWait: 10ms
hedge:
  delay: 120ms
  maxHedges: 1
fallback:
  kind: cached
  ttl: 5m
  value: {}
latency:
  p50: 20ms
  p95: 90ms
  p99: 180ms
  p999: 350ms
  rps: 200
`

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(schemaFile, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// instance decodes a YAML document as a JSON value, as an OpenAPI loader
// hands x-resilience over.
func instance(t *testing.T, src string) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func TestSchemaValidates(t *testing.T) {
	s := compileSchema(t)
	tests := []struct {
		name  string
		doc   string
		valid bool
	}{
		{name: "DESIGN.md example", doc: designExample, valid: true},
		{name: "empty", doc: "{}", valid: true},
		{name: "budget as a number", doc: "retry: {budget: 0.1}", valid: true},
		{name: "budget 100%", doc: "retry: {budget: 100%}", valid: true},
		{name: "maxWait zero", doc: "bulkhead: {maxWait: 0s}", valid: true},
		{name: "compound duration", doc: "timeout: 1m30.5s", valid: true},
		{name: "static fallback", doc: `fallback: {kind: static, value: {name: unknown, tags: [a]}}`, valid: true},
		{name: "unknown top-level key", doc: "retries: 2"},
		{name: "unknown key in a block", doc: "retry: {retires: 2}"},
		{name: "snake_case key", doc: "attempt_timeout: 400ms"},
		{name: "negative duration", doc: "retry: {base: -5s}"},
		{name: "duration without unit", doc: "timeout: '5'"},
		{name: "duration with a space", doc: "timeout: 1 sec"},
		{name: "zero timeout", doc: "timeout: 0s"},
		{name: "duration as a number", doc: "attemptTimeout: 400"},
		{name: "budget above 100%", doc: "retry: {budget: 150%}"},
		{name: "budget zero", doc: "retry: {budget: 0}"},
		{name: "budget 0%", doc: "retry: {budget: 0%}"},
		{name: "budget above 1", doc: "retry: {budget: 1.5}"},
		{name: "maxRetries above 5", doc: "retry: {maxRetries: 7}"},
		{name: "maxRetries fraction", doc: "retry: {maxRetries: 1.5}"},
		{name: "failureRate zero", doc: "breaker: {failureRate: 0}"},
		{name: "fallback kind unknown", doc: "fallback: {kind: stale}"},
		{name: "idempotent as a string", doc: "idempotent: 'yes'"},
		{name: "idempotencyKey not a header name", doc: "idempotencyKey: 'Idempotency Key'"},
		{name: "block not an object", doc: "breaker: 50"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Validate(instance(t, tt.doc))
			if (err == nil) != tt.valid {
				t.Errorf("Validate(%s) = %v, want valid %v", tt.doc, err, tt.valid)
			}
		})
	}
}

// TestSchemaVocabulary checks the schema file itself: it names exactly the
// keys of the policy vocabulary, and every object refuses unknown keys.
func TestSchemaVocabulary(t *testing.T) {
	raw, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		t.Fatal(err)
	}
	var keys []string
	var walk func(path string, node map[string]any)
	walk = func(path string, node map[string]any) {
		props, ok := node["properties"].(map[string]any)
		if !ok {
			return
		}
		if node["additionalProperties"] != false {
			t.Errorf("%q: additionalProperties = %v, want false", path, node["additionalProperties"])
		}
		for name, p := range props {
			key := strings.TrimPrefix(path+"."+name, ".")
			child := p.(map[string]any)
			if _, ok := child["properties"]; ok {
				walk(key, child)
				continue
			}
			keys = append(keys, key)
		}
	}
	walk("", root)

	want := map[string]bool{}
	for _, k := range policyspec.Keys() {
		want[k] = true
	}
	got := map[string]bool{}
	for _, k := range keys {
		got[k] = true
		if !want[k] {
			t.Errorf("schema key %q is not in the policy vocabulary", k)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("policy key %q is missing from the schema", k)
		}
	}
}
