package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/resilientgo/resilient/gen/diff"
	"github.com/resilientgo/resilient/gen/openapigen"
)

// diff compares two versions of the spec (c.spec and c.newSpec) and
// prints the report; see the command documentation.
func (c *command) diff(stdout, stderr io.Writer) int {
	type result struct {
		in     diff.Input
		status int
	}
	stderr = &lockedWriter{w: stderr}
	load := func(arg string) result {
		in, status := c.diffInput(arg, stderr)
		return result{in, status}
	}
	// The two versions load side by side.
	oldDone := make(chan result, 1)
	go func() { oldDone <- load(c.spec) }()
	newRes := load(c.newSpec)
	oldRes := <-oldDone
	if oldRes.status != exitOK || newRes.status != exitOK {
		return exitUnusable
	}
	rep := diff.Compare(oldRes.in, newRes.in)
	var out []byte
	switch c.format {
	case "markdown":
		out = []byte(rep.Markdown())
	case "json":
		var err error
		if out, err = rep.JSON(); err != nil {
			fmt.Fprintf(stderr, "oapi-resilient diff: %v\n", err)
			return exitUnusable
		}
	default:
		out = []byte(rep.Text())
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "oapi-resilient diff: %v\n", err)
		return exitUnusable
	}
	if rep.Fails(c.failOn) {
		return exitLint
	}
	return exitOK
}

// diffInput loads one version: a file, or git:REV:PATH, whose folder (or
// -root) and policy file are then read at REV too.
func (c *command) diffInput(arg string, stderr io.Writer) (diff.Input, int) {
	in := diff.Input{Name: arg}
	side := *c
	side.spec = arg
	var gitName func(string) string
	ref, isGit, err := diff.ParseGitRef(arg)
	if err != nil {
		fmt.Fprintf(stderr, "oapi-resilient diff: %v\n", err)
		return in, exitUnusable
	}
	if isGit {
		tmp, err := os.MkdirTemp("", "oapi-resilient-diff-")
		if err != nil {
			fmt.Fprintf(stderr, "oapi-resilient diff: %v\n", err)
			return in, exitUnusable
		}
		defer os.RemoveAll(tmp)
		root := c.root
		if root == "" {
			root = filepath.Dir(ref.Path)
		}
		paths := []string{ref.Path, root}
		if c.policy != "" {
			paths = append(paths, c.policy)
		}
		got, err := diff.ExtractGit(ref.Rev, paths, tmp)
		if err != nil {
			fmt.Fprintf(stderr, "oapi-resilient diff: %s: %v\n", arg, err)
			return in, exitUnusable
		}
		side.spec, side.root = got[0], got[1]
		if c.policy != "" {
			side.policy = got[2]
		}
		gitName = func(p string) string { return diff.GitPrefix + ref.Rev + ":" + filepath.ToSlash(filepath.Clean(p)) }
	}
	root, name, opts, status := side.options(stderr)
	if status != exitOK {
		return in, exitUnusable
	}
	defer root.Close()
	if gitName != nil {
		r := c.root
		if r == "" {
			r = filepath.Dir(ref.Path)
		}
		opts.Dir = gitName(r)
		if c.policy != "" {
			opts.PolicyName = gitName(c.policy)
		}
	}
	snap, err := openapigen.Snapshot(root.FS(), name, opts)
	if err != nil {
		report(stderr, nil, err)
		return in, exitUnusable
	}
	api, err := diff.ParseGoAPI(arg, snap.Code)
	if err != nil {
		fmt.Fprintf(stderr, "oapi-resilient diff: the client generated from %s does not parse: %v\n", arg, err)
		return in, exitUnusable
	}
	in.Service, in.API, in.PolicyErrors = snap.Service, api, snap.PolicyErrors
	return in, exitOK
}

// lockedWriter serializes the writes of the two versions' loads.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
