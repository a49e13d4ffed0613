package testtier

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records Skipf and Fatalf instead of
// stopping the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return "TestSomething" }
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
}

func TestSlow(t *testing.T) {
	tests := []struct {
		name  string
		value string
		short bool
		// wantSkip and wantFail are substrings of the message; empty
		// means no skip, no failure.
		wantSkip, wantFail string
	}{
		{name: "unset", value: "", wantSkip: "RESILIENT_SLOW=1 go test -run '^TestSomething$'"},
		{name: "zero", value: "0", wantSkip: "RESILIENT_SLOW=1 go test -race -timeout 30m work"},
		{name: "false", value: "false", wantSkip: "RESILIENT_SLOW=1"},
		{name: "one", value: "1"},
		{name: "true", value: "true"},
		{name: "one with -short", value: "1", short: true, wantSkip: "-short"},
		{name: "unset with -short", value: "", short: true, wantSkip: "-short"},
		{name: "typo", value: "yes", wantFail: `RESILIENT_SLOW="yes"`},
		{name: "typo with -short", value: "on", short: true, wantFail: `RESILIENT_SLOW="on"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			slow(r, tt.value, tt.short)
			if !contains(r.skipped, tt.wantSkip) {
				t.Errorf("slow(%q, short %v) skipped with %q, want a message with %q", tt.value, tt.short, r.skipped, tt.wantSkip)
			}
			if !contains(r.failed, tt.wantFail) {
				t.Errorf("slow(%q, short %v) failed with %q, want a message with %q", tt.value, tt.short, r.failed, tt.wantFail)
			}
		})
	}
}

// contains reports whether got holds want, and is empty when want is.
func contains(got, want string) bool {
	if want == "" {
		return got == ""
	}
	return strings.Contains(got, want)
}
