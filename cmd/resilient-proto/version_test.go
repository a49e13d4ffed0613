package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestVersion: -version prints the command's name and build with status 0.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"-version", "--version", "version"} {
		var stdout, stderr bytes.Buffer
		if status := run([]string{arg}, &stdout, &stderr); status != exitOK || !strings.HasPrefix(stdout.String(), "resilient-proto ") {
			t.Errorf("%s: status %d, stdout %q, stderr %q", arg, status, stdout.String(), stderr.String())
		}
	}
}
