package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/resilientgo/resilient/gen/diff"
)

// versions writes the pet store's .proto file as old/petstore.proto and,
// edited, as new/petstore.proto, and returns the folder.
func versions(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../../examples/petstore/petstore.proto")
	if err != nil {
		t.Fatal(err)
	}
	edited := string(src)
	for _, e := range [][2]string{
		// A read made idempotent: no longer hedged nor falling back.
		{"option idempotency_level = NO_SIDE_EFFECTS;", "option idempotency_level = IDEMPOTENT;"},
	} {
		if !strings.Contains(edited, e[0]) {
			t.Fatalf("petstore.proto no longer has %q", e[0])
		}
		edited = strings.Replace(edited, e[0], e[1], 1)
	}
	dir := t.TempDir()
	for name, content := range map[string]string{"old/petstore.proto": string(src), "new/petstore.proto": edited} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDiffProto: .proto files and descriptor sets of two versions give
// the same report, with the idempotency change in the wire and
// resilience sections; identical versions report nothing.
func TestDiffProto(t *testing.T) {
	dir := versions(t)
	oldProto, newProto := filepath.Join(dir, "old", "petstore.proto"), filepath.Join(dir, "new", "petstore.proto")
	// A descriptor set of the old version, as protoc -o --include_imports
	// writes one.
	set, err := compile(oldProto, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	oldSet := filepath.Join(dir, "old.binpb")
	os.WriteFile(oldSet, data, 0o644)

	var fromProto, fromSet, stderr bytes.Buffer
	if status := run([]string{"diff", "-format", "json", oldProto, newProto}, &fromProto, &stderr); status != 1 {
		t.Fatalf("status %d, want 1; standard error:\n%s", status, stderr.String())
	}
	var rep struct{ Changes []diff.Change }
	if err := json.Unmarshal(fromProto.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{diff.RuleProtoIdempotency: false, diff.RuleRiskFallbackRemoved: false}
	for _, c := range rep.Changes {
		if _, ok := want[c.Rule]; ok && strings.Contains(c.Operation, "/petstore.v1.PetStore/") {
			want[c.Rule] = true
		}
	}
	for rule, found := range want {
		if !found {
			t.Errorf("no %s change:\n%s", rule, fromProto.String())
		}
	}
	if status := run([]string{"diff", "-format", "json", oldSet, newProto}, &fromSet, &stderr); status != 1 {
		t.Fatalf("descriptor set: status %d; standard error:\n%s", status, stderr.String())
	}
	// Only the names of the versions differ.
	if got, want := strings.ReplaceAll(fromSet.String(), oldSet, oldProto), fromProto.String(); got != want {
		t.Errorf("descriptor set and .proto disagree:\n%s\nwant\n%s", got, want)
	}
	// Folders: every .proto file under each, each its own import root.
	var fromDirs bytes.Buffer
	if status := run([]string{"diff", "-format", "json", filepath.Dir(oldProto), filepath.Dir(newProto)}, &fromDirs, &stderr); status != 1 {
		t.Fatalf("folders: status %d; standard error:\n%s", status, stderr.String())
	}
	if got, want := strings.ReplaceAll(fromDirs.String(), filepath.Dir(oldProto), oldProto), fromProto.String(); got != strings.ReplaceAll(want, newProto, filepath.Dir(newProto)) {
		t.Errorf("folders and .proto files disagree:\n%s\nwant\n%s", got, want)
	}
	var same bytes.Buffer
	if status := run([]string{"diff", oldSet, oldProto}, &same, &stderr); status != 0 || !strings.Contains(same.String(), ": no change\n") {
		t.Errorf("identical versions: status %d:\n%s", status, same.String())
	}
}

// TestDiffProtoBadInput: unusable input exits 2 naming the file.
func TestDiffProtoBadInput(t *testing.T) {
	dir := versions(t)
	ok := filepath.Join(dir, "old", "petstore.proto")
	junk := filepath.Join(dir, "junk.binpb")
	os.WriteFile(junk, []byte("not a descriptor set"), 0o644)
	broken := filepath.Join(dir, "broken.proto")
	os.WriteFile(broken, []byte("syntax = \"proto3\";\nmessage {\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", ok, junk}, "not a descriptor set"},
		{[]string{"diff", ok, broken}, "broken.proto:2:"},
		{[]string{"diff", ok, filepath.Join(dir, "none.binpb")}, "none.binpb"},
		{[]string{"diff", ok}, "want OLD and NEW"},
		{[]string{"diff", "-format", "xml", ok, ok}, "-format"},
		{[]string{"lint", ok, ok}, "unknown command"},
	} {
		var stdout, stderr bytes.Buffer
		if status := run(tc.args, &stdout, &stderr); status != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: status %d (want 2), standard error lacks %q:\n%s", tc.args, status, tc.want, stderr.String())
		}
	}
}

// TestDiffProtoGit: git:REV:PATH compiles the .proto file as it is at
// REV.
func TestDiffProtoGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := versions(t)
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	gitRun("init", "-q")
	gitRun("add", "old")
	gitRun("commit", "-q", "-m", "old")
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	status := run([]string{"diff", "git:HEAD:old/petstore.proto", "new/petstore.proto"}, &stdout, &stderr)
	if status != 1 || !strings.Contains(stdout.String(), diff.RuleProtoIdempotency) {
		t.Errorf("status %d:\n%s\n%s", status, stdout.String(), stderr.String())
	}
	stdout.Reset()
	status = run([]string{"diff", "git:HEAD:old", "new"}, &stdout, &stderr)
	if status != 1 || !strings.Contains(stdout.String(), diff.RuleProtoIdempotency) {
		t.Errorf("folder at a revision: status %d:\n%s\n%s", status, stdout.String(), stderr.String())
	}
}

