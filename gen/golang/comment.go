package golang

import (
	"go/doc/comment"
	"strings"
	"unicode"

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

// comments renders lines as consecutive "//" comments; see [DocComment].
func comments(lines []string) *jen.Statement { return DocComment(lines...) }

// DocComment renders lines (each may hold several, split at "\n") as
// consecutive "//" comments, in the canonical form gofmt gives doc comments
// (headings, lists, code blocks), so that generated files are a fixed point
// of gofmt whatever the source's comment text holds.
func DocComment(lines ...string) *jen.Statement {
	s := jen.Null()
	if len(lines) == 0 {
		return s
	}
	for _, l := range strings.Split(strings.TrimSuffix(canonicalDoc(strings.Join(lines, "\n")+"\n"), "\n"), "\n") {
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

// canonicalDoc returns text as gofmt writes a doc comment. Reformatting is
// repeated until it changes nothing, since one pass over unusual Markdown
// (indented continuation lines after a list) can give text that a second
// pass would change again.
func canonicalDoc(text string) string {
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
