package diag

import (
	"cmp"
	"strconv"
	"strings"
)

// Location says where something was written. File, Line and Col point
// into a source file (1-based; zero when unknown). Path names the node
// inside the document: a JSON pointer such as
// "#/paths/~1pets/get/x-resilience" or "/dependencies/inventory/retry/base"
// (for a file other than the entry file, the pointer follows that file's
// name: "common/Error.yaml#/Error"), or a proto full name such as
// "petstore.v1.Pets.GetPet". The zero value is an unknown location.
type Location struct {
	// File is the file name as the user gave it, or relative to the
	// entry file's folder for files it refers to. Empty when unknown.
	File string
	// Line is the 1-based line, zero when unknown.
	Line int
	// Col is the 1-based column, zero when unknown.
	Col int
	// Path names the node inside the document; empty when it has none.
	Path string
}

// String returns "file:line:col", leaving out the parts that are unknown.
// A location without file, line and column returns its Path instead.
func (l Location) String() string {
	if p := l.position(); p != "" {
		return p
	}
	return l.Path
}

// position returns "file:line:col" without the parts that are unknown.
func (l Location) position() string {
	var b strings.Builder
	b.WriteString(l.File)
	if l.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(l.Line))
		if l.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(l.Col))
		}
	}
	return b.String()
}

// Child returns the location of key inside l: the same file position and
// the path extended by key. JSON pointers (paths that are empty or start
// with "/" or "#") get "/key" with "~" and "/" escaped as RFC 6901 says;
// any other path, such as a proto full name, gets ".key".
func (l Location) Child(key string) Location {
	c := l
	switch {
	case l.Path == "" || strings.HasPrefix(l.Path, "/") || strings.HasPrefix(l.Path, "#"):
		key = strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
		c.Path = l.Path + "/" + key
	default:
		c.Path = l.Path + "." + key
	}
	return c
}

// At returns l with its file position replaced by line and col.
func (l Location) At(line, col int) Location {
	l.Line, l.Col = line, col
	return l
}

// Compare orders locations by file, line, column and path, the order in
// which diagnostics are reported: -1 when l comes first, 1 when o does,
// 0 when they are equal.
func (l Location) Compare(o Location) int {
	if c := strings.Compare(l.File, o.File); c != 0 {
		return c
	}
	if c := cmp.Compare(l.Line, o.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(l.Col, o.Col); c != 0 {
		return c
	}
	return strings.Compare(l.Path, o.Path)
}

// Before reports whether l sorts before o (see [Location.Compare]).
func (l Location) Before(o Location) bool { return l.Compare(o) < 0 }
