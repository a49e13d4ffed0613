package testtier

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// Env is the environment variable that turns the slow tier on: "1" or
// "true" (any value [strconv.ParseBool] accepts as true) runs it; unset,
// empty, "0" or "false" skips it.
const Env = "RESILIENT_SLOW"

// Slow skips t unless the slow tier is on: the environment variable [Env]
// is true and the test binary does not run with -short. The skip message
// says how to run the test. A value of [Env] that does not parse as a
// boolean fails t. Call it first in the test (or subtest); it is safe for
// concurrent use by parallel tests.
func Slow(t testing.TB) {
	t.Helper()
	slow(t, os.Getenv(Env), testing.Short())
}

// slow is [Slow] with the environment variable's value and the -short
// flag given.
func slow(t testing.TB, value string, short bool) {
	t.Helper()
	on, err := enabled(value)
	switch {
	case err != nil:
		t.Fatalf("%s=%q: %v; set it to 1 to run the slow tier, or unset it", Env, value, err)
	case short:
		t.Skipf("slow tier: skipped with -short")
	case !on:
		t.Skipf("slow tier: run it with %s=1 go test -run '^%s$' in this package, or the whole suite as .ci/run does: %s=1 go test -race -timeout 30m work", Env, t.Name(), Env)
	}
}

// enabled reports whether value turns the slow tier on.
func enabled(value string) (bool, error) {
	if value == "" {
		return false, nil
	}
	return strconv.ParseBool(value)
}

// Tool returns the path of the program name that a slow test runs
// (protoc, redis-server), and fails t when it is not installed: a test
// the slow tier was asked to run never passes by skipping unseen, since
// "go test" shows no skip message of a passing package. install says how
// to get the program, for example "apt-get install -y protobuf-compiler".
// Call it after [Slow].
func Tool(t testing.TB, name, install string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not installed, and the slow tier (%s=1) needs it: %s (.ci/run installs it), or run without %s to skip the slow tier", name, Env, install, Env)
		return ""
	}
	return path
}
