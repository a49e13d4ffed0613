package main

import (
	"os"
	"runtime/debug"
)

func main() {
	setGCPercent()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// gcPercent is the garbage collector's target the command runs with
// unless GOGC says otherwise. Generation holds the loaded document while
// it allocates about as much again in short-lived values; collecting
// each time the heap doubles spent a sixth of its CPU time in the
// collector. Collecting when it triples takes a fifth off the CPU time
// of generating GitHub's REST spec for a tenth more peak memory, still
// below what kin-openapi needs to load and validate it.
const gcPercent = 200

// setGCPercent sets the collector's target to gcPercent when the
// environment does not set GOGC.
func setGCPercent() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
