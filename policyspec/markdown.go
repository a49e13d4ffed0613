package policyspec

import (
	"strings"
	"unicode"
)

// mdText makes text from a spec (a title, a dependency or operation name)
// safe inside one line of Markdown, a heading or a table cell, so that it
// renders as written and cannot change the structure around it:
//
//   - line breaks, tabs, control and other invisible characters become one
//     space, and the text is trimmed, so it stays on its line;
//   - "\", "|", "<", ">", "`", "[", "]", "#" and "&" are escaped with a
//     backslash, so the text opens no cell, HTML tag or comment, code
//     span, link, heading closing sequence or entity;
//   - a leading "-", "+", "=" or "N." / "N)" is escaped, so the text never
//     starts a list, a setext underline or a numbered list when it is
//     printed at the start of a line.
func mdText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || !unicode.IsPrint(r) || r == unicode.ReplacementChar {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if strings.ContainsRune("\\|<>`[]#&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	out := b.String()
	if out == "" {
		return out
	}
	switch {
	case strings.ContainsRune("-+=", rune(out[0])):
		return "\\" + out
	case out[0] >= '0' && out[0] <= '9':
		i := strings.IndexFunc(out, func(r rune) bool { return r < '0' || r > '9' })
		if i > 0 && (out[i] == '.' || out[i] == ')') {
			return out[:i] + "\\" + out[i:]
		}
	}
	return out
}
