package openapi

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// parseJSONNode parses a JSON document into the node tree yaml.Unmarshal
// gives for it (JSON is YAML's flow style): the same kinds, styles, tags,
// values, lines and columns, in one linear pass that allocates a
// fraction of what the YAML parser does. Scalars share the memory of one
// copy of data.
//
// It returns false for anything it does not read exactly as the YAML
// parser would: input that is not a JSON object, invalid JSON, characters
// YAML refuses or treats as line breaks, tabs between tokens, keys too
// long for a YAML simple key, escaped surrogates. The caller then parses
// with the YAML parser, which gives the tree or the error.
func parseJSONNode(data []byte) (*yaml.Node, bool) {
	// U+0085, U+2028 and U+2029 are line breaks to YAML and plain
	// characters to JSON; a byte order mark or UTF-16 is read by YAML only.
	if bytes.Contains(data, []byte("\u0085")) || bytes.Contains(data, []byte("\u2028")) ||
		bytes.Contains(data, []byte("\u2029")) || bytes.HasPrefix(data, []byte("\uFEFF")) {
		return nil, false
	}
	p := &jsonParser{text: string(data), line: 1}
	p.space()
	if p.pos >= len(p.text) || p.text[p.pos] != '{' {
		return nil, false
	}
	root := p.value(0)
	if p.failed {
		return nil, false
	}
	p.space()
	if p.failed || p.pos != len(p.text) {
		return nil, false
	}
	return root, true
}

// jsonParser is the state of [parseJSONNode].
type jsonParser struct {
	text   string
	pos    int
	failed bool

	// line is the current line (1-based), lineStart the offset where it
	// starts; colPos and col count the runes of the line up to colPos, so
	// that columns of a long line are computed in one pass.
	line, lineStart int
	colPos, col     int

	// nodes and ptrs are slabs the tree's nodes and Content slices are
	// cut from; stack holds the children of the open containers.
	nodes []yaml.Node
	ptrs  []*yaml.Node
	stack []*yaml.Node
}

// maxDepth bounds nesting, as the YAML parser does.
const maxDepth = 10000

// maxKey is the longest key, in bytes, the YAML parser surely reads as a
// simple key (it allows 1024 characters).
const maxKey = 1000

func (p *jsonParser) node(kind yaml.Kind, style yaml.Style, tag string) *yaml.Node {
	if len(p.nodes) == 0 {
		p.nodes = make([]yaml.Node, 1024)
	}
	n := &p.nodes[0]
	p.nodes = p.nodes[1:]
	n.Kind, n.Style, n.Tag = kind, style, tag
	n.Line, n.Column = p.line, p.column()
	return n
}

// column returns the 1-based column of pos, in runes as YAML counts.
func (p *jsonParser) column() int {
	if p.colPos < p.lineStart {
		p.colPos, p.col = p.lineStart, 0
	}
	for i := p.colPos; i < p.pos; {
		if p.text[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRuneInString(p.text[i:])
			i += size
		}
		p.col++
	}
	p.colPos = p.pos
	return p.col + 1
}

// content moves the last n children of the stack into a Content slice.
func (p *jsonParser) content(from int) []*yaml.Node {
	n := len(p.stack) - from
	if n == 0 {
		return nil
	}
	if len(p.ptrs) < n {
		p.ptrs = make([]*yaml.Node, max(n, 4096))
	}
	c := p.ptrs[:n:n]
	p.ptrs = p.ptrs[n:]
	copy(c, p.stack[from:])
	clear(p.stack[from:])
	p.stack = p.stack[:from]
	return c
}

// space skips JSON whitespace other than tabs, counting lines.
func (p *jsonParser) space() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ' ':
			p.pos++
		case '\n':
			p.pos++
			p.line++
			p.lineStart = p.pos
		case '\r':
			p.pos++
			if p.pos < len(p.text) && p.text[p.pos] == '\n' {
				p.pos++
			}
			p.line++
			p.lineStart = p.pos
		case '\t':
			p.failed = true
			return
		default:
			return
		}
	}
}

func (p *jsonParser) peek() byte {
	if p.pos < len(p.text) {
		return p.text[p.pos]
	}
	return 0
}

