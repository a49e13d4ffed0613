package modulecheck

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/internal/repomod"
	"github.com/resilientgo/resilient/internal/testtier"
)

// repo is the path of the repository's root module; the runtime's modules
// are below it.
const repo = repomod.Path

// runtimeModules are the directories of the runtime's modules, relative to
// the repository's root: the core runtime and each subpackage whose
// dependencies a user of the core alone must not inherit.
var runtimeModules = []string{
	"runtime",
	"runtime/otelobserver",
	"runtime/oteltrace",
	"runtime/redisfleet",
	"runtime/resilientgrpc",
}

// Module path prefixes of the heavy dependencies, each allowed only in the
// graph of the subpackages that need it.
const (
	grpc  = "google.golang.org/grpc"
	otel  = "go.opentelemetry.io/"
	redis = "github.com/redis/"
)

// nobody are module path prefixes that no user of the runtime may inherit:
// the examples' fault injector and its tail, the generators' dependencies
// (the root module), and the benchmarks' failsafe-go.
var nobody = []string{
	"github.com/Shopify/toxiproxy",
	"github.com/prometheus/",
	"github.com/rs/zerolog",
	"github.com/gorilla/mux",
	"github.com/failsafe-go/",
	"github.com/getkin/",
	"github.com/dave/jennifer",
	"github.com/bufbuild/",
	"go.yaml.in/yaml/v4",
}

// userCase is a fresh user module that imports one package of the runtime.
type userCase struct {
	pkg  string // import path below repo
	name string // an exported name of pkg that main uses
	// max is the most modules go list -m all may list besides the user's
	// own. The core's is the promise to users of HTTP clients alone; the
	// subpackages' are today's counts, so that growth is a decision.
	max int
	// need and forbid are module path prefixes that must and must not be
	// in the graph.
	need, forbid []string
}

var userCases = []userCase{
	{pkg: "runtime", name: "DefaultMaxRetries", max: 15, forbid: []string{grpc, otel, redis, "golang.org/x/net"}},
	{pkg: "runtime/resilientgrpc", name: "Classify", max: 48, need: []string{grpc}, forbid: []string{redis}},
	{pkg: "runtime/otelobserver", name: "New", max: 23, need: []string{otel}, forbid: []string{grpc, redis}},
	{pkg: "runtime/oteltrace", name: "New", max: 58, need: []string{otel, grpc}, forbid: []string{redis}},
	{pkg: "runtime/redisfleet", name: "New", max: 19, need: []string{redis}, forbid: []string{grpc, otel}},
}

// TestUserModuleGraph makes, for the core runtime and each of its
// subpackages, a fresh module that imports that package alone, requiring
// the runtime's modules with replace directives to this checkout, and
// checks what go list -m all names: at most 15 modules besides the user's
// own for the core runtime, the subpackages' counts as they are, gRPC,
// OpenTelemetry and Redis only with the subpackages that need them, and
// nothing of the examples, the generators or the benchmarks.
func TestUserModuleGraph(t *testing.T) {
	testtier.Slow(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mods, err := repomod.Modules(root)
	if err != nil {
		t.Fatal(err)
	}
	sums, err := repomod.Sums(mods)
	if err != nil {
		t.Fatal(err)
	}
	goLine := ""
	for _, dir := range runtimeModules {
		gomod, err := os.ReadFile(filepath.Join(root, dir, "go.mod"))
		if err != nil {
			t.Fatalf("%v: %s must be a module of its own, so that its dependencies stay out of the graph of users who do not import it", err, dir)
		}
		for line := range strings.Lines(string(gomod)) {
			if strings.HasPrefix(line, "module ") && strings.TrimSpace(strings.TrimPrefix(line, "module ")) != repo+"/"+dir {
				t.Fatalf("%s/go.mod: %s, want module %s/%s", dir, strings.TrimSpace(line), repo, dir)
			}
			// The user's module asks for the lowest Go the runtime supports.
			if dir == "runtime" && strings.HasPrefix(line, "go ") {
				goLine = line
			}
		}
	}
	if goLine == "" {
		t.Fatalf("%s/runtime/go.mod has no go directive", root)
	}
	for _, tc := range userCases {
		t.Run(strings.ReplaceAll(tc.pkg, "/", "_"), func(t *testing.T) {
			mods := userGraph(t, mods, goLine, sums, tc)
			if len(mods) > tc.max {
				t.Errorf("a module that imports %s/%s alone lists %d modules besides its own in go list -m all, want at most %d: %s",
					repo, tc.pkg, len(mods), tc.max, strings.Join(mods, " "))
			}
			for _, want := range tc.need {
				if !hasPrefix(mods, want) {
					t.Errorf("no module %s* in the graph of a user of %s: the check does not see the dependency it guards", want, tc.pkg)
				}
			}
			for _, m := range mods {
				for _, bad := range append(tc.forbid, nobody...) {
					if strings.HasPrefix(m, bad) {
						t.Errorf("a module that imports %s/%s alone requires %s", repo, tc.pkg, m)
					}
				}
				if m == repo {
					t.Errorf("a module that imports %s/%s alone requires the generators' module %s", repo, tc.pkg, repo)
				}
			}
			t.Logf("%s: %d modules: %s", tc.pkg, len(mods), strings.Join(mods, " "))
		})
	}
}

// userGraph makes the user module of tc in a temporary directory, with
// the repository's modules repos replaced by their folders, and returns
// the module paths go list -m all names, the user's own left out.
func userGraph(t *testing.T, repos []repomod.Module, goLine string, sums []byte, tc userCase) []string {
	t.Helper()
	dir := t.TempDir()
	var gomod strings.Builder
	fmt.Fprintf(&gomod, "module example.com/user\n\n%s\nrequire %s/%s v0.0.0\n\n", goLine, repo, tc.pkg)
	for _, m := range repos {
		fmt.Fprintf(&gomod, "replace %s => %s\n", m.Path, m.Dir)
	}
	files := map[string]string{
		"go.mod":  gomod.String(),
		"go.sum":  string(sums),
		"main.go": fmt.Sprintf("package main\n\nimport p %q\n\nvar _ = p.%s\n\nfunc main() {}\n", repo+"/"+tc.pkg, tc.name),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gocmd(t, dir, "mod", "tidy")
	gocmd(t, dir, "build", "./...")
	mods := strings.Fields(gocmd(t, dir, "list", "-m", "-f", "{{.Path}}", "all"))
	if len(mods) < 2 || mods[0] != "example.com/user" {
		t.Fatalf("go list -m all = %q, want the user module and its dependencies", mods)
	}
	return mods[1:]
}

// hasPrefix reports whether a module path in mods starts with prefix.
func hasPrefix(mods []string, prefix string) bool {
	for _, m := range mods {
		if strings.HasPrefix(m, prefix) {
			return true
		}
	}
	return false
}

// gocmd runs the go command in dir, outside any workspace, and returns
// its standard output.
func gocmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return string(out)
}
