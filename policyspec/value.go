package policyspec

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// Limits on what a decoded policy may hold, so that hostile input (alias
// bombs, deep nesting) costs bounded time.
const (
	maxValues = 100_000
	maxDepth  = 64
)

// valueKind is the kind of a decoded value.
type valueKind uint8

const (
	vNull valueKind = iota
	vBool
	vNumber
	vString
	vMap
	vList
)

func (k valueKind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "a mapping", "a list"}[k]
}

// value is a decoded YAML, JSON or Go value with the location of every
// node. YAML nodes and plain Go values both become values, so one decoder
// serves both.
type value struct {
	kind    valueKind
	text    string  // scalar text, as written
	num     float64 // vNumber
	integer bool    // vNumber written as an integer
	b       bool    // vBool
	entries []entry // vMap, in written order
	items   []*value
	loc     diag.Location
	invalid bool // already reported; decoding skips it
	// rest is how many bytes of the source line the scalar may quote
	// (see quotedIn); -1 when the source is unknown.
	rest int
}

// entry is one key of a mapping.
type entry struct {
	key string
	loc diag.Location // where the key is written
	val *value
	// rest is value.rest for the key.
	rest int
}

// converter turns YAML nodes or Go values into values, counting what it has
// built.
type converter struct {
	left  int
	diags diag.List
	// nm is the spelling of the keys being decoded.
	nm naming
	// src holds the lines of the file being decoded, when known, so that
	// messages quote no more of a value than its own line.
	src []string
}

func newConverter() *converter { return &converter{left: maxValues} }

func (c *converter) spend(loc diag.Location, depth int) bool {
	c.left--
	if c.left < 0 {
		if c.left == -1 {
			c.diags = append(c.diags, diag.Diagnostic{Location: loc, Rule: diag.RuleYAML,
				Message: fmt.Sprintf("policy holds more than %d values", maxValues),
				Fix:     "remove repeated aliases or split the document"})
		}
		return false
	}
	if depth > maxDepth {
		c.diags = append(c.diags, diag.Diagnostic{Location: loc, Rule: diag.RuleYAML,
			Message: fmt.Sprintf("policy nests deeper than %d levels", maxDepth),
			Fix:     "flatten the value"})
		return false
	}
	return true
}

// fromNode converts a YAML node found at loc (whose Path is the node's).
func (c *converter) fromNode(n *yaml.Node, loc diag.Location, depth int) *value {
	if n == nil {
		return &value{kind: vNull, loc: loc}
	}
	if n.Line > 0 {
		loc = loc.At(n.Line, n.Column)
	}
	if !c.spend(loc, depth) {
		return &value{kind: vNull, loc: loc, invalid: true}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return &value{kind: vNull, loc: loc}
		}
		return c.fromNode(n.Content[0], loc, depth+1)
	case yaml.AliasNode:
		return c.fromNode(n.Alias, loc, depth+1)
	case yaml.SequenceNode:
		v := &value{kind: vList, loc: loc}
		for i, item := range n.Content {
			v.items = append(v.items, c.fromNode(item, loc.Child(strconv.Itoa(i)), depth+1))
		}
		return v
	case yaml.MappingNode:
		v := &value{kind: vMap, loc: loc}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			kloc := loc.Child(k.Value).At(k.Line, k.Column)
			if k.Kind != yaml.ScalarNode {
				c.diags = append(c.diags, diag.Diagnostic{Location: kloc, Rule: diag.RuleType,
					Message: "mapping key is not a plain string", Fix: "write the key as a string"})
				continue
			}
			v.entries = append(v.entries, entry{key: k.Value, loc: kloc, val: c.fromNode(val, kloc, depth+1), rest: c.rest(k)})
		}
		return v
	}
	v := scalarNode(n, loc)
	v.rest = c.rest(n)
	return v
}

