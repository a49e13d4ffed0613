package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/openapigen"
)

var update = flag.Bool("update", false, "rewrite the expected output of the golden cases")

// openAPICases lists the folders of golden/openapi. Each is a case and
// a package of this module: openapi.yaml and an optional policy.yaml in;
// client.gen.go and review.md expected out; doc.go saying what the case
// proves; and, in some, hand-written tests of the expected client. Adding
// a case is adding a folder with openapi.yaml and doc.go, then running go
// test ./golden -update.
func openAPICases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("openapi")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		t.Fatal("no case under golden/openapi")
	}
	return names
}

// TestOpenAPI generates every case in-process and compares the output
// with the expected files byte for byte; with -update it rewrites them.
// The expected clients are packages of this module: go build, go vet and
// the cases' own tests check them.
func TestOpenAPI(t *testing.T) {
	for _, name := range openAPICases(t) {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("openapi", name)
			requireDoc(t, dir)
			res := generate(t, dir, name)
			for _, w := range res.Warnings {
				if warningFree[name] {
					t.Errorf("warning: %v; the case must generate without any", w)
					continue
				}
				t.Logf("warning: %v", w)
			}
			if res.Files == nil {
				compare(t, filepath.Join(dir, "client.gen.go"), res.Code)
			} else {
				compareSplit(t, dir, res.Files)
			}
			compare(t, filepath.Join(dir, "review.md"), []byte(res.Review))
		})
	}
}

// requireDoc fails t when the case folder dir has no doc.go.
func requireDoc(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "doc.go")); err != nil {
		t.Errorf("%s has no doc.go: add one whose package comment says what the case proves (%v)", dir, err)
	}
}

// warningFree lists the cases whose every construct the client supports:
// a warning generating them fails the test.
var warningFree = map[string]bool{"api": true, "auth": true}

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
	caseFlags(t, dir, &opts)
	res, err := openapigen.OpenAPI(os.DirFS(dir), "openapi.yaml", opts)
	if err != nil {
		t.Fatalf("openapigen.OpenAPI(%s): %v", dir, err)
	}
	return res
}

// caseFlags applies the case's flags.txt, when there is one: the
// oapi-resilient flags -include, -exclude and -split.
func caseFlags(t *testing.T, dir string, opts *gen.OpenAPIOptions) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "flags.txt"))
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet(dir, flag.ContinueOnError)
	filters := func(into *[]gen.Filter) func(string) error {
		return func(s string) error {
			f, err := gen.ParseFilters(s)
			*into = append(*into, f...)
			return err
		}
	}
	fs.Func("include", "", filters(&opts.Include))
	fs.Func("exclude", "", filters(&opts.Exclude))
	fs.Var(&opts.Split, "split", "")
	if err := fs.Parse(strings.Fields(string(data))); err != nil || fs.NArg() > 0 {
		t.Fatalf("%s/flags.txt: %v %v", dir, err, fs.Args())
	}
}

// compareSplit checks the files of a split client against client.gen.go
// and client_PART.gen.go, and that no other client_*.gen.go is expected.
func compareSplit(t *testing.T, dir string, files []gen.File) {
	t.Helper()
	want := map[string]bool{}
	for _, f := range files {
		name := "client.gen.go"
		if f.Part != "" {
			name = "client_" + f.Part + ".gen.go"
		}
		want[name] = true
		compare(t, filepath.Join(dir, name), f.Code)
	}
	old, _ := filepath.Glob(filepath.Join(dir, "client_*.gen.go"))
	for _, o := range old {
		if !want[filepath.Base(o)] {
			if *update {
				if err := os.Remove(o); err != nil {
					t.Fatal(err)
				}
				continue
			}
			t.Errorf("%s is no longer generated; run go test ./golden -update", o)
		}
	}
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
