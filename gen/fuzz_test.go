package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// FuzzOpenAPIPipeline runs the whole OpenAPI pipeline on small specs: an
// input that starts like a document ("openapi", "swagger" or "{") is the
// spec itself (the golden specs seed these); any other input is a
// program from which buildSpec assembles a spec that mostly loads, with
// names, path templates and parameters of every location and style,
// schemas with properties, enums, oneOf and allOf, bodies, responses and
// x-resilience values. Whatever the spec, generation gives an error or a
// client, never a panic; never an E-INTERNAL or E-EMIT diagnostic; and a
// client that parses and type-checks against the runtime.
//
//	go test -run '^$' -fuzz FuzzOpenAPIPipeline -fuzztime 5m ./gen
func FuzzOpenAPIPipeline(f *testing.F) {
	goldens, _ := filepath.Glob(filepath.Join("..", "golden", "openapi", "*", "openapi.yaml"))
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	// Specs the loader refuses whole unless the front end repairs them.
	for _, sloppy := range []string{
		`{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":"string","pattern":0}},{"$ref":"#/components/schemas/Limit"},{"name":"f","in":"query","schema":{"type":"array","items":{"$ref":"#/paths/~1a/get/parameters/0"}}}],"responses":{"200":{"$ref":"#/components/schemas/Limit"},"400":{"description":"x","content":{"":{"schema":{"type":"string"}}}}}}}},"components":{"schemas":{"Limit":{"name":"limit","in":"query","schema":{"type":"integer"}}}}}`,
		"openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n  /a#x/{id}:\n    get:\n      parameters:\n        - $ref: \"#/components/schemas/S\"\n      responses:\n        \"404\":\n          $ref: \"#/components/schemas/S\"\ncomponents:\n  schemas:\n    S: {type: object, properties: {\"a,b\": {type: string, pattern: true}}}\n",
	} {
		f.Add([]byte(sloppy))
	}
	for _, seed := range []string{
		"", "\x01", "\x05\x03\x07\x02\x09\x01\x04\x06\x08",
		"\x03\x02\x01\x00\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a",
		strings.Repeat("\x07\x03", 40), strings.Repeat("\xff\x00\x81", 30),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		spec := data
		trimmed := bytes.TrimSpace(data)
		if !bytes.HasPrefix(trimmed, []byte("openapi")) && !bytes.HasPrefix(trimmed, []byte("swagger")) && !bytes.HasPrefix(trimmed, []byte("{")) {
			spec = buildSpec(&program{data: data})
		}
		// A hang is a finding too: report it with the spec rather than
		// let the worker stall.
		type outcome struct {
			res *Result
			err error
		}
		done := make(chan outcome, 1)
		go func() {
			res, err := OpenAPI(fstest.MapFS{"api.yaml": {Data: spec}}, "api.yaml", OpenAPIOptions{Package: "fuzzed"})
			done <- outcome{res, err}
		}()
		var o outcome
		select {
		case o = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("generation takes more than 10s\nspec:\n%s", spec)
		}
		res, err := o.res, o.err
		for _, d := range diag.From(err) {
			if d.Rule == "E-INTERNAL" || d.Rule == "E-EMIT" {
				t.Fatalf("%v\nspec:\n%s", d, spec)
			}
		}
		if err != nil {
			return
		}
		if err := typeChecker.check("fuzzed.go", res.Code); err != nil {
			t.Fatalf("the generated client does not type-check: %v\nspec:\n%s", err, spec)
		}
		if heading, _, _ := strings.Cut(res.Review, "\n"); !strings.HasPrefix(heading, "## Resilience review: ") || strings.Contains(res.Review[len(heading):], "\n#") {
			t.Fatalf("the review has a second heading:\n%s\nspec:\n%s", res.Review, spec)
		}
	})
}

// program reads the choices of buildSpec from the fuzzer's bytes; past
// the end every choice is the first, which is always a valid one.
type program struct {
	data []byte
	pos  int
}

func (p *program) next() int {
	if p.pos >= len(p.data) {
		return 0
	}
	p.pos++
	return int(p.data[p.pos-1])
}

// n returns a choice in [0, k).
func (p *program) n(k int) int { return p.next() % k }

func (p *program) bool() bool { return p.n(2) == 1 }

func (p *program) pick(list []string) string { return list[p.n(len(list))] }

