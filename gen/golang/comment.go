package golang

import (
	"go/doc/comment"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// commentWidth is the width doc text is wrapped to, prefix excluded.
const commentWidth = 76

// docLines turns free text from a spec into comment lines: control
// characters removed, paragraphs kept, long lines wrapped at word
// boundaries. Each returned line becomes one "//" comment, so nothing in
// the text can end a comment early.
func docLines(text string) []string {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	var out []string
	for _, raw := range strings.Split(strings.TrimSpace(text), "\n") {
		line := sanitizeLine(raw)
		if line == "" {
			if len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "")
			}
			continue
		}
		out = append(out, wrap(line, commentWidth)...)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// sanitizeLine replaces tabs and drops control and other non-printing
// characters, and trailing space.
func sanitizeLine(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r == unicode.ReplacementChar, unicode.IsControl(r), !unicode.IsPrint(r) && r != ' ':
			return -1
		}
		return r
	}, s)
	return strings.TrimRightFunc(s, unicode.IsSpace)
}

// CommentLine returns s as the text of one "//" comment line: tabs become
// spaces, and line breaks, control and other non-printing characters (a
// NUL, a byte order mark, a line separator) are dropped, so that nothing in
// s can end the comment, start another line or fail to format. Emitters
// pass every string from a spec or a file name through it (or through
// [DocComment], which does it) before it reaches a comment.
func CommentLine(s string) string { return sanitizeLine(s) }

// sanitizeDoc drops from doc text what sanitizeLine drops, but keeps line
// breaks and tabs, which the doc comment's layout uses.
func sanitizeDoc(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n', r == '\t':
			return r
		case r == unicode.ReplacementChar, unicode.IsControl(r), !unicode.IsPrint(r) && r != ' ':
			return -1
		}
		return r
	}, s)
}

// wrap splits a line at spaces so that no piece exceeds width, unless a
// single word does.
func wrap(line string, width int) []string {
	indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
	var out []string
	cur := indent
	for _, w := range strings.Fields(line) {
		switch {
		case cur == indent:
			cur += w
		case len(cur)+1+len(w) > width:
			out = append(out, cur)
			cur = indent + w
		default:
			cur += " " + w
		}
	}
	return append(out, cur)
}

// DocWrap splits text, one paragraph from a generator rather than a spec,
// into the lines of a doc comment, wrapped at spaces to the width of the
// generated code's comments.
func DocWrap(text string) []string { return wrap(text, commentWidth) }

// comments renders lines as consecutive "//" comments; see [DocComment].
func comments(lines []string) *jen.Statement { return DocComment(lines...) }

// DocComment renders lines (each may hold several, split at "\n") as
// consecutive "//" comments, in the canonical form gofmt gives doc comments
// (headings, lists, code blocks), so that generated files are a fixed point
// of gofmt whatever the source's comment text holds. Control and other
// non-printing characters are dropped (see [CommentLine]), every line
// starts with "// " or "//\t", and a line starting "+build" gets a
// backslash before it, so no text becomes a directive or build constraint.
func DocComment(lines ...string) *jen.Statement {
	s := jen.Null()
	if len(lines) == 0 {
		return s
	}
	text := sanitizeDoc(strings.Join(lines, "\n") + "\n")
	for _, l := range strings.Split(strings.TrimSuffix(canonicalDoc(text), "\n"), "\n") {
		l = defuseBuildLine(l)
		switch {
		case l == "":
			s.Comment("//").Line()
		case strings.HasPrefix(l, "\t"):
			s.Comment("//" + l).Line() // a code block, as gofmt writes it
		default:
			s.Comment("// " + l).Line()
		}
	}
	return s
}

// defuseBuildLine escapes the "+build" that starts a comment line, since
// gofmt reads every "// +build" line of a file, wherever it is, as a build
// constraint and moves it above the package clause: a description starting
// "+build ignore" would otherwise turn the generated file off.
func defuseBuildLine(l string) string {
	trimmed := strings.TrimLeft(l, " \t")
	if rest, ok := strings.CutPrefix(trimmed, "+build"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
		return l[:len(l)-len(trimmed)] + `\` + trimmed
	}
	return l
}

// plainLine reports whether text is one line, ended by "\n", that gofmt
// writes as it is in a doc comment: not empty; neither starting nor
// ending with white space (a code block, trailing space); holding no
// control character but tabs, no invalid UTF-8, and no pair of
// backquotes or single quotes (printed as “ and ”); not starting with
// what could open a heading ("#"), a list item ("-", "*", "+", "•", a
// digit) or a link definition ("["). Most doc comments of a large spec
// are such lines, which parsing and printing would only copy.
func plainLine(text string) bool {
	line, ok := strings.CutSuffix(text, "\n")
	if !ok || line == "" || strings.ContainsAny(line, "\n\r") {
		return false
	}
	first, _ := utf8.DecodeRuneInString(line)
	last, _ := utf8.DecodeLastRuneInString(line)
	switch {
	case unicode.IsSpace(first), unicode.IsSpace(last):
		return false
	case strings.ContainsFunc(line, func(r rune) bool { return unicode.IsControl(r) && r != '\t' || r == utf8.RuneError }):
		return false
	case strings.ContainsRune("#-*+[0123456789•", first):
		return false
	case strings.Contains(line, "``"), strings.Contains(line, "''"):
		return false // printed as typographic quotes
	}
	return true
}

// canonicalDoc returns text as gofmt writes a doc comment. Reformatting is
// repeated until it changes nothing, since one pass over unusual Markdown
// (indented continuation lines after a list) can give text that a second
// pass would change again.
func canonicalDoc(text string) string {
	if plainLine(text) {
		return text
	}
	var p comment.Parser
	var pr comment.Printer
	for range 8 {
		out := string(pr.Comment(p.Parse(text)))
		if out == text {
			break
		}
		text = out
	}
	return text
}
