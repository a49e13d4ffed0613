package gen_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/openapi"
)

// stripe is the largest spec of the shared corpus, laid beside the
// repository by CI.
var stripe = filepath.Join("..", "..", "shared", "corpus", "openapi", "stripe")

func stripeFS(b *testing.B) (dir string) {
	b.Helper()
	if _, err := os.Stat(filepath.Join(stripe, "spec3.yaml")); err != nil {
		b.Skipf("no Stripe spec beside the repository: %v", err)
	}
	return stripe
}

// BenchmarkGenerate is the whole pipeline on the Stripe spec: load and
// validate, build the IR, resolve the policy, emit and format the Go
// client, render the review.
func BenchmarkGenerate(b *testing.B) {
	dir := stripeFS(b)
	fsys := os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := gen.OpenAPI(fsys, "spec3.yaml", gen.OpenAPIOptions{Dir: "stripe", Package: "stripe"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad is the baseline: kin-openapi alone loading the same file
// and validating it with the options the front end uses (origins kept,
// external references allowed, every validation error collected). The
// target is BenchmarkGenerate within 1.5 times this.
func BenchmarkLoad(b *testing.B) {
	dir := stripeFS(b)
	path := filepath.Join(dir, "spec3.yaml")
	b.ReportAllocs()
	for b.Loop() {
		loader := openapi3.NewLoader()
		loader.IncludeOrigin = true
		loader.IsExternalRefsAllowed = true
		doc, err := loader.LoadFromFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := doc.Validate(loader.Context, openapi3.EnableMultiError()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFrontEndLoad is the generator's first stage alone:
// [openapi.Load], which also parses the file for positions and checks
// its $refs before handing it to kin-openapi. It tells the pipeline's
// own load overhead from the rest of BenchmarkGenerate.
func BenchmarkFrontEndLoad(b *testing.B) {
	dir := stripeFS(b)
	fsys := os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := openapi.Load(fsys, "spec3.yaml", openapi.LoadOptions{Dir: "stripe"}); err != nil {
			b.Fatal(err)
		}
	}
}
