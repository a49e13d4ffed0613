//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteToPipe: -o naming a pipe (as /dev/stdout or /dev/null are
// devices) writes the client into it and leaves the pipe in place, where a
// rename would have replaced it with a regular file.
func TestWriteToPipe(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "api.yaml")
	if err := os.WriteFile(spec, []byte(orders+"    get:\n      operationId: listOrders\n      responses:\n        \"204\": {description: ok}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "out.go")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(pipe)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		data, _ := io.ReadAll(f)
		got <- string(data)
	}()
	var stdout, stderr bytes.Buffer
	if status := run([]string{"generate", "-package", "orders", "-o", pipe, spec}, nil, &stdout, &stderr); status != 0 {
		t.Fatalf("generate -o PIPE = %d; standard error:\n%s", status, stderr.String())
	}
	if out := <-got; !strings.Contains(out, "package orders") {
		t.Errorf("the pipe carried %.80q, want the client", out)
	}
	if fi, err := os.Lstat(pipe); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("after generate -o PIPE, the pipe is %v, %v; want it left a pipe", fi.Mode(), err)
	}
}
