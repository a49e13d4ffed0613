package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// Rules of the sloppy constructs the loader refuses whole, which the
// front end repairs in the text the loader is given.
const (
	// ruleKeywordType: a schema's pattern written as a number or a
	// boolean, which the loader cannot read; the client never checks a
	// pattern, so it is left out.
	ruleKeywordType = diag.RuleKeywordType
	// ruleRefSchema: a $ref that stands for a schema and names a
	// parameter object, read as that parameter's schema.
	ruleRefSchema = diag.RuleRefSchema
	// ruleRefParameter: a $ref that stands for a parameter and names a
	// parameter object written under the schemas, read as that object.
	ruleRefParameter = diag.RuleRefParameter
	// ruleRefResponse: a response's $ref that names a schema.
	ruleRefResponse = diag.RuleRefResponse
)

// edit replaces text of a file in what the loader is given: width bytes
// (runes runes) written at line and col (1-based, col in runes) are
// replaced by text. The positions are those of the file as written.
type edit struct {
	line, col    int
	offset       int
	width, runes int
	text         string
}

// fromLoader returns the column in the file as written of a position
// the loader recorded at line and col in a file it was given with
// edits, sorted by line and column: columns right of an edit move back
// by what it added, and a position inside an edit's text is the edit's.
func fromLoader(edits []edit, line, col int) int {
	delta := 0
	for _, e := range edits {
		if e.line < line {
			continue
		}
		if e.line > line {
			break
		}
		start := e.col + delta
		n := utf8.RuneCountInString(e.text)
		switch {
		case col >= start+n:
			delta += n - e.runes
		case col >= start:
			return e.col
		default:
			return col - delta
		}
	}
	return col - delta
}

// applyEdits returns a copy of data with edits, sorted by offset, made.
func applyEdits(data []byte, edits []edit) []byte {
	out := make([]byte, 0, len(data)+16*len(edits))
	at := 0
	for _, e := range edits {
		out = append(out, data[at:e.offset]...)
		out = append(out, e.text...)
		at = e.offset + e.width
	}
	return append(out, data[at:]...)
}

// repairs finds, in the parsed files of the document, the sloppy
// constructs that make the loader refuse the whole document although a
// client can be generated, reports each with a located warning, and
// returns the edits that repair them in the text the loader is given, by
// file (rel). It runs only once the loader has refused the document.
//
//   - A schema's pattern written as a number or a boolean ("pattern: 0")
//     is left out: the client never checks patterns.
//   - A $ref that stands for a parameter and names a parameter object
//     written under the schemas ("- $ref: '#/components/schemas/Limit'",
//     Limit holding name and in) is replaced by a copy of that object.
//   - A response's $ref that names a schema names the response of the
//     same name when there is one, else is replaced by a copy of the
//     schema when it is written as a response, else by a JSON response
//     of that schema.
//   - A $ref that stands for a schema and names a parameter object
//     ("schema: {$ref: '#/paths/~1a/get/parameters/1'}") names the
//     parameter's schema instead; at the items of an array, and naming
//     an array parameter, it names the parameter's items.
func (s *source) repairs(entry *file, diags *diag.List) map[string][]edit {
	out := map[string][]edit{}
	c := &refChecker{s: s, members: map[*yaml.Node]map[string]*yaml.Node{}, ends: map[target]bool{}}
	for _, f := range s.parsedFiles(entry) {
		r := &repairer{f: f, c: c, diags: diags}
		r.walk(f.root, nil)
		var sites []refSite
		collectRefs(f, f.root, nil, &sites)
		for _, site := range sites {
			r.refToParameter(site)
			r.parameterUnderSchemas(site)
			r.responseNamingSchema(site)
		}
		if len(r.edits) > 0 {
			slices.SortFunc(r.edits, func(a, b edit) int { return a.offset - b.offset })
			out[f.rel] = r.edits
		}
	}
	return out
}

