// Package input reads the generator's input files with bounds, so that a
// spec or policy file cannot make the generator read what it should not:
// only regular files are read (never a directory, device, pipe or
// socket), at most a given number of bytes, and through the [io/fs.FS]
// given, which [OpenRoot] confines to one folder: a symbolic link that
// leads outside it is refused with [ErrOutsideRoot].
//
//	root, err := input.OpenRoot("api")
//	...
//	defer root.Close()
//	data, err := input.Read(root.FS(), "openapi.yaml", input.MaxSpecSize)
//
// Errors are typed: [*NotRegularError], [*TooLargeError], or an
// [*fs.PathError] (wrapping [ErrOutsideRoot] for an escaping link). The
// package has no state; everything in it is safe for concurrent use.
package input

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Limits on the size of what the generator reads.
const (
	// MaxSpecSize is the largest OpenAPI file (entry or $ref'd) read:
	// 128 MiB, several times the largest public specs.
	MaxSpecSize int64 = 128 << 20
	// MaxPolicySize is the largest policy file read: 4 MiB.
	MaxPolicySize int64 = 4 << 20
)

// ErrOutsideRoot is matched through [errors.Is] when a name is a symbolic
// link that leads outside the folder an [OpenRoot] file system is
// confined to.
var ErrOutsideRoot = errors.New("symbolic link leads outside the folder the generator may read")

// NotRegularError reports a name that is not a regular file.
type NotRegularError struct {
	// Name is the name as given to [Read].
	Name string
	// Mode is its file mode.
	Mode fs.FileMode
}

// Error describes the file.
func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Name, e.What())
}

// What says what the file is instead: "a directory", "a named pipe",
// "a socket", "a device" or "mode ...".
func (e *NotRegularError) What() string { return describeMode(e.Mode) }

// TooLargeError reports a file larger than the limit it was read with.
type TooLargeError struct {
	// Name is the name as given to [Read].
	Name string
	// Limit is the limit in bytes.
	Limit int64
}

// Error describes the file and the limit.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than the limit of %s", e.Name, formatSize(e.Limit))
}

// OpenRoot opens dir as a root whose FS method serves only the files
// below dir: a symbolic link may lead elsewhere below dir, never out of
// it. Close it when done.
func OpenRoot(dir string) (*os.Root, error) { return os.OpenRoot(dir) }

// Explain says why reading or opening a file failed, without repeating the
// path that an error of [Read], [ReadPolicy] or [OpenRoot] names: "it is a
// symbolic link that leads outside its folder", "it is larger than the
// limit of 4 MiB", "it is a directory, not a regular file", or the
// system's reason ("no such file or directory").
func Explain(err error) string {
	var large *TooLargeError
	var irregular *NotRegularError
	var pe *fs.PathError
	switch {
	case errors.Is(err, ErrOutsideRoot):
		return "it is a symbolic link that leads outside its folder"
	case errors.As(err, &large):
		return "it is larger than the limit of " + formatSize(large.Limit)
	case errors.As(err, &irregular):
		return "it is " + irregular.What() + ", not a regular file"
	case errors.As(err, &pe):
		return pe.Err.Error()
	}
	return err.Error()
}

// ReadPolicy reads the policy file name (a path of the operating system,
// relative to the working directory or absolute) from its folder, opened
// with [OpenRoot], as [Read] does with the limit [MaxPolicySize]: a
// symbolic link that leads out of that folder is refused.
func ReadPolicy(name string) ([]byte, error) {
	root, err := OpenRoot(filepath.Dir(name))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return Read(root.FS(), filepath.Base(name), MaxPolicySize)
}

// Read returns the content of the regular file name of fsys, refusing
// anything else and a file of more than limit bytes (checked before
// reading when the size is known, and while reading). A name that cannot
// be opened because it is a symbolic link leading outside the root of an
// [OpenRoot] file system gives an error matching [ErrOutsideRoot].
func Read(fsys fs.FS, name string, limit int64) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, explain(fsys, name, err)
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Name: name, Mode: info.Mode()}
	}
	if info.Size() > limit {
		return nil, &TooLargeError{Name: name, Limit: limit}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, explain(fsys, name, err)
	}
	defer f.Close()
	// The file may have been replaced since Stat.
	if info, err := f.Stat(); err != nil {
		return nil, err
	} else if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Name: name, Mode: info.Mode()}
	}
	// Read into one buffer of the size Stat gave, with room to see the
	// end of the file without growing it.
	var buf bytes.Buffer
	buf.Grow(int(info.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Name: name, Limit: limit}
	}
	return data, nil
}

// explain turns the error of opening a symbolic link that leaves the
// root into one matching ErrOutsideRoot, and reports the others as
// failures to open name, whichever system call failed.
func explain(fsys fs.FS, name string, err error) error {
	if !errors.Is(err, fs.ErrNotExist) {
		if info, lerr := fs.Lstat(fsys, name); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			return &fs.PathError{Op: "open", Path: name, Err: ErrOutsideRoot}
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: "open", Path: name, Err: pe.Err}
	}
	return err
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "mode " + m.String()
}

func formatSize(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
