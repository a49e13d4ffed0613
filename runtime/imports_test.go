package runtime_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCoreImports: the core package imports only the standard library,
// gobreaker and x/time, the modules whose requirements a user of HTTP
// clients alone inherits (internal/modulecheck counts them), the fleet
// store's protocol (fleetstore) and the shared text checks
// (internal/httptext), the helpers of generated code (codec) and the
// classes of attempts' outcomes (outcome), all held to the same rule, as
// are the route transport (route, which imports the core), the stream
// readers (stream, which does not) and the fallback stores
// (fallbackstore); Redis, OpenTelemetry and grpc live in sub-packages,
// each a module of its own.
func TestCoreImports(t *testing.T) {
	const corePath = "github.com/resilientgo/resilient/runtime"
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"fleetstore", filepath.Join("internal", "httptext"), "codec", "outcome", "route", "stream", "fallbackstore"} {
		more, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, more...)
	}
	allowed := []string{"github.com/sony/gobreaker/v2", "golang.org/x/time/",
		"github.com/resilientgo/resilient/runtime/fleetstore", "github.com/resilientgo/resilient/runtime/internal/httptext",
		"github.com/resilientgo/resilient/runtime/codec", "github.com/resilientgo/resilient/runtime/outcome",
		"github.com/resilientgo/resilient/runtime/fallbackstore"}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			if !strings.Contains(first, ".") {
				continue // the standard library
			}
			ok := path == corePath && filepath.Dir(name) == "route"
			for _, a := range allowed {
				ok = ok || strings.HasPrefix(path, a)
			}
			if !ok {
				t.Errorf("%s imports %s: the core runtime imports only the standard library, gobreaker and x/time", name, path)
			}
		}
	}
}
