package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"released", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.4.0"}}, "x v0.4.0 (go1.26.8)"},
		{"clone", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0e05f42aa1b2c3d4e5f60718293a4b5c6d7e8f90"}, {Key: "vcs.modified", Value: "true"}}},
			"x (devel) 0e05f42aa1b2 +dirty (go1.26.8)"},
		{"pseudo-version names its commit", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261204023257-0e05f42aa1b2"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0e05f42aa1b2c3d4e5f60718293a4b5c6d7e8f90"}}},
			"x v0.0.0-20261204023257-0e05f42aa1b2 (go1.26.8)"},
		{"replaced by a clone", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0", Replace: &debug.Module{Path: "../resilient"}}},
			"x v0.0.0 => ../resilient (go1.26.8)"},
		{"no version", debug.BuildInfo{GoVersion: "go1.26.8"}, "x (devel) (go1.26.8)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := line("x", &tc.info); got != tc.want {
				t.Errorf("line = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestStringNamesTheCommand(t *testing.T) {
	if got := String("oapi-resilient"); !strings.HasPrefix(got, "oapi-resilient ") {
		t.Errorf("String = %q", got)
	}
}
