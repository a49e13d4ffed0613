// Package version tells which build of a command is running, from the
// build information Go records in every binary: the module version for a
// command installed with "go install module/cmd/x@version", and the
// commit (with "+dirty" when the work tree had changes) for one built in a
// clone.
package version

import (
	"runtime/debug"
	"strings"
)

// String returns the line a command prints for -version: its name, the
// version of the module it was built from, and the commit when known, for
// example "oapi-resilient v0.4.0", "oapi-resilient (devel) 0e05f42aa1b2
// +dirty (go1.26.8)" in a clone, or with "=> /path/to/clone" when a
// module's replace directive points at a clone.
func String(command string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return command + " (no build information)"
	}
	return line(command, info)
}

// line is [String] with the build information given.
func line(command string, info *debug.BuildInfo) string {
	var b strings.Builder
	b.WriteString(command)
	b.WriteByte(' ')
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	b.WriteString(v)
	if r := info.Main.Replace; r != nil {
		b.WriteString(" => ")
		b.WriteString(r.Path)
		if r.Version != "" && r.Version != "(devel)" {
			b.WriteByte(' ')
			b.WriteString(r.Version)
		}
	}
	var rev string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && !strings.Contains(v, rev[:min(12, len(rev))]) {
		b.WriteByte(' ')
		b.WriteString(rev[:min(12, len(rev))])
	}
	if dirty {
		b.WriteString(" +dirty")
	}
	b.WriteString(" (")
	b.WriteString(info.GoVersion)
	b.WriteByte(')')
	return b.String()
}