// repairer finds the repairs of one file.
type repairer struct {
	f      *file
	c      *refChecker
	diags  *diag.List
	starts []int // the offsets where the file's lines start, on first need
	edits  []edit
}

// valueKeys are the members whose value is data, not OpenAPI structure:
// nothing under them is repaired.
var valueKeys = map[string]bool{"example": true, "examples": true, "default": true, "enum": true, "const": true}

// walk looks for patterns of the wrong kind under node.
func (r *repairer) walk(node *yaml.Node, at *nodePath) {
	switch node.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			if valueKeys[k.Value] || strings.HasPrefix(k.Value, "x-") {
				continue
			}
			p := &nodePath{parent: at, key: k.Value, index: -1}
			if k.Value == "pattern" && v.Kind == yaml.ScalarNode {
				r.pattern(v, p)
				continue
			}
			r.walk(v, p)
		}
	case yaml.SequenceNode:
		for i, item := range node.Content {
			r.walk(item, &nodePath{parent: at, index: i})
		}
	}
}

// pattern leaves out a pattern written as a number or a boolean.
func (r *repairer) pattern(v *yaml.Node, at *nodePath) {
	tag := v.ShortTag()
	if tag != "!!int" && tag != "!!float" && tag != "!!bool" {
		return
	}
	if !r.replace(v, `""`) {
		return
	}
	r.diags.Warnf(diag.Location{File: r.f.display, Line: v.Line, Col: v.Column, Path: at.String()}, ruleKeywordType,
		fmt.Sprintf("the pattern is %s (%s), not a regular expression written as a string; the loader would refuse the document, so the client leaves the pattern out", tagKinds[strings.TrimPrefix(tag, "!!")], v.Value),
		fmt.Sprintf("quote the pattern (pattern: %q) if it is meant as a regular expression, or remove it", v.Value))
}

// refToParameter makes a $ref that stands for a schema and names a
// parameter object name the parameter's schema.
func (r *repairer) refToParameter(site refSite) {
	at := site.at
	if !standsForSchema(at) {
		return
	}
	t, ok := r.c.resolveSite(site, nil)
	if !ok {
		return
	}
	node, ok := lookup(r.s().open(t.rel).root, t.ptr)
	if !ok || !isParameter(node) {
		return
	}
	holder, ok := lookup(r.f.root, at.String())
	if !ok {
		return
	}
	ref := scalarChild(holder, "$ref")
	if ref == nil {
		return
	}
	part, what := parameterSchemaPart(at, node)
	to := ref.Value + part
	if !strings.Contains(ref.Value, "#") {
		to = ref.Value + "#" + part
	}
	quoted, err := json.Marshal(to)
	if err != nil || !r.replace(ref, string(quoted)) {
		return
	}
	r.diags.Warnf(site.location(), ruleRefSchema,
		fmt.Sprintf("$ref %q stands for a schema but names the parameter %q, which is no schema; the client reads it as %s", ref.Value, child(node, "name").Value, what),
		fmt.Sprintf("point the $ref at the schema: %q", to))
}

// standsForSchema reports whether a $ref at the place at stands for a
// schema: it is the value of a member whose value is a schema, or one of
// the schemas of a member holding them by name or index.
func standsForSchema(at *nodePath) bool {
	if at == nil {
		return false
	}
	return at.index < 0 && schemaRefKeys[at.key] || at.parent != nil && at.parent.index < 0 && schemaListKeys[at.parent.key]
}

// parameterSchemaPart returns what a $ref at the place at that names the
// parameter object param stands for: the pointer to add to the $ref, and
// the words that say it. It is the parameter's schema, except that a $ref
// at the items of an array that names an array parameter stands for its
// items, as generated specs write it when they point at the first of two
// equal schemas of items and miss their place.
func parameterSchemaPart(at *nodePath, param *yaml.Node) (part, what string) {
	schema := child(param, "schema")
	if at.index < 0 && at.key == "items" && child(schema, "items") != nil {
		if typ := child(schema, "type"); typ != nil && typ.Value == "array" {
			return "/schema/items", "the schema of that parameter's items"
		}
	}
	return "/schema", "that parameter's schema"
}