// name picks a name, hostile one time in eight (and never once the
// program has run out, so that short programs stay valid).
func (p *program) name() string {
	if p.n(8) == 7 {
		return p.pick(fuzzHostile)
	}
	return p.pick(fuzzNames)
}

// Name pools: plain names, names that are Go keywords, predeclared or
// imported identifiers, and names that break tags, headers or Markdown.
// (Names starting with "seg" are left out: the parameter naming loop
// does not end on them; that is fixed apart from this target.)
var (
	// fuzzNames are valid component and parameter names (the charset
	// OpenAPI allows for components: a-zA-Z0-9._-), many of them names
	// generated Go code uses itself.
	fuzzNames = []string{"pet", "Pet", "id", "name", "type", "func", "url", "ctx", "err", "Client", "Policy", "string",
		"-", "ID", "x-y", "_", "Tag", "tags", "kind", "value", "Error", "pet_id", "petId", "Params", "Response",
		"Request", "data", "body", "q", "opts", "http", "json", "select", "2fa", "v1.0", "Option", "New"}
	// fuzzHostile are property and parameter names that break tags,
	// headers or Markdown.
	fuzzHostile  = []string{"a b", "a,b", "é", "ünïcödé", "a|b", "<b>", "a\"b", "`x`", "a\nb", ""}
	fuzzHeaders  = []string{"X-Trace", "X-Request-ID", "Idempotency-Key", "X:Y", "Accept", "Content-Type", "Authorization", "x-api-key", "X Y"}
	fuzzLiterals = []string{"pets", "v1.0", "café", "a b", "50%25", "x|y", "%2E", "-", "files", "~user", "a:b", "{", "}", "Ω", "%C3%A9", ".hidden", "a;b"}
	fuzzMedia    = []string{"application/json", "application/x-www-form-urlencoded", "text/plain", "application/octet-stream",
		"multipart/form-data", "application/merge-patch+json", "*/*", "application/problem+json", "text/plain; charset=utf-8", "image/png"}
	fuzzStatus = []string{"200", "201", "202", "204", "400", "404", "409", "4XX", "5XX", "default", "301"}
	fuzzInts   = []any{0, 1, -1, 2147483647, 2147483648, -2147483649, 3000000000, 42}
)

// buildSpec assembles a small OpenAPI document in JSON from p.
func buildSpec(p *program) []byte {
	version := "3.0.3"
	if p.n(4) == 0 {
		version = "3.1.0"
	}
	b := &specBuilder{p: p, v31: version == "3.1.0"}
	doc := map[string]any{
		"openapi": version,
		"info":    map[string]any{"title": p.pick(append([]string{"Pets", "Payments\n| x | y |", "<!-- x"}, append(fuzzNames, fuzzHostile...)...)), "version": "1"},
	}
	nSchemas := 1 + p.n(4)
	for i := range nSchemas {
		b.components = append(b.components, fmt.Sprintf("%s%d", p.pick(fuzzNames), i))
	}
	schemas := map[string]any{}
	for _, name := range b.components {
		s := b.schema(0)
		for _, bare := s["$ref"]; bare && p.n(8) != 0; _, bare = s["$ref"] {
			s = b.schema(0)
		}
		schemas[name] = s
	}
	doc["components"] = map[string]any{
		"schemas":         schemas,
		"securitySchemes": map[string]any{"key": map[string]any{"type": "apiKey", "in": "header", "name": "X-API-Key"}},
	}
	if p.n(3) == 0 {
		doc["security"] = []any{map[string]any{"key": []any{}}}
	}
	if p.n(3) == 0 {
		doc["x-resilience"] = b.resilience(false)
	}
	paths := map[string]any{}
	for range 1 + p.n(3) {
		path, vars := b.path()
		item := map[string]any{}
		if p.n(4) == 0 {
			item["x-resilience"] = b.resilience(false)
		}
		for _, method := range []string{"get", "post", "put", "delete", "patch"} {
			if p.n(3) == 0 || method == "get" && len(item) == 0 {
				item[method] = b.operation(method, vars)
			}
		}
		paths[path] = item
	}
	doc["paths"] = paths
	out, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return out
}

// specBuilder holds what buildSpec has decided so far.
type specBuilder struct {
	p          *program
	v31        bool
	components []string
	ops        int
}

