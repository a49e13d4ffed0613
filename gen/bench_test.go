package gen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/openapi"
	"github.com/resilientgo/resilient/gen/openapigen"
)

// benchSpec is a spec the benchmarks run on: the Stripe spec of the
// corpus in testdata/corpus, and large third-party
// specs whose path an environment variable gives (gen/bench/README.md
// says where to get them). A benchmark whose spec is absent skips.
type benchSpec struct {
	name string
	// dir and file locate the spec; env, when set, names the variable
	// holding the spec's path instead.
	dir, file, env string
}

var benchSpecs = []benchSpec{
	{name: "stripe", dir: filepath.Join("testdata", "corpus", "openapi", "stripe"), file: "spec3.yaml"},
	{name: "github", env: "RESILIENT_GITHUB_SPEC"},
	{name: "msgraph", env: "RESILIENT_MSGRAPH_SPEC"},
}

// locate returns the spec's folder and file name, skipping the benchmark
// when the spec is absent.
func (s benchSpec) locate(b *testing.B) (dir, file string) {
	b.Helper()
	dir, file = s.dir, s.file
	if s.env != "" {
		p := os.Getenv(s.env)
		if p == "" {
			b.Skipf("%s is not set to the %s spec's path", s.env, s.name)
		}
		dir, file = filepath.Split(p)
	}
	if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
		b.Skipf("no %s spec: %v", s.name, err)
	}
	return dir, file
}

// eachSpec runs fn as a sub-benchmark per spec, reporting the process's
// peak resident set size during the sub-benchmark as peak-RSS-MB (on
// Linux; the peak is reset before each) and the user and system CPU time
// of all its threads per operation as cpu-s/op (on Unix systems). On a
// machine shared with other work, the CPU time varies less than the wall
// time.
func eachSpec(b *testing.B, fn func(b *testing.B, dir, file string)) {
	for _, s := range benchSpecs {
		b.Run(s.name, func(b *testing.B) {
			dir, file := s.locate(b)
			reset := resetPeakRSS()
			cpu0, cpuOK := processCPU()
			fn(b, dir, file)
			if cpu1, ok := processCPU(); ok && cpuOK && b.N > 0 {
				b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			}
			if peak, ok := peakRSS(); ok && reset {
				b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
			}
		})
	}
}

// resetPeakRSS returns the heap to the system and resets the kernel's
// high-water mark of the process's resident set size.
func resetPeakRSS() bool {
	runtime.GC()
	debug.FreeOSMemory()
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSS reads the high-water mark of the resident set size, in bytes.
func peakRSS() (int64, bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for line := range bytes.Lines(status) {
		if v, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			kb, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(v), []byte(" kB"))), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// BenchmarkGenerate is the whole pipeline: load and validate, build the
// IR, resolve the policy, emit and format the Go client, render the
// review.
func BenchmarkGenerate(b *testing.B) {
	eachSpec(b, func(b *testing.B, dir, file string) {
		fsys := os.DirFS(dir)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := openapigen.OpenAPI(fsys, file, gen.OpenAPIOptions{Dir: "spec", Package: "client"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLoad is the baseline: kin-openapi alone loading the same file
// and validating it with the options the front end uses (origins kept,
// external references allowed, every validation error collected). The
// targets are BenchmarkGenerate within 1.5 times this in time, and
// within 1.3 times its peak-RSS-MB.
func BenchmarkLoad(b *testing.B) {
	eachSpec(b, func(b *testing.B, dir, file string) {
		path := filepath.Join(dir, file)
		b.ReportAllocs()
		for b.Loop() {
			loader := openapi3.NewLoader()
			loader.IncludeOrigin = true
			loader.IsExternalRefsAllowed = true
			doc, err := loader.LoadFromFile(path)
			if err != nil {
				b.Fatal(err)
			}
			// A third-party spec need not validate; its findings are
			// computed all the same.
			_ = doc.Validate(loader.Context, openapi3.EnableMultiError())
		}
	})
}

// BenchmarkFrontEndLoad is the generator's first stage alone, as
// [openapigen.OpenAPI] runs it: [openapi.Load], which also parses the file for
// positions and checks its $refs before handing it to kin-openapi, then
// the validation without examples. It tells the pipeline's own load
// overhead from the rest of BenchmarkGenerate.
func BenchmarkFrontEndLoad(b *testing.B) {
	eachSpec(b, func(b *testing.B, dir, file string) {
		fsys := os.DirFS(dir)
		b.ReportAllocs()
		for b.Loop() {
			doc, _, err := openapi.Load(fsys, file, openapi.LoadOptions{Dir: "spec", DeferValidation: true})
			if err != nil {
				b.Fatal(err)
			}
			// A third-party spec need not validate.
			_, _ = doc.Validate(false)
		}
	})
}