// rest returns how many bytes of its source line a flow scalar node may
// quote: from its column to the end of the line. A plain or quoted scalar
// folded from several lines is thus quoted only as far as its first line.
// It is -1 when the source is unknown or the node is a block scalar, whose
// text starts on the next line and keeps its line breaks.
func (c *converter) rest(n *yaml.Node) int {
	if c.src == nil || n.Line < 1 || n.Line > len(c.src) || n.Column < 1 || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return -1
	}
	line := c.src[n.Line-1]
	if n.Column-1 > len(line) {
		return -1
	}
	return len(line) - (n.Column - 1)
}

// scalarNode converts a YAML scalar by its resolved tag.
func scalarNode(n *yaml.Node, loc diag.Location) *value {
	v := &value{kind: vString, text: n.Value, loc: loc}
	switch n.ShortTag() {
	case "!!null":
		v.kind = vNull
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			v.kind, v.b = vBool, b
		}
	case "!!int", "!!float":
		var f float64
		if n.Decode(&f) == nil {
			v.kind, v.num, v.integer = vNumber, f, n.ShortTag() == "!!int"
		}
	}
	return v
}

// fromAny converts a plain Go value, as encoding/json, yaml.v3 or
// kin-openapi produce them, found at loc.
func (c *converter) fromAny(x any, loc diag.Location, depth int) *value {
	if !c.spend(loc, depth) {
		return &value{kind: vNull, loc: loc, invalid: true}
	}
	switch t := x.(type) {
	case nil:
		return &value{kind: vNull, loc: loc}
	case bool:
		return &value{kind: vBool, b: t, text: strconv.FormatBool(t), loc: loc}
	case string:
		return &value{kind: vString, text: t, loc: loc, rest: -1}
	case float64:
		return number(t, false, loc)
	case float32:
		return number(float64(t), false, loc)
	case int, int8, int16, int32, int64:
		return number(float64(reflect.ValueOf(t).Int()), true, loc)
	case uint, uint8, uint16, uint32, uint64, uintptr:
		return number(float64(reflect.ValueOf(t).Uint()), true, loc)
	case fmt.Stringer:
		if f, err := strconv.ParseFloat(t.String(), 64); err == nil { // json.Number
			return number(f, f == math.Trunc(f), loc)
		}
		return &value{kind: vString, text: t.String(), loc: loc, rest: -1}
	case []any:
		v := &value{kind: vList, loc: loc}
		for i, item := range t {
			v.items = append(v.items, c.fromAny(item, loc.Child(strconv.Itoa(i)), depth+1))
		}
		return v
	case map[string]any:
		v := &value{kind: vMap, loc: loc}
		for _, k := range slices.Sorted(maps.Keys(t)) {
			v.entries = append(v.entries, entry{key: k, loc: loc.Child(k), val: c.fromAny(t[k], loc.Child(k), depth+1), rest: -1})
		}
		return v
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, val := range t {
			m[fmt.Sprint(k)] = val
		}
		return c.fromAny(m, loc, depth)
	}
	c.diags = append(c.diags, diag.Diagnostic{Location: loc, Rule: diag.RuleType,
		Message: fmt.Sprintf("unsupported value of Go type %T", x),
		Fix:     "give a string, number, boolean, list or mapping"})
	return &value{kind: vNull, loc: loc, invalid: true}
}

func number(f float64, integer bool, loc diag.Location) *value {
	return &value{kind: vNumber, num: f, integer: integer || f == math.Trunc(f), text: strconv.FormatFloat(f, 'g', -1, 64), loc: loc}
}

// toAny returns v as a plain Go value (maps, lists, strings, float64,
// bool, nil), the form of a static fallback value.
func (v *value) toAny() any {
	switch v.kind {
	case vBool:
		return v.b
	case vNumber:
		return v.num
	case vString:
		return v.text
	case vList:
		out := make([]any, len(v.items))
		for i, item := range v.items {
			out[i] = item.toAny()
		}
		return out
	case vMap:
		out := make(map[string]any, len(v.entries))
		for _, e := range v.entries {
			out[e.key] = e.val.toAny()
		}
		return out
	}
	return nil
}

// describe returns the value as quoted in messages.
func (v *value) describe() string {
	switch v.kind {
	case vString:
		return quotedIn(v.text, v.rest)
	case vNumber, vBool:
		return v.text
	}
	return v.kind.String()
}
