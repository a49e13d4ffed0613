package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const orders = `openapi: 3.0.3
info: {title: Orders, version: "1"}
paths:
  /orders:
`

// badInputs are specs and policy files that must fail with exactly one
// message, naming file:line, and the right exit status.
var badInputs = []struct {
	name   string
	files  map[string]string
	args   []string
	want   string
	status int
}{
	{
		name: "invalid YAML",
		files: map[string]string{"api.yaml": `openapi: 3.0.3
info:
  title: Bad
  version: "1"
paths:
  /a: [unclosed
`},
		args:   []string{"check", "api.yaml"},
		want:   `api.yaml:7:1: E-YAML: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence started at line 6)`,
		status: 2,
	},
	{
		name: "unresolved $ref",
		files: map[string]string{"api.yaml": `openapi: 3.0.3
info: {title: Ref, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Missing"
`},
		args:   []string{"generate", "api.yaml"},
		want:   `api.yaml:13:17: E-REF-UNRESOLVED: $ref "#/components/schemas/Missing" does not resolve, so the client cannot know what it names (#/paths/~1a/get/responses/200/content/application~1json/schema); define the target or fix the reference`,
		status: 2,
	},
	{
		name: "sloppy document, check -strict",
		files: map[string]string{"api.yaml": `openapi: 3.0.3
info: {title: Routes, version: "1"}
paths:
  /c/{id}:
    get: {operationId: a, parameters: [{name: id, in: path, required: true, schema: {type: string}}], responses: {"204": {description: ok}}}
  /c/{number}:
    get: {operationId: b, parameters: [{name: number, in: path, required: true, schema: {type: string}}], responses: {"204": {description: ok}}}
`},
		args:   []string{"check", "-strict", "api.yaml"},
		want:   `api.yaml:3:1: E-OPENAPI: conflicting paths "/c/{number}" and "/c/{id}" [conflicting-paths]; the client calls each template as written; which operation answers is the server's routing, so give the templates' parameters one name if they are one route`,
		status: 2,
	},
	{
		name: "sloppy document, generate -strict",
		files: map[string]string{"api.yaml": `openapi: 3.0.3
info: {title: Routes, version: "1"}
paths:
  /c/{id}:
    get: {operationId: a, parameters: [{name: id, in: path, required: true, schema: {type: string}}], responses: {"204": {description: ok}}}
  /c/{number}:
    get: {operationId: b, parameters: [{name: number, in: path, required: true, schema: {type: string}}], responses: {"204": {description: ok}}}
`},
		args:   []string{"generate", "-strict", "api.yaml"},
		want:   `api.yaml:3:1: E-OPENAPI: conflicting paths "/c/{number}" and "/c/{id}" [conflicting-paths]; the client calls each template as written; which operation answers is the server's routing, so give the templates' parameters one name if they are one route`,
		status: 2,
	},
	{
		name: "duplicate operationId",
		files: map[string]string{"api.yaml": `openapi: 3.0.3
info: {title: Dup, version: "1"}
paths:
  /a:
    get:
      operationId: dup
      responses:
        "200": {description: ok}
  /b:
    get:
      operationId: dup
      responses:
        "200": {description: ok}
`},
		args:   []string{"check", "api.yaml"},
		want:   `api.yaml:10:5: E-DUP-OPID: operations "GET /a" and "GET /b" have the same operation id "dup" (#/paths/~1b/get); give every operation a unique operationId`,
		status: 2,
	},
	{
		name: "not OpenAPI",
		files: map[string]string{"api.yaml": `title: just some YAML
`},
		args:   []string{"check", "api.yaml"},
		want:   `api.yaml:1:1: E-VERSION: not an OpenAPI 3.0 or 3.1 document (found no openapi field); start the document with "openapi: 3.0.3" or "openapi: 3.1.0", or "swagger: \"2.0\""`,
		status: 2,
	},
	{
		name:   "missing spec",
		args:   []string{"check", "nowhere.yaml"},
		want:   `nowhere.yaml: E-READ: open nowhere.yaml: no such file or directory`,
		status: 2,
	},
	{
		name: "negative duration",
		files: map[string]string{"api.yaml": orders + `    get:
      operationId: listOrders
      x-resilience:
        timeout: -5s
      responses:
        "200": {description: ok}
`},
		args:   []string{"check", "api.yaml"},
		want:   `api.yaml:8:9: E-DURATION: timeout "-5s" must be a positive Go duration (it is negative) (#/paths/~1orders/get/x-resilience/timeout); write e.g. "800ms"`,
		status: 1,
	},
	{
		name: "unknown key",
		files: map[string]string{"api.yaml": orders + `    get:
      operationId: listOrders
      x-resilience:
        retry:
          retires: 2
      responses:
        "200": {description: ok}
`},
		args:   []string{"generate", "api.yaml"},
		want:   `api.yaml:9:11: E-EXT-UNKNOWN: unknown key "retires" in retry (#/paths/~1orders/get/x-resilience/retry/retires); did you mean "maxRetries"?`,
		status: 1,
	},
	{
		name: "retries on a plain POST",
		files: map[string]string{"api.yaml": orders + `    post:
      operationId: createOrder
      x-resilience:
        retry:
          maxRetries: 2
      responses:
        "201": {description: created}
`},
		args:   []string{"check", "api.yaml"},
		want:   `api.yaml:9:11: E-RETRY-UNSAFE: operation CreateOrder asks for retries but is not idempotent: a retried request may repeat its side effect (RFC 9110 §9.2.2) (#/paths/~1orders/post/x-resilience/retry/maxRetries); set idempotencyKey: Idempotency-Key if the server deduplicates by key, idempotent: true if repeating is harmless, or remove the retry settings`,
		status: 1,
	},
	{
		name: "fallback on a write",
		files: map[string]string{"api.yaml": orders + `    post:
      operationId: createOrder
      x-resilience:
        fallback:
          kind: cached
          ttl: 5m
      responses:
        "201": {description: created}
`},
		args:   []string{"review", "api.yaml"},
		want:   `api.yaml:9:11: E-FALLBACK-UNSAFE: operation CreateOrder asks for a cached fallback but is not idempotent: a write must report its failure, not a made-up answer (#/paths/~1orders/post/x-resilience/fallback/kind); remove the fallback, or queue the write for later in the caller`,
		status: 1,
	},
	{
		name: "static fallback the response schema rejects",
		files: map[string]string{"api.yaml": orders + `    get:
      operationId: listOrders
      x-resilience:
        fallback:
          kind: static
          value: {count: none}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  count: {type: integer}
`},
		args:   []string{"check", "api.yaml"},
		want:   `api.yaml:10:11: E-FALLBACK-VALUE: operation ListOrders: static fallback {"count":"none"} does not match the schema of its 200 response: at /count: value must be an integer (#/paths/~1orders/get/x-resilience/fallback/value); write a value that the response schema accepts`,
		status: 1,
	},
	{
		name: "attempt timeout above total",
		files: map[string]string{"api.yaml": orders + `    get:
      operationId: listOrders
      x-resilience:
        timeout: 2s
        attemptTimeout: 3s
      responses:
        "200": {description: ok}
`},
		args:   []string{"check", "api.yaml"},
		want:   `api.yaml:9:9: E-TIMEOUT-ORDER: attemptTimeout 3s must be below timeout 2s (set at api.yaml:8:9) (#/paths/~1orders/get/x-resilience/attemptTimeout); lower attemptTimeout, raise timeout, or remove one of them to derive it`,
		status: 1,
	},
	{
		name: "policy file names an unknown operation",
		files: map[string]string{
			"api.yaml": orders + `    get:
      operationId: listOrders
      responses:
        "200": {description: ok}
`,
			"policy.yaml": `dependencies:
  orders:
    operations:
      listOrder:
        timeout: 1s
`,
		},
		args:   []string{"check", "-policy", "policy.yaml", "api.yaml"},
		want:   `policy.yaml:4:7: E-POLICY-UNUSED: policy file names operation of orders "listOrder", which does not exist (/dependencies/orders/operations/listOrder); did you mean "ListOrders"?`,
		status: 1,
	},
	{
		name: "policy file is not YAML",
		files: map[string]string{
			"api.yaml": orders + `    get:
      operationId: listOrders
      responses:
        "200": {description: ok}
`,
			"policy.yaml": "dependencies: [\n",
		},
		args:   []string{"check", "-policy", "policy.yaml", "api.yaml"},
		want:   `policy.yaml:2: E-YAML: line 2: did not find expected node content; fix the yaml syntax`,
		status: 2,
	},
	{
		name: "missing policy file",
		files: map[string]string{"api.yaml": orders + `    get:
      operationId: listOrders
      responses:
        "200": {description: ok}
`},
		args:   []string{"check", "-policy", "policy.yaml", "api.yaml"},
		want:   `policy.yaml: E-READ: cannot read the policy file: no such file or directory`,
		status: 2,
	},
	{
		name: "$ref outside the spec's folder",
		files: map[string]string{
			"spec/api.yaml": `openapi: 3.0.3
info: {title: Split, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "../common/A.yaml"
`,
			"common/A.yaml": "type: string\n",
		},
		args:   []string{"check", "spec/api.yaml"},
		want:   `spec/api.yaml:13:17: E-REF-EXTERNAL: $ref "../common/A.yaml" leaves the spec's folder, which is never read, so the client cannot know what it names (#/paths/~1a/get/responses/200/content/application~1json/schema); keep every referenced file under the folder of the entry file (or load from a wider root)`,
		status: 2,
	},
}