// scalarChild returns the scalar value under key of the mapping node;
// nil when there is none or it is no scalar.
func scalarChild(node *yaml.Node, key string) *yaml.Node {
	if v := child(node, key); v != nil && v.Kind == yaml.ScalarNode {
		return v
	}
	return nil
}

// parameterUnderSchemas replaces a $ref that stands for a parameter and
// names a parameter object written under the schemas of the same file,
// which the loader reads as a schema and refuses, by a copy of that
// object. The $ref must be the only member of its mapping.
func (r *repairer) parameterUnderSchemas(site refSite) {
	at := site.at
	if !standsForParameter(at) {
		return
	}
	t, ok := r.c.resolveSite(site, nil)
	if !ok || t.rel != r.f.rel || !strings.HasPrefix(t.ptr, "#/components/schemas/") {
		return
	}
	node, ok := lookup(r.f.root, t.ptr)
	if !ok || node.Kind != yaml.MappingNode {
		return
	}
	name, in := scalarChild(node, "name"), scalarChild(node, "in")
	if name == nil || in == nil {
		return
	}
	holder, ok := lookup(r.f.root, at.String())
	if !ok {
		return
	}
	text, err := nodeJSON(node)
	if err != nil || !r.inline(holder, text) {
		return
	}
	ref := holder.Content[1]
	r.diags.Warnf(site.location(), ruleRefParameter,
		fmt.Sprintf("$ref %q stands for a parameter but names a schema; what it names is the %s parameter %q, so the client reads it as that parameter", ref.Value, in.Value, name.Value),
		"move the parameter to #/components/parameters and point the $ref there")
}

// standsForParameter reports whether a $ref at the place at stands for
// a parameter: it is an item of the parameters of an operation or a path
// item.
func standsForParameter(at *nodePath) bool {
	if at == nil || at.index < 0 || at.parent == nil || at.parent.index >= 0 || at.parent.key != "parameters" {
		return false
	}
	return isOperation(at.parent.parent) || isPathItem(at.parent.parent)
}