// value parses one value at pos.
func (p *jsonParser) value(depth int) *yaml.Node {
	if depth > maxDepth {
		p.failed = true
		return nil
	}
	switch c := p.peek(); {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		n := p.node(yaml.ScalarNode, yaml.DoubleQuotedStyle, "!!str")
		n.Value = p.string()
		return n
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range [...]struct{ word, tag string }{{"true", "!!bool"}, {"false", "!!bool"}, {"null", "!!null"}} {
		if len(p.text)-p.pos >= len(lit.word) && p.text[p.pos:p.pos+len(lit.word)] == lit.word {
			n := p.node(yaml.ScalarNode, 0, lit.tag)
			n.Value = lit.word
			p.pos += len(lit.word)
			return n
		}
	}
	p.failed = true
	return nil
}

// object parses {...}: a flow mapping.
func (p *jsonParser) object(depth int) *yaml.Node {
	n := p.node(yaml.MappingNode, yaml.FlowStyle, "!!map")
	p.pos++
	from := len(p.stack)
	p.space()
	if p.peek() == '}' {
		p.pos++
		return n
	}
	for !p.failed {
		if p.peek() != '"' {
			p.failed = true
			break
		}
		start := p.pos
		k := p.node(yaml.ScalarNode, yaml.DoubleQuotedStyle, "!!str")
		k.Value = p.string()
		if p.pos-start > maxKey {
			p.failed = true
		}
		p.space()
		if p.peek() != ':' {
			p.failed = true
			break
		}
		p.pos++
		p.space()
		v := p.value(depth + 1)
		p.stack = append(p.stack, k, v)
		p.space()
		switch p.peek() {
		case ',':
			p.pos++
			p.space()
			continue
		case '}':
			p.pos++
			n.Content = p.content(from)
			return n
		}
		p.failed = true
	}
	return nil
}

// array parses [...]: a flow sequence.
func (p *jsonParser) array(depth int) *yaml.Node {
	n := p.node(yaml.SequenceNode, yaml.FlowStyle, "!!seq")
	p.pos++
	from := len(p.stack)
	p.space()
	if p.peek() == ']' {
		p.pos++
		return n
	}
	for !p.failed {
		v := p.value(depth + 1)
		p.stack = append(p.stack, v)
		p.space()
		switch p.peek() {
		case ',':
			p.pos++
			p.space()
			continue
		case ']':
			p.pos++
			n.Content = p.content(from)
			return n
		}
		p.failed = true
	}
	return nil
}

// string parses a string at pos and returns its value; without escapes it
// shares the text's memory.
func (p *jsonParser) string() string {
	p.pos++
	start := p.pos
	for p.pos < len(p.text) {
		c := p.text[p.pos]
		switch {
		case c == '"':
			s := p.text[start:p.pos]
			p.pos++
			return s
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			p.failed = true
			return ""
		case c < utf8.RuneSelf:
			p.pos++
		default:
			if !p.char() {
				return ""
			}
		}
	}
	p.failed = true
	return ""
}

// char checks the non-ASCII character at pos is one YAML accepts, and
// steps over it.
func (p *jsonParser) char() bool {
	r, size := utf8.DecodeRuneInString(p.text[p.pos:])
	if r == utf8.RuneError && size <= 1 || !yamlPrintable(r) {
		p.failed = true
		return false
	}
	p.pos += size
	return true
}

// yamlPrintable reports whether YAML accepts the non-ASCII rune r in a
// document.
func yamlPrintable(r rune) bool {
	return r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF || r >= 0x10000 && r <= 0x10FFFF
}

// escaped finishes a string holding escapes, begun at start.
func (p *jsonParser) escaped(start int) string {
	b := []byte(p.text[start:p.pos])
	for p.pos < len(p.text) {
		c := p.text[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(b)
		case c == '\\':
			var ok bool
			if b, ok = p.escape(b); !ok {
				p.failed = true
				return ""
			}
		case c < 0x20:
			p.failed = true
			return ""
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.pos++
		default:
			at := p.pos
			if !p.char() {
				return ""
			}
			b = append(b, p.text[at:p.pos]...)
		}
	}
	p.failed = true
	return ""
}

// simpleEscape returns the character of JSON's one-letter escape e, 0
// when e is not one.
func simpleEscape(e byte) byte {
	switch e {
	case '"', '\\', '/':
		return e
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return 0
}

// escape appends the character of the escape at p.pos (its backslash) to
// b; ok is false for an escape JSON does not have, one cut short, or an
// escaped surrogate.
func (p *jsonParser) escape(b []byte) (out []byte, ok bool) {
	if p.pos+1 >= len(p.text) {
		return b, false
	}
	e := p.text[p.pos+1]
	p.pos += 2
	if c := simpleEscape(e); c != 0 {
		return append(b, c), true
	}
	if e != 'u' || p.pos+4 > len(p.text) {
		return b, false
	}
	v, err := strconv.ParseUint(p.text[p.pos:p.pos+4], 16, 32)
	if err != nil || v >= 0xD800 && v <= 0xDFFF {
		return b, false
	}
	p.pos += 4
	return utf8.AppendRune(b, rune(v)), true
}

// number parses a JSON number: a plain scalar, tagged as YAML resolves
// it.
func (p *jsonParser) number() *yaml.Node {
	n := p.node(yaml.ScalarNode, 0, "")
	start := p.pos
	if p.peek() == '-' {
		p.pos++
	}
	intDigits := p.digits()
	if intDigits == 0 || intDigits > 1 && p.text[p.pos-intDigits] == '0' {
		p.failed = true
		return nil
	}
	fraction, ok := p.fraction()
	exponent, ok2 := p.exponent()
	if !ok || !ok2 {
		p.failed = true
		return nil
	}
	n.Value = p.text[start:p.pos]
	n.Tag = numberTag(n.Value, fraction || exponent)
	return n
}

// digits skips decimal digits and returns how many.
func (p *jsonParser) digits() int {
	from := p.pos
	for p.pos < len(p.text) && p.text[p.pos] >= '0' && p.text[p.pos] <= '9' {
		p.pos++
	}
	return p.pos - from
}

// fraction skips a number's fraction, if any: found tells whether there
// is one, ok is false when it has no digit.
func (p *jsonParser) fraction() (found, ok bool) {
	if p.peek() != '.' {
		return false, true
	}
	p.pos++
	return true, p.digits() > 0
}

// exponent skips a number's exponent, if any: found tells whether there
// is one, ok is false when it has no digit.
func (p *jsonParser) exponent() (found, ok bool) {
	if c := p.peek(); c != 'e' && c != 'E' {
		return false, true
	}
	p.pos++
	if c := p.peek(); c == '+' || c == '-' {
		p.pos++
	}
	return true, p.digits() > 0
}

// numberTag is the tag YAML resolves a JSON number to: !!int for an
// integer that fits 64 bits, signed or not, else !!float (-0 included,
// to keep its sign).
func numberTag(value string, float bool) string {
	if float || value == "-0" {
		return "!!float"
	}
	if _, err := strconv.ParseInt(value, 10, 64); err == nil {
		return "!!int"
	}
	if _, err := strconv.ParseUint(value, 10, 64); err == nil {
		return "!!int"
	}
	return "!!float"
}
