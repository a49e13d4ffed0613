package input

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tree lays out, in a temporary folder:
//
//	outside/secret.yaml
//	root/spec.yaml        a regular file
//	root/big.yaml         64 bytes
//	root/dir/
//	root/pipe.yaml        a named pipe nobody writes to
//	root/inner.yaml       -> spec.yaml
//	root/secret.yaml      -> ../outside/secret.yaml
//	root/zero.yaml        -> /dev/zero
//	root/dangling.yaml    -> nowhere.yaml
func tree(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "root")
	for _, d := range []string{"outside", "root/dir"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string]string{
		"outside/secret.yaml": "secret: hunter2\n",
		"root/spec.yaml":      "openapi: 3.0.3\n",
		"root/big.yaml":       strings.Repeat("#", 64),
	} {
		if err := os.WriteFile(filepath.Join(base, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"inner.yaml":    "spec.yaml",
		"secret.yaml":   "../outside/secret.yaml",
		"zero.yaml":     "/dev/zero",
		"dangling.yaml": "nowhere.yaml",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestRead(t *testing.T) {
	dir := tree(t)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	tests := []struct {
		name string
		fsys fs.FS
		file string
		// want is the content, or check says what the error must be.
		want  string
		check func(error) bool
	}{
		{"regular file", root.FS(), "spec.yaml", "openapi: 3.0.3\n", nil},
		{"link inside the root", root.FS(), "inner.yaml", "openapi: 3.0.3\n", nil},
		{"link out of the root", root.FS(), "secret.yaml", "", func(err error) bool { return errors.Is(err, ErrOutsideRoot) }},
		{"link to a device, out of the root", root.FS(), "zero.yaml", "", func(err error) bool { return errors.Is(err, ErrOutsideRoot) }},
		{"link to a device, no root", os.DirFS(dir), "zero.yaml", "", isNotRegular(fs.ModeDevice)},
		{"named pipe", root.FS(), "pipe.yaml", "", isNotRegular(fs.ModeNamedPipe)},
		{"directory", root.FS(), "dir", "", isNotRegular(fs.ModeDir)},
		{"larger than the limit", root.FS(), "big.yaml", "", func(err error) bool {
			var e *TooLargeError
			return errors.As(err, &e) && e.Limit == 32 && e.Error() == "big.yaml is larger than the limit of 32 bytes"
		}},
		{"missing", root.FS(), "missing.yaml", "", func(err error) bool {
			return errors.Is(err, fs.ErrNotExist) && err.Error() == "open missing.yaml: no such file or directory"
		}},
		{"dangling link", root.FS(), "dangling.yaml", "", func(err error) bool { return errors.Is(err, fs.ErrNotExist) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := Read(tt.fsys, tt.file, 32)
			switch {
			case tt.check == nil && err != nil:
				t.Fatalf("Read(%s) = %v", tt.file, err)
			case tt.check == nil && string(data) != tt.want:
				t.Fatalf("Read(%s) = %q, want %q", tt.file, data, tt.want)
			case tt.check != nil && !tt.check(err):
				t.Fatalf("Read(%s) = %q, %v; not the error wanted", tt.file, data, err)
			}
		})
	}
}

func isNotRegular(mode fs.FileMode) func(error) bool {
	return func(err error) bool {
		var e *NotRegularError
		return errors.As(err, &e) && e.Mode&mode != 0
	}
}

func TestNotRegularMessage(t *testing.T) {
	err := &NotRegularError{Name: "pipe.yaml", Mode: fs.ModeNamedPipe}
	if got, want := err.Error(), "pipe.yaml is a named pipe, not a regular file"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
