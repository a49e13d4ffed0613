package ir

import "strconv"

// Location points at the source of an IR node: a file, a 1-based line and
// column, and the JSON pointer of the node inside the document (for example
// "#/paths/~1pets/get"). Line and Col are zero when the position is
// unknown; Path is empty for nodes that have no pointer.
type Location struct {
	// File is the file name as the user gave it (or relative to the spec's
	// folder for files reached through $ref). Empty when unknown.
	File string
	// Line is the 1-based line, zero when unknown.
	Line int
	// Col is the 1-based column, zero when unknown.
	Col int
	// Path is the JSON pointer of the node, starting with "#"; for nodes
	// of a file other than the entry file, the pointer follows that file's
	// name ("common/Error.yaml#/Error").
	Path string
}

// String renders the position as file:line:col, dropping unknown parts.
// A location without a file renders as its Path.
func (l Location) String() string {
	if l.File == "" {
		return l.Path
	}
	s := l.File
	if l.Line > 0 {
		s += ":" + strconv.Itoa(l.Line)
		if l.Col > 0 {
			s += ":" + strconv.Itoa(l.Col)
		}
	}
	return s
}

// Before reports whether l sorts before m: by file, line, column, then
// path. It is the order in which diagnostics are reported.
func (l Location) Before(m Location) bool {
	if l.File != m.File {
		return l.File < m.File
	}
	if l.Line != m.Line {
		return l.Line < m.Line
	}
	if l.Col != m.Col {
		return l.Col < m.Col
	}
	return l.Path < m.Path
}
