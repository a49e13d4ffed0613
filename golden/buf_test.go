package golden

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/internal/testtier"
)

// TestBufGenerate runs buf generate, whose local plugins run once per
// directory, over two proto packages with services and one without:
// review=reviews/{package}.md gives each package its own review, named
// for it, buf reports no duplicate file, and the package without services
// gets no review. With strategy: all, review=REVIEW.md gives one review of
// both. The generated code builds. buf is not installed by the test:
// .ci/run puts npm's @bufbuild/buf on the PATH.
func TestBufGenerate(t *testing.T) {
	testtier.Slow(t)
	buf, err := exec.LookPath("buf")
	if err != nil {
		t.Skip("buf is not on the PATH (npm install --prefix DIR @bufbuild/buf, then add DIR/node_modules/.bin; .ci/run does)")
	}
	bin := t.TempDir()
	for _, c := range [][2]string{
		{"protoc-gen-resilient", "github.com/resilientgo/resilient/cmd/protoc-gen-resilient"},
		{"protoc-gen-go", "google.golang.org/protobuf/cmd/protoc-gen-go"},
		{"protoc-gen-go-grpc", "google.golang.org/grpc/cmd/protoc-gen-go-grpc"},
	} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(bin, c[0]), c[1])
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", c[0], err, b)
		}
	}
	protos := map[string]string{
		"proto/a/v1/a.proto": "syntax = \"proto3\";\npackage a.v1;\noption go_package = \"example.com/built/gen/a/v1;av1\";\nmessage GetThingRequest { string name = 1; }\nmessage Thing { string name = 1; }\nservice Things {\n  rpc GetThing(GetThingRequest) returns (Thing);\n}\n",
		"proto/b/v1/b.proto": "syntax = \"proto3\";\npackage b.v1;\noption go_package = \"example.com/built/gen/b/v1;bv1\";\nmessage PingRequest { string text = 1; }\nservice Pinger {\n  rpc Ping(PingRequest) returns (PingRequest);\n}\n",
		"proto/m/v1/m.proto": "syntax = \"proto3\";\npackage m.v1;\noption go_package = \"example.com/built/gen/m/v1;mv1\";\nmessage Only { string text = 1; }\n",
	}
	run := func(t *testing.T, strategy, review string) (string, []string) {
		dir := newBuildModule(t)
		for name, src := range protos {
			must(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755))
			must(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
		}
		must(t, os.WriteFile(filepath.Join(dir, "buf.yaml"), []byte("version: v2\nmodules:\n  - path: proto\n"), 0o644))
		plugin := func(name, opt string) string {
			s := "  - local: " + filepath.Join(bin, name) + "\n    out: gen\n    opt: [\"paths=source_relative" + opt + "\"]\n"
			if strategy != "" {
				s += "    strategy: " + strategy + "\n"
			}
			return s
		}
		gen := "version: v2\nplugins:\n" + plugin("protoc-gen-go", "") + plugin("protoc-gen-go-grpc", "") + plugin("protoc-gen-resilient", "\", \"review="+review)
		must(t, os.WriteFile(filepath.Join(dir, "buf.gen.yaml"), []byte(gen), 0o644))
		cmd := exec.Command(buf, "generate")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("buf generate: %v\n%s", err, out)
		}
		var reviews []string
		must(t, filepath.WalkDir(filepath.Join(dir, "gen"), func(path string, _ os.DirEntry, err error) error {
			if strings.HasSuffix(path, ".md") {
				rel, _ := filepath.Rel(filepath.Join(dir, "gen"), path)
				reviews = append(reviews, filepath.ToSlash(rel))
			}
			return err
		}))
		goBuild(t, dir)
		return string(out), reviews
	}
	t.Run("per directory", func(t *testing.T) {
		out, reviews := run(t, "", "reviews/{package}.md")
		if strings.Contains(strings.ToLower(out), "duplicate") {
			t.Errorf("buf warns of a duplicate:\n%s", out)
		}
		if want := []string{"reviews/a.v1.md", "reviews/b.v1.md"}; !slices.Equal(reviews, want) {
			t.Errorf("reviews = %q, want %q", reviews, want)
		}
	})
	t.Run("strategy all", func(t *testing.T) {
		_, reviews := run(t, "all", "REVIEW.md")
		if want := []string{"REVIEW.md"}; !slices.Equal(reviews, want) {
			t.Errorf("reviews = %q, want %q", reviews, want)
		}
	})
}