// nodeJSON returns node as JSON text.
func nodeJSON(node *yaml.Node) ([]byte, error) {
	var v any
	if err := node.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// inline records the edit that replaces the mapping holder, whose only
// member is a $ref written on one line, by the JSON object text: in a
// flow mapping its members, in the braces already written; in a block
// mapping the object, as a flow mapping. It reports false when holder is
// not such a mapping, and then nothing is repaired.
func (r *repairer) inline(holder *yaml.Node, text []byte) bool {
	if holder.Kind != yaml.MappingNode || len(holder.Content) != 2 || len(text) < 2 {
		return false
	}
	key, ref := holder.Content[0], holder.Content[1]
	if key.Value != "$ref" || ref.Kind != yaml.ScalarNode || key.Line != ref.Line {
		return false
	}
	if holder.Style&yaml.FlowStyle != 0 {
		text = text[1 : len(text)-1]
	}
	keyAt, ok := r.offset(key.Line, key.Column)
	if !ok {
		return false
	}
	_, end, ok := r.extent(ref)
	if !ok {
		return false
	}
	r.add(key, keyAt, end, string(text))
	return true
}

// responseNamingSchema repairs a response's $ref that names a schema,
// which the loader refuses whole: when a response of the same name is a
// component, the $ref names it; else, when the schema is written as a
// response (a description, and content or headers only), a copy of it
// replaces the $ref; else the response is read as a JSON answer of that
// schema.
func (r *repairer) responseNamingSchema(site refSite) {
	if !standsForResponse(site.at) {
		return
	}
	t, ok := r.c.resolveSite(site, nil)
	if !ok || !strings.HasPrefix(t.ptr, "#/components/schemas/") {
		return
	}
	holder, ok := lookup(r.f.root, site.at.String())
	if !ok || holder.Kind != yaml.MappingNode || len(holder.Content) != 2 {
		return
	}
	ref := holder.Content[1]
	name := strings.TrimPrefix(t.ptr, "#/components/schemas/")
	target := r.s().open(t.rel)
	if _, found := lookup(target.root, "#/components/responses/"+name); found && ref.Kind == yaml.ScalarNode {
		r.refToResponse(site, ref, name)
		return
	}
	if node, _ := lookup(target.root, t.ptr); t.rel == r.f.rel && isResponse(node) {
		r.inlineResponse(site, holder, node)
		return
	}
	r.jsonResponse(site, holder, name)
}

// standsForResponse reports whether a $ref at the place at stands for a
// response: it is the value of a status of the responses of an
// operation.
func standsForResponse(at *nodePath) bool {
	if at == nil || at.index >= 0 || at.parent == nil || at.parent.index >= 0 || at.parent.key != "responses" {
		return false
	}
	return isOperation(at.parent.parent)
}

// refToResponse makes the response's $ref ref, which names the schema
// name, name the response component of that name.
func (r *repairer) refToResponse(site refSite, ref *yaml.Node, name string) {
	to := strings.Replace(ref.Value, "/components/schemas/", "/components/responses/", 1)
	if quoted, err := json.Marshal(to); err == nil && to != ref.Value && r.replace(ref, string(quoted)) {
		r.diags.Warnf(site.location(), ruleRefResponse,
			fmt.Sprintf("$ref %q stands for a response but names a schema; the response %q is a component, so the client reads it as that response", ref.Value, name),
			fmt.Sprintf("point the $ref at the response: %q", to))
	}
}

// inlineResponse replaces the response holder, a $ref that names a
// schema written as a response, by a copy of that schema, node.
func (r *repairer) inlineResponse(site refSite, holder, node *yaml.Node) {
	ref := holder.Content[1]
	if text, err := nodeJSON(node); err == nil && r.inline(holder, text) {
		r.diags.Warnf(site.location(), ruleRefResponse,
			fmt.Sprintf("$ref %q stands for a response but names a schema written as a response, so the client reads it as that response", ref.Value),
			"move the response to #/components/responses and point the $ref there")
	}
}

// jsonResponse replaces the response holder, a $ref that names the
// schema name, by a response that answers that schema as JSON.
func (r *repairer) jsonResponse(site refSite, holder *yaml.Node, name string) {
	ref := holder.Content[1]
	response := map[string]any{
		"description": "The schema " + name + ".",
		"content":     map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": ref.Value}}},
	}
	if text, err := json.Marshal(response); err == nil && r.inline(holder, text) {
		r.diags.Warnf(site.location(), ruleRefResponse,
			fmt.Sprintf("$ref %q stands for a response but names a schema, so the client reads it as an application/json answer of that schema", ref.Value),
			fmt.Sprintf("write the response: {description: ..., content: {application/json: {schema: {$ref: %q}}}}", ref.Value))
	}
}

// isOperation reports whether p is the place of an operation of a path
// ("#/paths/~1a/get").
func isOperation(p *nodePath) bool {
	return p != nil && p.index < 0 && httpMethods[p.key] && isPathItem(p.parent)
}

// isPathItem reports whether p is the place of a path item ("#/paths/~1a").
func isPathItem(p *nodePath) bool {
	return p != nil && p.index < 0 && p.parent != nil && p.parent.index < 0 && p.parent.key == "paths" && p.parent.parent == nil
}

// httpMethods are the members of a path item that are operations.
var httpMethods = map[string]bool{
	"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true, "patch": true, "trace": true,
}

// isResponse reports whether node is a response object: a mapping with a
// description, and content, headers, links and extensions only.
func isResponse(node *yaml.Node) bool {
	if node == nil || node.Kind != yaml.MappingNode || child(node, "description") == nil {
		return false
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		switch k := node.Content[i].Value; {
		case k == "description", k == "content", k == "headers", k == "links", strings.HasPrefix(k, "x-"):
		default:
			return false
		}
	}
	return true
}

// s returns the source of the file's document.
func (r *repairer) s() *source { return r.c.s }

// isParameter reports whether node is a parameter object: a mapping with
// a name, an in and a schema.
func isParameter(node *yaml.Node) bool {
	if node == nil || node.Kind != yaml.MappingNode {
		return false
	}
	name, in, schema := child(node, "name"), child(node, "in"), child(node, "schema")
	return name != nil && name.Kind == yaml.ScalarNode && in != nil && in.Kind == yaml.ScalarNode && schema != nil && schema.Kind == yaml.MappingNode
}

// replace records the edit that replaces the scalar v, as written, by
// text; it reports false when the scalar's extent in the file cannot be
// told (a block or multi-line scalar), and then nothing is repaired.
func (r *repairer) replace(v *yaml.Node, text string) bool {
	start, end, ok := r.extent(v)
	if ok {
		r.add(v, start, end, text)
	}
	return ok
}

// extent returns the byte offsets where the scalar v starts and ends in
// the file; ok is false when they cannot be told (see scalarWidth).
func (r *repairer) extent(v *yaml.Node) (start, end int, ok bool) {
	start, ok = r.offset(v.Line, v.Column)
	if !ok {
		return 0, 0, false
	}
	width, ok := scalarWidth(r.f.data[start:], v)
	return start, start + width, ok
}

// add records the edit that replaces the bytes from start to end, which
// start where at is written, by text.
func (r *repairer) add(at *yaml.Node, start, end int, text string) {
	r.edits = append(r.edits, edit{line: at.Line, col: at.Column, offset: start, width: end - start,
		runes: utf8.RuneCount(r.f.data[start:end]), text: text})
}

// offset returns the byte offset of line and col (in runes) in the file.
func (r *repairer) offset(line, col int) (int, bool) {
	data := r.f.data
	if r.starts == nil {
		r.starts = []int{0}
		for i := 0; i < len(data); i++ {
			switch data[i] {
			case '\r':
				if i+1 < len(data) && data[i+1] == '\n' {
					i++
				}
				r.starts = append(r.starts, i+1)
			case '\n':
				r.starts = append(r.starts, i+1)
			}
		}
	}
	if line < 1 || line > len(r.starts) {
		return 0, false
	}
	off := r.starts[line-1]
	for range col - 1 {
		if off >= len(data) {
			return 0, false
		}
		_, size := utf8.DecodeRune(data[off:])
		off += size
	}
	return off, true
}

// scalarWidth returns the width in bytes of the scalar v written at the
// start of text: a quoted scalar to its closing quote, a plain one as
// its value, on one line only.
func scalarWidth(text []byte, v *yaml.Node) (int, bool) {
	switch {
	case v.Style&yaml.DoubleQuotedStyle != 0:
		for i := 1; i < len(text); i++ {
			switch text[i] {
			case '\\':
				i++
			case '"':
				return i + 1, true
			case '\n', '\r':
				return 0, false
			}
		}
	case v.Style&yaml.SingleQuotedStyle != 0:
		for i := 1; i < len(text); i++ {
			switch text[i] {
			case '\'':
				if i+1 < len(text) && text[i+1] == '\'' {
					i++
					continue
				}
				return i + 1, true
			case '\n', '\r':
				return 0, false
			}
		}
	case v.Style&(yaml.LiteralStyle|yaml.FoldedStyle|yaml.TaggedStyle) == 0 && !strings.ContainsAny(v.Value, "\r\n"):
		if bytes.HasPrefix(text, []byte(v.Value)) {
			return len(v.Value), true
		}
	}
	return 0, false
}