// schema returns a schema; depth bounds nesting.
func (b *specBuilder) schema(depth int) map[string]any {
	p := b.p
	if depth > 2 {
		return map[string]any{"type": "string"}
	}
	var s map[string]any
	switch p.n(11) {
	case 0:
		s = map[string]any{"type": "string"}
		if f := p.pick([]string{"", "date-time", "date", "byte", "binary", "uuid"}); f != "" {
			s["format"] = f
		}
		if p.bool() {
			s["enum"] = []any{p.pick(fuzzNames), p.pick(fuzzNames), ""}
		}
	case 1:
		s = map[string]any{"type": "integer"}
		if f := p.pick([]string{"", "int32", "int64"}); f != "" {
			s["format"] = f
		}
		if p.bool() {
			s["enum"] = []any{fuzzInts[p.n(len(fuzzInts))], fuzzInts[p.n(len(fuzzInts))]}
		}
	case 2:
		s = map[string]any{"type": "number", "format": p.pick([]string{"float", "double"})}
	case 3:
		s = map[string]any{"type": "boolean"}
	case 4:
		s = map[string]any{"type": "array", "items": b.schema(depth + 1)}
	case 5, 6:
		props := map[string]any{}
		var required []any
		for range p.n(4) {
			name := p.name()
			props[name] = b.schema(depth + 1)
			if p.bool() {
				required = append(required, name)
			}
		}
		s = map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			s["required"] = required
		}
		if p.n(4) == 0 {
			s["additionalProperties"] = b.schema(depth + 1)
		}
	case 7:
		return b.ref()
	case 8:
		alts := []any{b.ref(), b.ref()}
		if p.bool() {
			alts = append(alts, b.schema(depth+1))
		}
		key := p.pick([]string{"oneOf", "anyOf"})
		s = map[string]any{key: alts}
		if p.bool() {
			s["discriminator"] = map[string]any{"propertyName": p.name()}
		}
	case 9:
		s = map[string]any{"allOf": []any{b.ref(), b.schema(depth + 1)}}
	default:
		s = map[string]any{"type": "object", "additionalProperties": b.schema(depth + 1)}
	}
	if p.n(5) == 0 {
		if b.v31 {
			if t, ok := s["type"].(string); ok {
				s["type"] = []any{t, "null"}
			}
		} else {
			s["nullable"] = true
		}
	}
	if p.n(4) == 0 {
		s["description"] = p.pick([]string{"A thing.", "*/ func init() {} /*", "line\n+build ignore", "\x00nul", "a\u2028b"})
	}
	return s
}

func (b *specBuilder) ref() map[string]any {
	return map[string]any{"$ref": "#/components/schemas/" + b.components[b.p.n(len(b.components))]}
}

// path returns a path template and its variables.
func (b *specBuilder) path() (string, []string) {
	p := b.p
	var path strings.Builder
	var vars []string
	for range 1 + p.n(3) {
		path.WriteString("/")
		switch p.n(5) {
		case 0, 1:
			path.WriteString(p.pick(fuzzLiterals))
		case 2:
			path.WriteString(p.pick(fuzzLiterals))
			fallthrough
		default:
			for range 1 + p.n(2) {
				v := fmt.Sprintf("%s%d", p.pick(fuzzNames), len(vars))
				vars = append(vars, v)
				path.WriteString("{" + v + "}")
			}
		}
	}
	return path.String(), vars
}

