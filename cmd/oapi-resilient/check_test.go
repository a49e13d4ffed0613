package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateCheck: -check writes nothing, exits 0 when the files are
// what generation writes, 1 with a unified diff when one is stale,
// missing, or left from an earlier split, and 2 on bad input.
func TestGenerateCheck(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"small.yaml": largeSpec(3),
		"four.yaml":  largeSpec(4),
		"bad.yaml":   "openapi: 3.0.3\ninfo: [\n",
	})
	spec := func(name string) string { return filepath.Join(dir, name) }
	out := filepath.Join(dir, "c", "client.gen.go")
	review := filepath.Join(dir, "c", "REVIEW.md")
	runCheck := func(args ...string) (int, string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		status := run(append([]string{"generate", "-package", "x"}, args...), nil, &stdout, &stderr)
		return status, stdout.String(), stderr.String()
	}
	if status, _, stderr := runCheck("-split", "-o", out, "-review", review, spec("small.yaml")); status != 0 {
		t.Fatalf("generate: %d\n%s", status, stderr)
	}
	before := generatedFiles(t, filepath.Dir(out))

	if status, stdout, stderr := runCheck("-check", "-split", "-o", out, "-review", review, spec("small.yaml")); status != 0 || stdout != "" {
		t.Fatalf("fresh split client: status %d, diff:\n%s\n%s", status, stdout, stderr)
	}

	// An edited part is stale; the diff shows the edit reverted.
	part := filepath.Join(dir, "c", "client_group1.gen.go")
	data, _ := os.ReadFile(part)
	edited := strings.Replace(string(data), "func (c *Client) GetItem1(", "func (c *Client) GetItemOne(", 1)
	if edited == string(data) {
		t.Fatal("the part does not declare GetItem1")
	}
	os.WriteFile(part, []byte(edited), 0o644)
	status, stdout, stderr := runCheck("-check", "-split", "-o", out, "-review", review, spec("small.yaml"))
	if status != 1 || !strings.Contains(stdout, "--- a/"+part) || !strings.Contains(stdout, "\n-func (c *Client) GetItemOne(") || !strings.Contains(stdout, "\n+func (c *Client) GetItem1(") {
		t.Errorf("edited part: status %d (want 1), diff:\n%s\n%s", status, stdout, stderr)
	}
	if got, _ := os.ReadFile(part); string(got) != edited {
		t.Error("-check rewrote the stale file")
	}
	os.WriteFile(part, data, 0o644)

	// A new operation in the spec: the part it belongs to is stale, and so
	// is the review.
	status, stdout, _ = runCheck("-check", "-split", "-o", out, "-review", review, spec("four.yaml"))
	if status != 1 || !strings.Contains(stdout, "+func (c *Client) GetItem3(") || !strings.Contains(stdout, "--- a/"+review) {
		t.Errorf("spec with one more operation: status %d, diff:\n%s", status, stdout)
	}

	// One file now: the split parts would be left stale.
	status, stdout, stderr = runCheck("-check", "-split=off", "-o", out, spec("small.yaml"))
	if status != 1 || !strings.Contains(stdout, "+++ /dev/null") || !strings.Contains(stderr, "client_group0.gen.go: left from an earlier split client") {
		t.Errorf("one file over a split client: status %d, diff:\n%s\n%s", status, stdout, stderr)
	}

	// A missing file.
	status, stdout, _ = runCheck("-check", "-o", filepath.Join(dir, "none", "client.gen.go"), spec("small.yaml"))
	if status != 1 || !strings.HasPrefix(stdout, "--- /dev/null\n") {
		t.Errorf("missing file: status %d, diff:\n%.200s", status, stdout)
	}

	if status, _, stderr := runCheck("-check", "-o", out, spec("bad.yaml")); status != 2 || !strings.Contains(stderr, "bad.yaml:") {
		t.Errorf("bad spec: status %d (want 2):\n%s", status, stderr)
	}
	if status, _, stderr := runCheck("-check", spec("small.yaml")); status != 2 || !strings.Contains(stderr, "-check needs -o") {
		t.Errorf("without -o: status %d (want 2):\n%s", status, stderr)
	}
	if after := generatedFiles(t, filepath.Dir(out)); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("-check changed the folder: %q, was %q", after, before)
	}
}
