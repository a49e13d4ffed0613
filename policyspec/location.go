package policyspec

import (
	"strconv"
	"strings"
)

// Location says where a policy value was written. File, Line and Col point
// into a source file (1-based; zero when unknown). Path names the value
// inside the document: a JSON pointer such as
// "/dependencies/inventory/retry/base" or "#/paths/~1pets/get/x-resilience",
// or a proto full name such as "petstore.v1.Pets.GetPet".
type Location struct {
	File string
	Line int
	Col  int
	Path string
}

// String returns "file:line:col", leaving out the parts that are unknown.
// A location without file, line and column prints its Path instead.
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
// the path extended by key. JSON pointers (paths that are empty or start with
// "/" or "#") get "/key" with "~" and "/" escaped as RFC 6901 says; any other
// path, such as a proto full name, gets ".key".
func (l Location) Child(key string) Location {
	c := l
	switch {
	case l.Path == "" || strings.HasPrefix(l.Path, "/") || strings.HasPrefix(l.Path, "#"):
		c.Path = l.Path + "/" + escapePointer(key)
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

// compare orders locations by file, line, column and path.
func (l Location) compare(o Location) int {
	if c := strings.Compare(l.File, o.File); c != 0 {
		return c
	}
	if l.Line != o.Line {
		return cmpInt(l.Line, o.Line)
	}
	if l.Col != o.Col {
		return cmpInt(l.Col, o.Col)
	}
	return strings.Compare(l.Path, o.Path)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func escapePointer(s string) string {
	s = strings.ReplaceAll(s, "~", "~0")
	return strings.ReplaceAll(s, "/", "~1")
}
