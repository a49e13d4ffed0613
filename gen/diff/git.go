package diff

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// GitPrefix starts an argument that names a file at a git revision:
// "git:REV:PATH", PATH as for a file argument (relative to the current
// folder), REV anything git rev-parse accepts ("main", "v1.2.0",
// "HEAD~1").
const GitPrefix = "git:"

// GitRef is a file at a git revision.
type GitRef struct {
	// Rev is the revision; Path the file, as written.
	Rev, Path string
}

// ParseGitRef parses "git:REV:PATH"; ok is false when arg does not start
// with [GitPrefix].
func ParseGitRef(arg string) (ref GitRef, ok bool, err error) {
	rest, ok := strings.CutPrefix(arg, GitPrefix)
	if !ok {
		return GitRef{}, false, nil
	}
	rev, p, found := strings.Cut(rest, ":")
	if !found || rev == "" || p == "" {
		return GitRef{}, true, fmt.Errorf("%q: want git:REV:PATH, such as git:main:api/openapi.yaml", arg)
	}
	return GitRef{Rev: rev, Path: p}, true, nil
}

// MaxGitFileSize bounds each file ExtractGit writes: 128 MiB.
const MaxGitFileSize = 128 << 20

// ExtractGit writes the files and folders paths (relative to the current
// folder, inside its git work tree) as they are at revision rev into the
// folder dst, at the same places relative to the work tree's top, and
// returns the path under dst of each of paths. It runs git archive in
// the current folder's repository.
func ExtractGit(rev string, paths []string, dst string) ([]string, error) {
	top, err := git("", "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	topDir := strings.TrimSpace(string(top))
	var rels, out []string
	for _, p := range paths {
		rel, err := workTreePath(topDir, p)
		if err != nil {
			return nil, err
		}
		rels = append(rels, filepath.ToSlash(rel))
		out = append(out, filepath.Join(dst, rel))
	}
	args := append([]string{"archive", "--format=tar", rev, "--"}, rels...)
	data, err := git(topDir, args...)
	if err != nil {
		return nil, err
	}
	if err := extractArchive(rev, data, dst); err != nil {
		return nil, err
	}
	return out, nil
}

// workTreePath returns the path p (relative to the current folder)
// relative to the work tree's top, topDir, or an error when p lies
// outside it.
func workTreePath(topDir, p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	// The work tree's top may be reached through a symbolic link.
	if d, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(d, filepath.Base(abs))
	}
	rel, err := filepath.Rel(topDir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the git work tree %s", p, topDir)
	}
	return rel, nil
}

// extractArchive writes the entries of data, the tar archive git archive
// gave of revision rev, into the folder dst.
func extractArchive(rev string, data []byte, dst string) error {
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("git archive %s: %w", rev, err)
		}
		name := path.Clean(h.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("git archive %s: entry %q leaves the tree", rev, h.Name)
		}
		if err := extractEntry(rev, name, h, tr, filepath.Join(dst, filepath.FromSlash(name))); err != nil {
			return err
		}
	}
}

// extractEntry writes the archive entry h, named name, whose content tr
// reads, at target: a folder, a file or a symbolic link.
func extractEntry(rev, name string, h *tar.Header, tr io.Reader, target string) error {
	switch h.Typeflag {
	case tar.TypeDir:
		return os.MkdirAll(target, 0o755)
	case tar.TypeReg:
		if h.Size > MaxGitFileSize {
			return fmt.Errorf("git:%s:%s is larger than %d MiB", rev, name, MaxGitFileSize>>20)
		}
		return writeFile(target, tr)
	case tar.TypeSymlink:
		// Kept as links: the spec loader's confined root refuses one
		// that leads outside.
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.Symlink(h.Linkname, target)
	case tar.TypeXGlobalHeader:
		return nil
	default:
		return fmt.Errorf("git:%s:%s: a %c entry, neither a file nor a folder", rev, name, h.Typeflag)
	}
}

// writeFile creates the file target, and the folders above it, with what
// r reads.
func writeFile(target string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	f, err := os.Create(target)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// git runs git with args in dir (the current folder when empty) and
// returns its standard output; its error carries git's message.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out, nil
}
