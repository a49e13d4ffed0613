package gen_test

import (
	"os"
	"path/filepath"
	"testing"

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

// BenchmarkLoad is the baseline: kin-openapi loading and validating the
// same file with the same options, as the first stage of BenchmarkGenerate
// does. The target is BenchmarkGenerate within 1.5 times this.
func BenchmarkLoad(b *testing.B) {
	dir := stripeFS(b)
	fsys := os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := openapi.Load(fsys, "spec3.yaml", openapi.LoadOptions{Dir: "stripe"}); err != nil {
			b.Fatal(err)
		}
	}
}