// operation returns an operation with parameters for vars.
func (b *specBuilder) operation(method string, vars []string) map[string]any {
	p := b.p
	b.ops++
	op := map[string]any{"operationId": fmt.Sprintf("%s%d", p.pick(append([]string{"getPet", "gеtPet", "list"}, fuzzNames...)), b.ops)}
	var params []any
	for _, v := range vars {
		schema := b.paramSchema()
		if schema["type"] == "object" {
			schema = map[string]any{"type": "string"}
		}
		params = append(params, map[string]any{
			"name": v, "in": "path", "required": true,
			"style": p.pick([]string{"simple", "label", "matrix"}), "explode": p.bool(),
			"schema": schema,
		})
	}
	declared := map[string]bool{}
	for range p.n(4) {
		in := p.pick([]string{"query", "header", "cookie"})
		name := p.name()
		if in == "header" {
			name = p.pick(fuzzHeaders)
		}
		if declared[in+" "+name] {
			continue
		}
		declared[in+" "+name] = true
		param := map[string]any{"name": name, "in": in, "required": p.bool()}
		schema := b.paramSchema()
		switch {
		case in == "query" && p.n(5) == 0:
			param["content"] = map[string]any{"application/json": map[string]any{"schema": b.schema(1)}}
			schema = nil
		case in == "query" && p.n(6) == 0:
			// Any style, valid for the schema or not.
			param["style"] = p.pick([]string{"form", "spaceDelimited", "pipeDelimited", "deepObject"})
			param["explode"] = p.bool()
		case in == "query" && schema["type"] == "array":
			param["style"] = p.pick([]string{"form", "spaceDelimited", "pipeDelimited"})
			param["explode"] = param["style"] == "form" && p.bool()
		case in == "query" && schema["type"] == "object":
			param["style"] = p.pick([]string{"form", "deepObject"})
			param["explode"] = true
		case in == "query":
			param["explode"] = p.bool()
		}
		if schema != nil {
			param["schema"] = schema
		}
		params = append(params, param)
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	if method != "get" && method != "delete" && p.bool() {
		content := map[string]any{}
		for range 1 + p.n(2) {
			content[p.pick(fuzzMedia)] = map[string]any{"schema": b.schema(1)}
		}
		op["requestBody"] = map[string]any{"required": p.bool(), "content": content}
	}
	responses := map[string]any{}
	for range 1 + p.n(3) {
		r := map[string]any{"description": "answer"}
		if p.n(3) != 0 {
			r["content"] = map[string]any{p.pick(fuzzMedia): map[string]any{"schema": b.schema(1)}}
		}
		responses[p.pick(fuzzStatus)] = r
	}
	op["responses"] = responses
	if p.n(3) == 0 {
		op["x-resilience"] = b.resilience(true)
	}
	if p.n(5) == 0 {
		op["security"] = []any{}
	}
	return op
}

// paramSchema returns a primitive, an array of primitives or an object.
func (b *specBuilder) paramSchema() map[string]any {
	switch b.p.n(6) {
	case 0:
		return map[string]any{"type": "array", "items": map[string]any{"type": b.p.pick([]string{"string", "integer", "boolean"})}}
	case 1:
		return map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}, "b": map[string]any{"type": "integer"}}}
	case 2:
		return b.schema(1)
	}
	s := map[string]any{"type": b.p.pick([]string{"string", "integer", "number", "boolean"})}
	if s["type"] == "string" && b.p.bool() {
		s["format"] = b.p.pick([]string{"date-time", "uuid", "byte"})
	}
	return s
}

// resilience returns an x-resilience object, valid but one value in
// eight; op says it is an operation's, where "idempotent" may be written.
func (b *specBuilder) resilience(op bool) map[string]any {
	p := b.p
	bad := func() bool { return p.n(8) == 7 }
	duration := func() any {
		if bad() {
			return p.pick([]string{"-1s", "0s", "abc", "1", "9000h"})
		}
		return p.pick([]string{"100ms", "350ms", "800ms", "2s", "5s", "1m"})
	}
	x := map[string]any{}
	for range 1 + p.n(3) {
		switch p.n(9) {
		case 0:
			x["timeout"] = duration()
		case 1:
			x["attemptTimeout"] = duration()
		case 2:
			r := map[string]any{"maxRetries": p.n(6), "base": duration()}
			if bad() {
				r["maxRetries"] = 7
			}
			x["retry"] = r
		case 3:
			fb := map[string]any{"kind": p.pick([]string{"cached", "cached", "none", "static"})}
			if fb["kind"] == "static" || bad() {
				fb["value"] = map[string]any{p.name(): p.pick([]string{"x\ufeffy", "\x00", "`", "ok"}), "n": fuzzInts[p.n(len(fuzzInts))]}
			}
			if p.bool() {
				fb["shared"] = p.bool()
			}
			if bad() {
				fb["kind"] = "bogus"
			}
			x["fallback"] = fb
		case 4:
			x["hedge"] = map[string]any{"delay": duration(), "maxHedges": p.n(5)}
		case 5:
			x["idempotencyKey"] = "Idempotency-Key"
			if bad() {
				x["idempotencyKey"] = p.pick(fuzzHeaders)
			}
		case 6:
			if op || bad() {
				x["idempotent"] = p.bool()
			}
		case 7:
			x["latency"] = map[string]any{"p50": "10ms", "p95": "50ms", "p99": "90ms", "rps": 1 + p.n(500)}
			if bad() {
				x["latency"] = map[string]any{"p50": "10ms", "p99": duration()}
			}
		default:
			if bad() {
				x[p.name()] = 1
			}
		}
	}
	return x
}
