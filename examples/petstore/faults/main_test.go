package faults

import (
	"os"
	"runtime"
	"testing"
)

// TestMain gives the process one P per process the harness stands for
// (see Procs), as the fault demo does.
func TestMain(m *testing.M) {
	runtime.GOMAXPROCS(max(Procs(), runtime.GOMAXPROCS(0)))
	os.Exit(m.Run())
}
