package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
)

// AddFormJSON adds the JSON value of v (a union of a generated client, a
// json.RawMessage) to form under key in deepObject brackets, as Stripe's
// form bodies nest values: an object's members as key[name] in their
// order, an array of primitives as key[] per element, any other array as
// key[0], key[1]..., a string as its text, a number as written, a boolean
// as true or false, and null as an empty value (how a form says "clear
// it"). An empty object or array adds nothing. It reads the JSON with
// encoding/json's tokenizer, without reflection; JSON text that does not
// parse is an error, and form is then left as it was.
func AddFormJSON(form url.Values, key string, v json.Marshaler) error {
	data, err := v.MarshalJSON()
	if err != nil {
		return fmt.Errorf("resilient: form value %q: %w", key, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readJSONNode(dec, 0)
	if err == nil {
		if _, err = dec.Token(); err == io.EOF {
			err = nil
		} else if err == nil {
			err = errors.New("more than one value")
		}
	}
	if err != nil {
		return fmt.Errorf("resilient: form value %q: the JSON value does not parse: %w", key, err)
	}
	n.add(form, key)
	return nil
}

// maxFormDepth bounds the nesting AddFormJSON follows.
const maxFormDepth = 64

// jsonNode is a parsed JSON value: a primitive as its form text, or an
// object's members, or an array's elements.
type jsonNode struct {
	kind    byte // 's' primitive, 'o' object, 'a' array
	text    string
	names   []string
	members []*jsonNode
}

// readJSONNode reads the next JSON value of dec, nested depth deep.
func readJSONNode(dec *json.Decoder, depth int) (*jsonNode, error) {
	if depth > maxFormDepth {
		return nil, fmt.Errorf("nested deeper than %d", maxFormDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		return readJSONObject(dec, depth)
	case json.Delim('['):
		return readJSONArray(dec, depth)
	}
	return jsonPrimitive(tok)
}

// readJSONObject reads the members of the object whose opening brace dec
// has just read, nested depth deep, and its closing brace.
func readJSONObject(dec *json.Decoder, depth int) (*jsonNode, error) {
	n := &jsonNode{kind: 'o'}
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return nil, err
		}
		m, err := readJSONNode(dec, depth+1)
		if err != nil {
			return nil, err
		}
		n.names = append(n.names, name.(string))
		n.members = append(n.members, m)
	}
	_, err := dec.Token() // '}'
	return n, err
}

// readJSONArray reads the elements of the array whose opening bracket
// dec has just read, nested depth deep, and its closing bracket.
func readJSONArray(dec *json.Decoder, depth int) (*jsonNode, error) {
	n := &jsonNode{kind: 'a'}
	for dec.More() {
		m, err := readJSONNode(dec, depth+1)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, m)
	}
	_, err := dec.Token() // ']'
	return n, err
}

// jsonPrimitive returns the node of a token that is no opening delimiter:
// a primitive, as its form text.
func jsonPrimitive(tok json.Token) (*jsonNode, error) {
	switch t := tok.(type) {
	case json.Delim:
		return nil, fmt.Errorf("unexpected %v", t)
	case string:
		return &jsonNode{kind: 's', text: t}, nil
	case json.Number:
		return &jsonNode{kind: 's', text: t.String()}, nil
	case bool:
		return &jsonNode{kind: 's', text: strconv.FormatBool(t)}, nil
	case nil:
		return &jsonNode{kind: 's'}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// add writes n under key.
func (n *jsonNode) add(form url.Values, key string) {
	switch n.kind {
	case 's':
		form.Add(key, n.text)
	case 'o':
		for i, m := range n.members {
			m.add(form, key+"["+n.names[i]+"]")
		}
	case 'a':
		flat := true
		for _, m := range n.members {
			flat = flat && m.kind == 's'
		}
		for i, m := range n.members {
			if flat {
				form.Add(key+"[]", m.text)
			} else {
				m.add(form, key+"["+strconv.Itoa(i)+"]")
			}
		}
	}
}
