package diff_test

import (
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/resilientgo/resilient/gen/diff"
	"github.com/resilientgo/resilient/gen/protocgen"
	"github.com/resilientgo/resilient/gen/protoir/prototest"
	"github.com/resilientgo/resilient/policyspec"
)

// protoCase compares old.proto and new.proto of dir, each compiled as
// api.proto, with policy.yaml of dir when it exists.
func protoCase(t *testing.T, dir string) *diff.Report {
	t.Helper()
	load := func(name string) (diff.ProtoInput, [][]byte) {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		req, err := prototest.Request([]string{prototest.AnnotationsDir("gen/diff")}, map[string]string{"api.proto": string(src)}, "", "api.proto")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var file *policyspec.File
		var data []byte
		policyName := ""
		if data, err = os.ReadFile(filepath.Join(dir, "policy.yaml")); err == nil {
			policyName = "policy.yaml"
			if file, err = policyspec.DecodeFile(policyName, data); err != nil {
				t.Fatal(err)
			}
		}
		snap, err := protocgen.NewProtoSnapshot(&descriptorpb.FileDescriptorSet{File: req.ProtoFile}, file)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return diff.ProtoInput{Name: name, Plugin: snap.Plugin, Services: snap.Services, PolicyErrors: snap.PolicyErrors}, snap.Code
	}
	old, oldCode := load("old.proto")
	new, newCode := load("new.proto")
	var err error
	if old.API, new.API, err = diff.ProtoGoAPIs(old.Plugin, new.Plugin, oldCode, newCode); err != nil {
		t.Fatal(err)
	}
	return diff.CompareProto(old, new)
}
