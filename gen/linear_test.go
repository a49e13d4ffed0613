package gen

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// nestedSpec is a spec whose one answer is an object holding an inline
// object, levels deep, written in flow style so that the spec's own size
// grows linearly.
func nestedSpec(levels int) []byte {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Nested, version: \"1\"}\npaths:\n  /tree:\n    get:\n      operationId: getTree\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: ")
	b.WriteString(strings.Repeat("{type: object, properties: {child: ", levels))
	b.WriteString("{type: string}")
	b.WriteString(strings.Repeat("}}", levels))
	b.WriteString("\n")
	return []byte(b.String())
}

// oneOfSpec is a spec whose one answer is a oneOf of variants
// alternatives: inline objects, and strings, which all want the variant
// name String.
func oneOfSpec(variants int) []byte {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Variants, version: \"1\"}\npaths:\n  /v:\n    get:\n      operationId: getV\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                oneOf:\n")
	for i := range variants {
		if i%2 == 0 {
			fmt.Fprintf(&b, "                  - {type: object, required: [v%d], properties: {v%d: {type: string}}}\n", i, i)
		} else {
			fmt.Fprintf(&b, "                  - {type: string, maxLength: %d}\n", i)
		}
	}
	return []byte(b.String())
}

func generated(t testing.TB, spec []byte) []byte {
	t.Helper()
	res, err := OpenAPI(fstest.MapFS{"api.yaml": {Data: spec}}, "api.yaml", OpenAPIOptions{Package: "nested"})
	if err != nil {
		t.Fatal(err)
	}
	return res.Code
}

// TestNestedInlineObjectsGrowLinearly: the generated file of a spec with
// twice as many nested inline objects is about twice as large, not four
// times: inline type names and their doc comments do not repeat the whole
// nesting path.
// The names cut to a bounded length stay distinct: the file type-checks.
func TestNestedInlineObjectsGrowLinearly(t *testing.T) {
	const n = 300
	small, large := generated(t, nestedSpec(n)), generated(t, nestedSpec(2*n))
	if ratio := float64(len(large)) / float64(len(small)); ratio > 2.3 {
		t.Errorf("%d levels give %d bytes, %d levels %d bytes: ratio %.2f, want about 2", n, len(small), 2*n, len(large), ratio)
	}
	if err := typeChecker.check("nested.go", large); err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(large)) {
		if len(line) > 1000 {
			t.Fatalf("a line of %d bytes: %.200s...", len(line), line)
		}
	}
}

// TestManyVariantsGrowLinearly: a oneOf of twice as many inline variants
// gives about twice the generated file, and each variant a distinct name.
func TestManyVariantsGrowLinearly(t *testing.T) {
	const n = 300
	small, large := generated(t, oneOfSpec(n)), generated(t, oneOfSpec(2*n))
	if ratio := float64(len(large)) / float64(len(small)); ratio > 2.3 {
		t.Errorf("%d variants give %d bytes, %d variants %d bytes: ratio %.2f, want about 2", n, len(small), 2*n, len(large), ratio)
	}
	if err := typeChecker.check("variants.go", large); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkNestedGenerate(b *testing.B) {
	for _, n := range []int{400, 800, 1600} {
		spec := nestedSpec(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				generated(b, spec)
			}
		})
	}
}

func BenchmarkNestedCheck(b *testing.B) {
	for _, n := range []int{1200, 2400, 4800} {
		spec := nestedSpec(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Check(fstest.MapFS{"api.yaml": {Data: spec}}, "api.yaml", OpenAPIOptions{}); err != nil {
					b.Fatalf("%.2000v", err)
				}
			}
		})
	}
}

func BenchmarkOneOfGenerate(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000} {
		spec := oneOfSpec(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				generated(b, spec)
			}
		})
	}
}
