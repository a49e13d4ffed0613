package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/diff"
)

// checkFresh compares what generate would write (res) with the files on
// disk: -o, or its parts when the client is split, the files of an
// earlier split that a one-file client leaves behind, and -review. It
// prints a unified diff of each file that differs to stdout and returns
// exitLint when one does, exitOK when all are fresh.
func (c *command) checkFresh(stdout, stderr io.Writer, res *gen.Result) int {
	type file struct {
		name string
		want []byte
	}
	var files []file
	if res.Files == nil {
		files = append(files, file{c.out, res.Code})
		for _, stale := range staleParts(c.out) {
			files = append(files, file{stale, nil})
		}
	} else {
		want := map[string]bool{}
		for _, f := range res.Files {
			name := partName(c.out, f.Part)
			want[name] = true
			files = append(files, file{name, f.Code})
		}
		// A part of an earlier run whose tag is gone is stale too.
		for _, stale := range staleParts(c.out) {
			if !want[stale] {
				files = append(files, file{stale, nil})
			}
		}
	}
	if c.review != "" {
		files = append(files, file{c.review, []byte(res.Review)})
	}
	stale := 0
	for _, f := range files {
		have, err := os.ReadFile(f.name)
		missing := errors.Is(err, fs.ErrNotExist)
		if err != nil && !missing {
			fmt.Fprintf(stderr, "oapi-resilient: %v\n", err)
			return exitUnusable
		}
		oldName, newName := "a/"+f.name, "b/"+f.name
		switch {
		case missing && f.want == nil:
			continue
		case missing:
			oldName = "/dev/null"
			fmt.Fprintf(stderr, "%s: missing; generation would write it\n", f.name)
		case f.want == nil:
			newName = "/dev/null"
			fmt.Fprintf(stderr, "%s: left from an earlier split client; generation would leave it stale: delete it\n", f.name)
		}
		if d := diff.Unified(oldName, newName, have, f.want); d != "" {
			if !missing && f.want != nil {
				fmt.Fprintf(stderr, "%s: stale; regenerate it\n", f.name)
			}
			io.WriteString(stdout, d)
			stale++
		}
	}
	if stale > 0 {
		fmt.Fprintf(stderr, "oapi-resilient generate -check: %d of %d files are not what generation writes now; run the same command without -check\n", stale, len(files))
		return exitLint
	}
	return exitOK
}