// TestDiffServiceConfig: the gRPC service configs the policy file names
// are read for both versions, as protoc-gen-resilient reads them: a
// method that stops being idempotent loses the service config's attempts.
func TestDiffServiceConfig(t *testing.T) {
	dir := t.TempDir()
	const proto = "syntax = \"proto3\";\npackage shop;\noption go_package = \"example.com/shop;shop\";\nmessage M {}\nservice Shop {\n  rpc Put(M) returns (M) { %s }\n}\n"
	files := map[string]string{
		"old/shop.proto":    strings.Replace(proto, "%s", "option idempotency_level = IDEMPOTENT;", 1),
		"new/shop.proto":    strings.Replace(proto, "%s", "", 1),
		"conf/policy.yaml":  "grpcServiceConfigs: [shop.json]\n",
		"conf/shop.json":    `{"methodConfig": [{"name": [{"service": "shop.Shop"}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`,
		"conf/broken.yaml":  "grpcServiceConfigs: [broken.json]\n",
		"conf/broken.json":  "{\"methodConfig\": [\n  {\"name\": [{}], \"timeout\": 5}\n]}",
		"conf/missing.yaml": "grpcServiceConfigs: [none.json]\n",
	}
	for name, content := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	oldProto, newProto := filepath.Join(dir, "old", "shop.proto"), filepath.Join(dir, "new", "shop.proto")
	var out, stderr bytes.Buffer
	run([]string{"diff", "-format", "json", "-policy", filepath.Join(dir, "conf", "policy.yaml"), oldProto, newProto}, &out, &stderr)
	var rep struct{ Changes []diff.Change }
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	found := false
	for _, c := range rep.Changes {
		if c.Operation == "/shop.Shop/Put" && c.Old == "4" && strings.HasPrefix(c.OldOrigin, "service config at ") && strings.Contains(c.OldOrigin, "shop.json") {
			found = true
		}
	}
	if !found {
		t.Errorf("no change from the service config's 4 attempts:\n%s", out.String())
	}
	for policy, want := range map[string]string{
		"broken.yaml":  "broken.json:2:18: E-SVCCONFIG",
		"missing.yaml": "cannot read the service config",
	} {
		stderr.Reset()
		if status := run([]string{"diff", "-policy", filepath.Join(dir, "conf", policy), oldProto, newProto}, &out, &stderr); status != 2 || !strings.Contains(stderr.String(), want) {
			t.Errorf("-policy %s: status %d, standard error %q; want 2 and %q", policy, status, stderr.String(), want)
		}
	}
}
