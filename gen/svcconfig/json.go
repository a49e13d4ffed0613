package svcconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// kind is the kind of a JSON value.
type kind uint8

const (
	kNull kind = iota
	kObject
	kArray
	kString
	kNumber
	kBool
)

func (k kind) String() string {
	return [...]string{"null", "an object", "a list", "a string", "a number", "a boolean"}[k]
}

// node is one JSON value with the byte offset it starts at.
type node struct {
	kind kind
	off  int
	// keys, keyOffs and vals are an object's members, in the order
	// written.
	keys    []string
	keyOffs []int
	vals    []*node
	items   []*node // an array's
	text    string  // a string's value, a number's text
	b       bool
}

// maxDepth bounds the nesting a service config may have; the schema needs
// five levels.
const maxDepth = 32

// parser reads a JSON document into nodes, each at its position.
type parser struct {
	data []byte
	dec  *json.Decoder
	name string
	// lines are the offsets at which the lines start, made on first use.
	lines []int
}

// parseJSON reads data, the service config named name, as one JSON value.
// A syntax error, a key written twice in one object or text after the
// value is a diagnostic at its line and column.
func parseJSON(name string, data []byte) (*node, error) {
	p := &parser{data: data, name: name, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	off := p.next()
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, diag.List{{Location: p.at(off), Rule: diag.RuleSvcConfig,
			Message: "the service config has text after its JSON object", Fix: "keep one JSON object in the file"}}.Err()
	}
	return n, nil
}

// next returns the offset of the next token: the decoder's position past
// white space and the separators it has not returned yet.
func (p *parser) next() int {
	off := int(p.dec.InputOffset())
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
			continue
		}
		break
	}
	return off
}

// at is the location of byte offset off: its line, and its column in
// characters.
func (p *parser) at(off int) diag.Location {
	if p.lines == nil {
		p.lines = []int{0}
		for i, b := range p.data {
			if b == '\n' {
				p.lines = append(p.lines, i+1)
			}
		}
	}
	off = min(max(off, 0), len(p.data))
	line, _ := slices.BinarySearch(p.lines, off+1) // the first line starting after off
	start := p.lines[line-1]
	return diag.Location{File: p.name, Line: line, Col: 1 + utf8.RuneCount(p.data[start:off])}
}

// syntax turns a decoder error into a diagnostic at its place.
func (p *parser) syntax(err error) error {
	off := p.next()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// The offset is that of the offending byte, or of the white
		// space before it.
		off = min(int(se.Offset), len(p.data))
		for off < len(p.data) && (p.data[off] == ' ' || p.data[off] == '\n' || p.data[off] == '\t' || p.data[off] == '\r') {
			off++
		}
	}
	msg := err.Error()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "the JSON ends too early"
		off = len(p.data)
	}
	return diag.List{{Location: p.at(off), Rule: diag.RuleSvcConfig, Message: "not valid JSON: " + msg,
		Fix: "fix the JSON syntax (a service config is one JSON object, as the gRPC service config documentation shows)"}}.Err()
}

func (p *parser) value(depth int) (*node, error) {
	off := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.syntax(err)
	}
	if depth > maxDepth {
		return nil, diag.List{{Location: p.at(off), Rule: diag.RuleSvcConfig,
			Message: fmt.Sprintf("the JSON nests deeper than %d levels", maxDepth), Fix: "write a service config as its schema nests it"}}.Err()
	}
	n := &node{off: off}
	switch t := tok.(type) {
	case json.Delim:
		if err := p.container(n, t, depth); err != nil {
			return nil, err
		}
	case string:
		n.kind, n.text = kString, t
	case json.Number:
		n.kind, n.text = kNumber, string(t)
	case bool:
		n.kind, n.b = kBool, t
	case nil:
		n.kind = kNull
	}
	return n, nil
}

// container reads into n the object or array that open starts, at depth,
// up to its closing delimiter.
func (p *parser) container(n *node, open json.Delim, depth int) error {
	var err error
	switch open {
	case '{':
		err = p.object(n, depth)
	case '[':
		err = p.array(n, depth)
	}
	if err != nil {
		return err
	}
	if _, err := p.dec.Token(); err != nil { // the closing delimiter
		return p.syntax(err)
	}
	return nil
}

// object reads the members of an object into n, refusing a key written
// twice.
func (p *parser) object(n *node, depth int) error {
	n.kind = kObject
	seen := map[string]int{}
	for p.dec.More() {
		koff := p.next()
		ktok, err := p.dec.Token()
		if err != nil {
			return p.syntax(err)
		}
		key, _ := ktok.(string)
		if prev, dup := seen[key]; dup {
			return diag.List{{Location: p.at(koff), Rule: diag.RuleSvcConfig,
				Message: fmt.Sprintf("the key %q is written twice in one object (first at line %d)", key, p.at(prev).Line),
				Fix:     "keep one of them"}}.Err()
		}
		seen[key] = koff
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		n.keys, n.keyOffs, n.vals = append(n.keys, key), append(n.keyOffs, koff), append(n.vals, v)
	}
	return nil
}

// array reads the items of an array into n.
func (p *parser) array(n *node, depth int) error {
	n.kind = kArray
	for p.dec.More() {
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		n.items = append(n.items, v)
	}
	return nil
}
