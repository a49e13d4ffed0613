package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// largeSpec is a spec of n small operations under three tags: 430 of them
// are estimated above gen.AutoSplitBytes.
func largeSpec(n int) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Large, version: \"1\"}\npaths:\n")
	for i := range n {
		fmt.Fprintf(&b, "  /items%d/{id}:\n    get:\n      operationId: getItem%d\n      tags: [group%d]\n", i, i, i%3)
		b.WriteString("      parameters:\n        - {name: id, in: path, required: true, schema: {type: string}}\n")
		b.WriteString("      responses:\n        \"204\": {description: ok}\n")
	}
	return b.String()
}

// generatedFiles lists the .go files of dir.
func generatedFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestAutoSplit: without -split, a large client is split and a small one
// is not; -split=off keeps a large one whole, and then warns about the
// files an earlier split run left; -split alone splits a small one.
func TestAutoSplit(t *testing.T) {
	dir := writeFiles(t, map[string]string{"large.yaml": largeSpec(430), "small.yaml": largeSpec(3)})
	generate := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		args = append([]string{"generate", "-package", "x"}, args...)
		if status := run(args, nil, &stdout, &stderr); status != 0 {
			t.Fatalf("run(%q) = %d; standard error:\n%s", args, status, stderr.String())
		}
		return stderr.String()
	}
	out := func(name string) string { return filepath.Join(dir, name, "client.gen.go") }

	generate("-o", out("large"), filepath.Join(dir, "large.yaml"))
	split := []string{"client.gen.go", "client_group0.gen.go", "client_group1.gen.go", "client_group2.gen.go"}
	if got := generatedFiles(t, filepath.Join(dir, "large")); !slices.Equal(got, split) {
		t.Errorf("large spec, default -split: files %q, want %q", got, split)
	}

	generate("-o", out("small"), filepath.Join(dir, "small.yaml"))
	if got := generatedFiles(t, filepath.Join(dir, "small")); !slices.Equal(got, []string{"client.gen.go"}) {
		t.Errorf("small spec, default -split: files %q, want one", got)
	}
	generate("-split", "-o", out("small-on"), filepath.Join(dir, "small.yaml"))
	if got := generatedFiles(t, filepath.Join(dir, "small-on")); !slices.Equal(got, split) {
		t.Errorf("small spec, -split: files %q, want %q", got, split)
	}

	stderr := generate("-split=off", "-o", out("large"), filepath.Join(dir, "large.yaml"))
	for _, part := range split[1:] {
		want := fmt.Sprintf("warning: %s: a file of an earlier split client is left beside %s", filepath.Join(dir, "large", part), out("large"))
		if !strings.Contains(stderr, want) {
			t.Errorf("-split=off after a split run: standard error lacks %q:\n%s", want, stderr)
		}
	}
	whole, err := os.ReadFile(out("large"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(whole, []byte("\nfunc (c *Client) GetItem")); n != 430 {
		t.Errorf("-split=off: %d operations in client.gen.go, want 430", n)
	}

	var stdout, stderrBuf bytes.Buffer
	if status := run([]string{"generate", "-package", "x", filepath.Join(dir, "large.yaml")}, nil, &stdout, &stderrBuf); status != 0 {
		t.Fatalf("generate to standard output = %d; standard error:\n%s", status, stderrBuf.String())
	}
	if !bytes.Equal(stdout.Bytes(), whole) {
		t.Error("generate to standard output: not the one file -split=off writes")
	}
	if status := run([]string{"generate", "-split=sometimes", filepath.Join(dir, "large.yaml")}, nil, &stdout, &stderrBuf); status == 0 {
		t.Error("-split=sometimes accepted")
	}
}