func TestBadInput(t *testing.T) {
	for _, tc := range badInputs {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(writeFiles(t, tc.files))
			var stdout, stderr bytes.Buffer
			status := run(tc.args, strings.NewReader(""), &stdout, &stderr)
			if status != tc.status {
				t.Errorf("run(%q) = %d, want %d", tc.args, status, tc.status)
			}
			if diff := cmp.Diff(tc.want+"\n", stderr.String()); diff != "" {
				t.Errorf("run(%q) standard error (-want +got):\n%s", tc.args, diff)
			}
			if stdout.Len() != 0 {
				t.Errorf("run(%q) wrote to standard output:\n%s", tc.args, stdout.String())
			}
		})
	}
}

// writeFiles writes files into a new temporary folder and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// petstore is the golden petstore case.
func petstore(t *testing.T) (spec, review, code string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "golden", "openapi", "petstore"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := os.ReadFile(filepath.Join(dir, "review.md"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := os.ReadFile(filepath.Join(dir, "client.gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "openapi.yaml"), string(r), string(c)
}

func TestCheckClean(t *testing.T) {
	spec, _, _ := petstore(t)
	var stdout, stderr bytes.Buffer
	if status := run([]string{"check", spec}, nil, &stdout, &stderr); status != 0 {
		t.Errorf("check petstore = %d, want 0; standard error:\n%s", status, stderr.String())
	}
	if stdout.Len()+stderr.Len() != 0 {
		t.Errorf("check petstore printed %q and %q, want nothing", stdout.String(), stderr.String())
	}
}

func TestReview(t *testing.T) {
	spec, review, _ := petstore(t)
	var stdout, stderr bytes.Buffer
	if status := run([]string{"review", spec}, nil, &stdout, &stderr); status != 0 {
		t.Fatalf("review petstore = %d, want 0; standard error:\n%s", status, stderr.String())
	}
	if diff := cmp.Diff(review, stdout.String()); diff != "" {
		t.Errorf("review petstore (-want +got):\n%s", diff)
	}
}

// TestGenerate writes the petstore client with -o and -review and checks
// it matches the golden case, apart from the package and source lines.
func TestGenerate(t *testing.T) {
	spec, review, code := petstore(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "client.gen.go")
	var stdout, stderr bytes.Buffer
	args := []string{"generate", "-package", "petstore", "-o", out, "-review", filepath.Join(dir, "review.md"), spec}
	if status := run(args, nil, &stdout, &stderr); status != 0 {
		t.Fatalf("generate = %d, want 0; standard error:\n%s", status, stderr.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	_, wantBody, _ := strings.Cut(code, "\npackage ")
	header, gotBody, _ := strings.Cut(string(got), "\npackage ")
	if diff := cmp.Diff(wantBody, gotBody); diff != "" {
		t.Errorf("generated client (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(header, "// Code generated by oapi-resilient. DO NOT EDIT.\n// source: openapi.yaml") &&
		strings.Contains(header, dir) {
		t.Errorf("header %q names an absolute path", header)
	}
	gotReview, err := os.ReadFile(filepath.Join(dir, "review.md"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(review, string(gotReview)); diff != "" {
		t.Errorf("review file (-want +got):\n%s", diff)
	}
}

// TestDefaultPackage checks how the package name follows the output
// folder.
func TestDefaultPackage(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		out   string
		want  string
	}{
		{name: "standard output", out: "", want: "api"},
		{name: "folder name", out: "pet-store/client.gen.go", want: "petstore"},
		{name: "major version folder", out: "billing/v2/client.gen.go", want: "billing"},
		{name: "existing package", files: map[string]string{"cmd/tool/main.go": "package main\n\nfunc main() {}\n"}, out: "cmd/tool/client.gen.go", want: "main"},
		{name: "main folder without Go files", out: "main/client.gen.go", want: "api"},
		{name: "keyword folder", out: "type/client.gen.go", want: "typeapi"},
		{name: "digit folder", out: "2fa/client.gen.go", want: "p2fa"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"api.yaml": orders + "    get:\n      operationId: listOrders\n      responses:\n        \"200\": {description: ok}\n"}
			for k, v := range tc.files {
				files[k] = v
			}
			t.Chdir(writeFiles(t, files))
			args := []string{"generate", "api.yaml"}
			if tc.out != "" {
				args = []string{"generate", "-o", tc.out, "api.yaml"}
			}
			var stdout, stderr bytes.Buffer
			if status := run(args, nil, &stdout, &stderr); status != 0 {
				t.Fatalf("run(%q) = %d; standard error:\n%s", args, status, stderr.String())
			}
			code := stdout.Bytes()
			if tc.out != "" {
				var err error
				if code, err = os.ReadFile(tc.out); err != nil {
					t.Fatal(err)
				}
			}
			if want := "\npackage " + tc.want + "\n"; !bytes.Contains(code, []byte(want)) {
				header, _, _ := bytes.Cut(code, []byte("\n\n\n"))
				t.Errorf("run(%q) wrote %q..., want package %s", args, header, tc.want)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args   []string
		status int
	}{
		{nil, 2},
		{[]string{"help"}, 0},
		{[]string{"frobnicate"}, 2},
		{[]string{"check"}, 2},
		{[]string{"check", "a.yaml", "b.yaml"}, 2},
		{[]string{"generate", "-package", "not-a-name", "a.yaml"}, 2},
		{[]string{"review", "-by", "team", "a.yaml"}, 2},
		{[]string{"check", "-h"}, 0},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		if got := run(tc.args, nil, &stdout, &stderr); got != tc.status {
			t.Errorf("run(%q) = %d, want %d; standard error:\n%s", tc.args, got, tc.status, stderr.String())
		}
	}
}

func TestIgnoreGoNames(t *testing.T) {
	t.Chdir(writeFiles(t, map[string]string{"api.yaml": `openapi: 3.0.3
info: {title: Summaries, version: "1"}
paths: {}
components:
  schemas:
    ImageSummary:
      type: object
      x-go-name: Summary
    NetworkSummary:
      type: object
      x-go-name: Summary
`}))
	var stdout, stderr bytes.Buffer
	if status := run([]string{"check", "api.yaml"}, nil, &stdout, &stderr); status != 0 || !strings.Contains(stderr.String(), "W-NAME-RENAMED") || !strings.Contains(stderr.String(), "-ignore-go-names") {
		t.Errorf("check with clashing x-go-name = %d, %q; want 0, a rename and a hint at -ignore-go-names", status, stderr.String())
	}
	stderr.Reset()
	if status := run([]string{"generate", "-ignore-go-names", "-o", "client.go", "api.yaml"}, nil, &stdout, &stderr); status != 0 {
		t.Fatalf("generate -ignore-go-names = %d, want 0; standard error:\n%s", status, stderr.String())
	}
	code, err := os.ReadFile("client.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"type ImageSummary ", "type NetworkSummary "} {
		if !strings.Contains(string(code), want) {
			t.Errorf("generated code lacks %q", want)
		}
	}
}

// TestDocumentURL: a relative server URL is resolved against
// -document-url; without it, it is reported and NewClient has no default.
func TestDocumentURL(t *testing.T) {
	t.Chdir(writeFiles(t, map[string]string{"api.yaml": `openapi: 3.0.3
info: {title: Relative, version: "1"}
servers: [{url: /v2}]
paths: {}
`}))
	var stdout, stderr bytes.Buffer
	if status := run([]string{"generate", "-o", "client.go", "api.yaml"}, nil, &stdout, &stderr); status != 0 || !strings.Contains(stderr.String(), "W-SERVER") {
		t.Errorf("generate = %d, %q; want 0 and a W-SERVER warning", status, stderr.String())
	}
	stderr.Reset()
	if status := run([]string{"generate", "-document-url", "https://api.example.com/specs/api.yaml", "-o", "client.go", "api.yaml"}, nil, &stdout, &stderr); status != 0 || stderr.Len() != 0 {
		t.Fatalf("generate -document-url = %d, want 0 and no warning; standard error:\n%s", status, stderr.String())
	}
	code, err := os.ReadFile("client.go")
	if err != nil {
		t.Fatal(err)
	}
	if want := `const ServerURL = "https://api.example.com/v2"`; !strings.Contains(string(code), want) {
		t.Errorf("generated code lacks %q", want)
	}
}

func TestPartName(t *testing.T) {
	for _, c := range [][3]string{
		{"client.gen.go", "", "client.gen.go"},
		{"client.gen.go", "issues", "client_issues.gen.go"},
		{"out/api.go", "models_2", "out/api_models_2.go"},
		{"api", "pets", "api_pets"},
	} {
		if got := partName(c[0], c[1]); got != c[2] {
			t.Errorf("partName(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
