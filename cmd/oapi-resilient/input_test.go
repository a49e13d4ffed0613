package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInputConfinement: what the spec's folder (or -root) and the policy
// file's folder hold through symbolic links, pipes or devices is never
// read: a link that leads out of the folder is refused, as is anything
// that is not a regular file, and a file above the size limit; each with
// one located message, fast, and nothing of the target in the output.
func TestInputConfinement(t *testing.T) {
	const api = `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "common.yaml#/Secret"}}}}
`
	const secret = "Secret:\n  type: object\n  description: \"TOP SECRET: hunter2\"\n"
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		args  []string
		want  string
	}{
		{
			name: "$ref to a link out of the folder",
			setup: func(t *testing.T, dir string) {
				write(t, dir, "spec/api.yaml", api)
				write(t, dir, "outside/common.yaml", secret)
				link(t, "../outside/common.yaml", dir, "spec/common.yaml")
			},
			args: []string{"generate", "spec/api.yaml"},
			want: `spec/api.yaml:8:72: E-REF-EXTERNAL: $ref "common.yaml#/Secret": cannot read spec/common.yaml: the file is a symbolic link that leads outside the spec's folder (#/paths/~1a/get/responses/200/content/application~1json/schema); copy the file under the spec's folder, or widen the folder the generator may read (oapi-resilient -root)`,
		},
		{
			name: "spec linked to /dev/zero",
			setup: func(t *testing.T, dir string) {
				link(t, "/dev/zero", dir, "spec/api.yaml")
			},
			args: []string{"check", "spec/api.yaml"},
			want: `spec/api.yaml: E-READ: the file is a symbolic link that leads outside the spec's folder; copy the file under the spec's folder, or widen the folder the generator may read (oapi-resilient -root)`,
		},
		{
			name: "$ref to a named pipe",
			setup: func(t *testing.T, dir string) {
				write(t, dir, "spec/api.yaml", api)
				if err := syscall.Mkfifo(filepath.Join(dir, "spec", "common.yaml"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"check", "spec/api.yaml"},
			want: `spec/api.yaml:8:72: E-REF-UNRESOLVED: $ref "common.yaml#/Secret": cannot read spec/common.yaml: the file is a named pipe, not a regular file (#/paths/~1a/get/responses/200/content/application~1json/schema); point at a spec file`,
		},
		{
			name: "spec above the size limit",
			setup: func(t *testing.T, dir string) {
				write(t, dir, "spec/api.yaml", "")
				if err := os.Truncate(filepath.Join(dir, "spec", "api.yaml"), 128<<20+1); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"check", "spec/api.yaml"},
			want: `spec/api.yaml: E-READ: the file is larger than the limit of 128 MiB; split the document into files joined by $ref, each below the limit`,
		},
		{
			name: "$ref to a file above the size limit",
			setup: func(t *testing.T, dir string) {
				write(t, dir, "spec/api.yaml", api)
				write(t, dir, "spec/common.yaml", secret)
				if err := os.Truncate(filepath.Join(dir, "spec", "common.yaml"), 128<<20+1); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"check", "spec/api.yaml"},
			want: `spec/api.yaml:8:72: E-REF-UNRESOLVED: $ref "common.yaml#/Secret": cannot read spec/common.yaml: the file is larger than the limit of 128 MiB (#/paths/~1a/get/responses/200/content/application~1json/schema); split the document into files joined by $ref, each below the limit`,
		},
		{
			name: "policy file linked out of its folder",
			setup: func(t *testing.T, dir string) {
				write(t, dir, "spec/api.yaml", strings.Replace(api, `{$ref: "common.yaml#/Secret"}`, "{type: object}", 1))
				write(t, dir, "outside/policy.yaml", "TOP SECRET: hunter2\n")
				link(t, "../outside/policy.yaml", dir, "spec/policy.yaml")
			},
			args: []string{"check", "-policy", "spec/policy.yaml", "spec/api.yaml"},
			want: `spec/policy.yaml: E-READ: cannot read the policy file: it is a symbolic link that leads outside its folder`,
		},
		{
			name: "policy file linked to /dev/zero",
			setup: func(t *testing.T, dir string) {
				write(t, dir, "spec/api.yaml", strings.Replace(api, `{$ref: "common.yaml#/Secret"}`, "{type: object}", 1))
				link(t, "/dev/zero", dir, "spec/policy.yaml")
			},
			args: []string{"check", "-policy", "spec/policy.yaml", "spec/api.yaml"},
			want: `spec/policy.yaml: E-READ: cannot read the policy file: it is a symbolic link that leads outside its folder`,
		},
		{
			name: "policy file that is a pipe",
			setup: func(t *testing.T, dir string) {
				write(t, dir, "spec/api.yaml", strings.Replace(api, `{$ref: "common.yaml#/Secret"}`, "{type: object}", 1))
				if err := syscall.Mkfifo(filepath.Join(dir, "spec", "policy.yaml"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"check", "-policy", "spec/policy.yaml", "spec/api.yaml"},
			want: `spec/policy.yaml: E-READ: cannot read the policy file: it is a named pipe, not a regular file`,
		},
		{
			name: "policy file above the size limit",
			setup: func(t *testing.T, dir string) {
				write(t, dir, "spec/api.yaml", strings.Replace(api, `{$ref: "common.yaml#/Secret"}`, "{type: object}", 1))
				write(t, dir, "spec/policy.yaml", "")
				if err := os.Truncate(filepath.Join(dir, "spec", "policy.yaml"), 4<<20+1); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"check", "-policy", "spec/policy.yaml", "spec/api.yaml"},
			want: `spec/policy.yaml: E-READ: cannot read the policy file: it is larger than the limit of 4 MiB`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			t.Chdir(dir)
			var stdout, stderr bytes.Buffer
			start := time.Now()
			status := run(tt.args, strings.NewReader(""), &stdout, &stderr)
			if elapsed := time.Since(start); elapsed > 10*time.Second {
				t.Errorf("run took %v", elapsed)
			}
			if status != exitUnusable {
				t.Errorf("run(%q) = %d, want %d", tt.args, status, exitUnusable)
			}
			if got := strings.TrimSuffix(stderr.String(), "\n"); got != tt.want {
				t.Errorf("run(%q) standard error:\n%s\nwant:\n%s", tt.args, got, tt.want)
			}
			if strings.Contains(stdout.String()+stderr.String(), "hunter2") {
				t.Error("the output holds the content of a file outside the folder")
			}
		})
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, dir, name string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}
