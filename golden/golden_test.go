package golden

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/gen"
)

var update = flag.Bool("update", false, "rewrite the expected output of the golden cases")

// openAPICase is one folder of golden/openapi: openapi.yaml and an
// optional policy.yaml in, client.gen.go and review.md expected out.
type openAPICase struct {
	name string
	// proves says what the case shows.
	proves string
}

var openAPICases = []openAPICase{
	{"petstore", "a plain spec (the OAI v3.0 petstore) gets a full client from the built-in defaults alone"},
	{"features", "every construct of the front end: schemas, enums, unions, allOf, parameters, bodies, errors, x-resilience at three levels"},
	{"idempotency-key", "a POST with idempotencyKey retries with one key for all attempts; a POST without one never retries"},
	{"retry", "a document retry block says how to retry, path and operation blocks say how often; a plain POST stays unretried, idempotent: true opts a POST in"},
	{"timeouts", "total, attempt and connect timeouts layered document < path item < operation"},
	{"breaker-bulkhead", "breaker settings from the spec and the dependency-wide bulkhead from the policy file"},
	{"hedge", "hedging after a given delay, and after the measured p95 from the policy file"},
	{"fallback-cached", "a read answering from the last good response for a TTL, marked degraded; the write beside it has none; a secured read whose answer is the same for every caller declares it shared"},
	{"fallback-static", "a read answering with a static value of its response type, marked degraded"},
	{"latency-derived", "attempt and total timeouts and the bulkhead size derived from measured latency in the policy file"},
	{"hostile-names", "spec text that would break naive generated code stays text: comment closers and directives in descriptions, a NUL in a path, a property and a discriminator called \"-\", an int32 enum beyond 32 bits, a static fallback holding a NUL and a byte order mark (behaviour tests beside)"},
	{"path-escaping", "values stay where they belong: literal template text is escaped at generation time, path values that form a dot segment are refused before sending, and query values and keys in every style arrive as values (behaviour tests beside)"},
}

// TestOpenAPI generates every case in-process and compares the output
// with the expected files byte for byte; with -update it rewrites them.
// Then it builds and vets all expected clients in one temporary module.
func TestOpenAPI(t *testing.T) {
	for _, c := range openAPICases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join("openapi", c.name)
			res := generate(t, dir, c.name)
			for _, w := range res.Warnings {
				t.Logf("warning: %v", w)
			}
			compare(t, filepath.Join(dir, "client.gen.go"), res.Code)
			compare(t, filepath.Join(dir, "review.md"), []byte(res.Review))
		})
	}
	if t.Failed() || testing.Short() {
		return
	}
	buildAll(t)
}

// TestOpenAPIDeterministic checks that two generations of a case give the
// same bytes.
func TestOpenAPIDeterministic(t *testing.T) {
	dir := filepath.Join("openapi", "features")
	first, second := generate(t, dir, "features"), generate(t, dir, "features")
	if !bytes.Equal(first.Code, second.Code) || first.Review != second.Review {
		t.Error("two generations of the features case differ")
	}
}

func generate(t *testing.T, dir, name string) *gen.Result {
	t.Helper()
	opts := gen.OpenAPIOptions{Package: gen.PackageName(name, "client"), Source: "openapi.yaml"}
	if data, err := os.ReadFile(filepath.Join(dir, "policy.yaml")); err == nil {
		opts.PolicyName, opts.PolicyData = "policy.yaml", data
	} else if !os.IsNotExist(err) {
		t.Fatal(err)
	}
	res, err := gen.OpenAPI(os.DirFS(dir), "openapi.yaml", opts)
	if err != nil {
		t.Fatalf("gen.OpenAPI(%s): %v", dir, err)
	}
	return res
}

// compare checks got against the file want, or rewrites it with -update.
func compare(t *testing.T, want string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(want, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(want)
	if err != nil {
		t.Fatalf("%v; run go test ./golden -update", err)
	}
	if !bytes.Equal(data, got) {
		t.Errorf("%s is stale: the generator's output differs (first difference at line %d); run go test ./golden -update and review the diff",
			want, firstDiffLine(data, got))
	}
}

func firstDiffLine(a, b []byte) int {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return i + 1
		}
	}
	return min(len(al), len(bl)) + 1
}

// buildAll copies every expected client into its own package of a
// temporary module that uses this repository, and runs go build and go
// vet on it once.
func buildAll(t *testing.T) {
	t.Helper()
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	gomod := "module goldentest\n\ngo 1.26\n\nrequire github.com/resilientgo/resilient v0.0.0\n\nreplace github.com/resilientgo/resilient => " + repo + "\n"
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range openAPICases {
		code, err := os.ReadFile(filepath.Join("openapi", c.name, "client.gen.go"))
		if err != nil {
			t.Fatal(err)
		}
		pkg := filepath.Join(mod, gen.PackageName(c.name, "client"))
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "client.gen.go"), code, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the module of expected clients: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
