package diff_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/diff"
	"github.com/resilientgo/resilient/gen/openapigen"
	"github.com/resilientgo/resilient/gen/protocgen"
)

// benchPair returns the two files an environment variable names
// ("OLD,NEW"), or skips.
func benchPair(b *testing.B, env string) (string, string) {
	old, new, ok := strings.Cut(os.Getenv(env), ",")
	if !ok {
		b.Skipf("set %s=OLD,NEW (see docs/spec-changes.md, Figures)", env)
	}
	return old, new
}

// both runs f on the two files side by side, as the commands load them.
func both(old, new string, f func(string) error) error {
	var wg sync.WaitGroup
	var errOld error
	wg.Go(func() { errOld = f(old) })
	errNew := f(new)
	wg.Wait()
	if errOld != nil {
		return errOld
	}
	return errNew
}

// BenchmarkOpenAPI compares, side by side, loading two versions of a
// spec with kin-openapi (as BenchmarkLoad of package gen does: origins
// kept, every validation finding collected) with diffing them as
// oapi-resilient diff does (generation of both, Go API, comparison). The
// pair is RESILIENT_DIFF_OPENAPI=OLD,NEW. The target: diff within twice
// load.
func BenchmarkOpenAPI(b *testing.B) {
	old, new := benchPair(b, "RESILIENT_DIFF_OPENAPI")
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			err := both(old, new, func(path string) error {
				loader := openapi3.NewLoader()
				loader.IncludeOrigin = true
				loader.IsExternalRefsAllowed = true
				doc, err := loader.LoadFromFile(path)
				if err == nil {
					_ = doc.Validate(loader.Context, openapi3.EnableMultiError())
				}
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("diff", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var inputs [2]diff.Input
			err := both(old, new, func(path string) error {
				snap, err := openapigen.Snapshot(os.DirFS(filepath.Dir(path)), filepath.Base(path), gen.OpenAPIOptions{})
				if err != nil {
					return err
				}
				api, err := diff.ParseGoAPI(path, snap.Code)
				if err != nil {
					return err
				}
				i := 0
				if path == new {
					i = 1
				}
				inputs[i] = diff.Input{Name: path, Service: snap.Service, API: api}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			diff.Compare(inputs[0], inputs[1])
		}
	})
}

// BenchmarkProto compares, side by side, protoc compiling two versions
// of .proto files into descriptor sets with diffing the two sets as
// resilient-proto diff does. RESILIENT_DIFF_PROTO=OLD,NEW names two
// folders holding an args file: protoc's arguments, one per line, run in
// that folder (-I ..., the .proto files); the sets are written beside it.
func BenchmarkProto(b *testing.B) {
	oldDir, newDir := benchPair(b, "RESILIENT_DIFF_PROTO")
	protoc := func(dir string) error {
		args, err := os.ReadFile(filepath.Join(dir, "args"))
		if err != nil {
			return err
		}
		cmd := exec.Command("protoc", append(strings.Fields(string(args)), "--include_imports", "-o", filepath.Join(dir, "set.binpb"))...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("protoc: %v\n%s", err, out)
		}
		return nil
	}
	b.Run("protoc", func(b *testing.B) {
		for b.Loop() {
			if err := both(oldDir, newDir, protoc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("diff", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var inputs [2]diff.ProtoInput
			err := both(oldDir, newDir, func(dir string) error {
				data, err := os.ReadFile(filepath.Join(dir, "set.binpb"))
				if err != nil {
					return err
				}
				set := &descriptorpb.FileDescriptorSet{}
				if err := proto.Unmarshal(data, set); err != nil {
					return err
				}
				snap, err := protocgen.NewProtoSnapshot(set, nil)
				if err != nil {
					return err
				}
				api, err := diff.ProtoGoAPI(snap.Plugin, snap.Code...)
				if err != nil {
					return err
				}
				i := 0
				if dir == newDir {
					i = 1
				}
				inputs[i] = diff.ProtoInput{Name: dir, Plugin: snap.Plugin, Services: snap.Services, API: api}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			diff.CompareProto(inputs[0], inputs[1])
		}
	})
}
