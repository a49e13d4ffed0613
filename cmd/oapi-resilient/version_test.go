package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestVersion: -version, --version and version print the command's name
// and build on standard output with status 0.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"-version", "--version", "version"} {
		var stdout, stderr bytes.Buffer
		if status := run([]string{arg}, nil, &stdout, &stderr); status != exitOK || !strings.HasPrefix(stdout.String(), "oapi-resilient ") {
			t.Errorf("%s: status %d, stdout %q, stderr %q", arg, status, stdout.String(), stderr.String())
		}
	}
}
