package main

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// install fetches the npm package name@version with npm pack into cache
// and unpacks it, once; it returns the unpacked package's folder.
func install(cache, name, version string, log io.Writer) (string, error) {
	slug := strings.NewReplacer("@", "", "/", "-").Replace(name) + "-" + version
	dir := filepath.Join(cache, slug)
	if _, err := os.Stat(filepath.Join(dir, "package", "package.json")); err == nil {
		return filepath.Join(dir, "package"), nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	fmt.Fprintf(log, "sweep: npm pack %s@%s\n", name, version)
	cmd := exec.CommandContext(context.Background(), "npm", "pack", "--silent", name+"@"+version)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack %s@%s: %v", name, version, err)
	}
	tgz := filepath.Join(dir, strings.TrimSpace(lastLine(string(out))))
	if err := untar(tgz, dir); err != nil {
		return "", fmt.Errorf("unpacking %s: %v", tgz, err)
	}
	os.Remove(tgz)
	return filepath.Join(dir, "package"), nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// untar unpacks the regular files of a gzipped tarball into dir, refusing
// names that would leave it.
func untar(tgz, dir string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, ".."+string(filepath.Separator)) {
			return fmt.Errorf("entry %q leaves the folder", h.Name)
		}
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		out, err := os.Create(path)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, tr)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
}
