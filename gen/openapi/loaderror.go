package openapi

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// reportLoadError reports why kin-openapi's loader refused the document,
// at the place of what it refused: each value of the wrong kind where it
// is written (the loader reads every file with the YAML parser, JSON
// included, and says where each one is), and a $ref that names what it
// cannot stand for at the $ref. given holds the edits of the text the
// loader was given, by file (see [Document.loaderColumn]). Only what none
// of these places is reported at the start of the entry file.
func (s *source) reportLoadError(err error, entry *file, given map[string][]edit, diags *diag.List) {
	var construct *yaml.LoadErrors
	if errors.As(err, &construct) && len(construct.Errors) > 0 {
		for _, e := range construct.Errors {
			loc := s.constructLocation(e, entry, given)
			msg, fix := constructMessage(e.Message)
			diags.Errorf(loc, diag.RuleLoad, msg, fix)
		}
		return
	}
	if m := jsonTypePattern.FindStringSubmatch(err.Error()); m != nil {
		kind, key, want := m[1], m[2][strings.LastIndexByte(m[2], '.')+1:], goKind(m[3])
		if loc, ok := s.memberLocation(key, kind, entry); ok {
			diags.Errorf(loc, diag.RuleLoad,
				fmt.Sprintf("the value of %q is %s where the document's structure needs %s, so the loader refuses the document", key, jsonKinds[kind], want),
				"write "+want+" there")
			return
		}
	}
	msg := oneLine(err.Error())
	if site, ok := s.refSite(msg, entry); ok {
		if s.reportTarget(site, msg, diags) {
			return
		}
		m := expectingPattern.FindStringSubmatch(msg)
		if m == nil {
			diags.Errorf(site.location(), diag.RuleLoad, msg, "point the $ref at what its place holds, or write the value in place")
			return
		}
		want := objectNames[m[1]]
		if want == "" {
			want = m[1]
		}
		fix := fmt.Sprintf("point the $ref at %s %s, or write it in place", article(want), want)
		if m[1] == "parameter" && s.refTargetKind(site) == "schema" {
			fix = fmt.Sprintf("write the parameter in place, with name:, in: and schema: {$ref: %q}", site.value)
		}
		diags.Errorf(site.location(), diag.RuleLoad,
			fmt.Sprintf("$ref %q stands for %s %s but names %s, so the loader refuses the document", site.value, article(want), want, s.refTargetText(site)),
			fix)
		return
	}
	if loc, ok := s.pointerLocation(msg, entry); ok {
		diags.Errorf(loc, diag.RuleLoad, msg, "")
		return
	}
	diags.Errorf(fileStart(entry), diag.RuleLoad, msg, "")
}

// parsedFiles returns the files of the document that parsed, the entry
// file first, the others by name.
func (s *source) parsedFiles(entry *file) []*file {
	s.mu.Lock()
	files := make([]*file, 0, len(s.files))
	for _, f := range s.files {
		if f != entry && f.root != nil {
			files = append(files, f)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(files, func(a, b *file) int { return strings.Compare(a.rel, b.rel) })
	if entry.root != nil {
		files = slices.Insert(files, 0, entry)
	}
	return files
}

// constructLocation places a value the loader could not read: the node
// of the file where the loader's pointer ("in /paths/~1a/get/tags") leads,
// starting where the loader says it does. When the message names a
// field of a mapping there ("string field \"pattern\""), it is that
// field's value. Without a file to match, it is the loader's line and
// column in the entry file.
func (s *source) constructLocation(e *yaml.LoadError, entry *file, given map[string][]edit) diag.Location {
	line, col := e.Mark.Line, e.Mark.Column
	if m := markPattern.FindStringSubmatch(e.Message); m != nil {
		line, _ = strconv.Atoi(m[1])
		col, _ = strconv.Atoi(m[2])
	}
	ptr := ""
	if i := strings.LastIndex(e.Message, " in /"); i >= 0 {
		ptr = e.Message[i+len(" in "):]
	}
	for _, f := range s.parsedFiles(entry) {
		c := fromLoader(given[f.display], line, col)
		if ptr == "" {
			break
		}
		node, ok := lookup(f.root, ptr)
		if !ok || node.Line != line || node.Column != c {
			continue
		}
		at := "#" + ptr
		if m := constructPattern.FindStringSubmatch(e.Message); m != nil && m[4] != "" {
			if v := child(node, m[4]); v != nil {
				node, at = v, pointer(at, m[4])
			}
		}
		return diag.Location{File: f.display, Line: node.Line, Col: node.Column, Path: at}
	}
	loc := diag.Location{File: entry.display, Line: line, Col: fromLoader(given[entry.display], line, col)}
	if ptr != "" {
		loc.Path = "#" + ptr
	}
	return loc
}

// markPattern reads the position a message of the YAML decoder gives in
// its text ("go-yaml load error in constructor at L4.C39: "), which is
// where it stopped when its error has no position of its own.
var markPattern = regexp.MustCompile(`^go-yaml load error in \w+ at L(\d+)\.C(\d+): `)

// constructPattern reads the YAML decoder's message of a value of the
// wrong kind: its tag, the value when it is a scalar, the Go type it
// should have fitted and the field of the mapping it was under.
var constructPattern = regexp.MustCompile("^cannot (?:unmarshal|construct) !!(\\w+)(?: `([^`]*)`)? into (\\S+)(?: field \"([^\"]*)\")?")

// constructMessage says what is wrong with a value the loader could not
// read, and the fix: "\"pattern\" is an integer where a string belongs".
func constructMessage(message string) (msg, fix string) {
	ptr := ""
	if i := strings.LastIndex(message, " in /"); i >= 0 {
		message, ptr = message[:i], message[i+len(" in "):]
	}
	m := constructPattern.FindStringSubmatch(message)
	if m == nil {
		if mark := markPattern.FindStringIndex(message); mark != nil {
			message = message[mark[1]:]
		}
		return "the loader cannot read the document: " + message, ""
	}
	what := "the value"
	switch tokens := strings.Split(ptr, "/"); {
	case m[4] != "":
		what = fmt.Sprintf("the value of %q", m[4])
	case len(tokens) >= 3 && isIndex(tokens[len(tokens)-1]):
		what = fmt.Sprintf("item %s of %q", tokens[len(tokens)-1], unescapeToken(tokens[len(tokens)-2]))
	case len(tokens) >= 2:
		what = fmt.Sprintf("the value of %q", unescapeToken(tokens[len(tokens)-1]))
	}
	got := tagKinds[m[1]]
	if got == "" {
		got = "a !!" + m[1]
	}
	if m[2] != "" {
		quoted, cut := diag.FirstLine(m[2], 40)
		if cut {
			quoted += "…"
		}
		got += fmt.Sprintf(" (%s)", quoted)
	}
	want := goKind(m[3])
	return fmt.Sprintf("%s is %s where the document's structure needs %s, so the loader refuses the document", what, got, want),
		"write " + want + " there" + quoteHint(m[1], want)
}

// isIndex reports whether a pointer token is a sequence index.
func isIndex(tok string) bool {
	if tok == "" {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] < '0' || tok[i] > '9' {
			return false
		}
	}
	return true
}

// quoteHint adds to a fix the way to write a scalar as a string.
func quoteHint(tag, want string) string {
	if want == "a string" && tag != "seq" && tag != "map" {
		return ": quote the value"
	}
	return ""
}

// tagKinds names the kinds of YAML values by their tags.
var tagKinds = map[string]string{
	"int": "an integer", "float": "a number", "str": "a string", "bool": "a boolean",
	"null": "null", "seq": "a list", "map": "a mapping", "timestamp": "a date", "binary": "binary data",
}

// goKind names, for a document's author, the kind of value of a Go type
// of kin-openapi ("[]string", "openapi3.Schemas").
func goKind(t string) string {
	t = strings.TrimPrefix(t, "*")
	switch {
	case t == "string":
		return "a string"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "uint"):
		return "a whole number not below zero"
	case strings.HasPrefix(t, "int"):
		return "a whole number"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case t == "openapi3.Types":
		return "a type name or a list of them"
	case t == "openapi3.SecurityRequirements", t == "openapi3.Servers", t == "openapi3.Tags",
		t == "openapi3.Parameters", t == "openapi3.SchemaRefs":
		return "a list"
	}
	return "a mapping"
}

// jsonKinds names the kinds of JSON values as encoding/json's errors do.
var jsonKinds = map[string]string{
	"string": "a string", "number": "a number", "object": "a mapping", "array": "a list", "bool": "a boolean",
}

// jsonTypePattern reads encoding/json's message of a value of the wrong
// kind, as the loader passes it on for a Swagger 2.0 document: the kind,
// the field (after the type that holds it) and the Go type.
var jsonTypePattern = regexp.MustCompile(`json: cannot unmarshal (\w+) into (?:Go )?(?:struct )?field (\S+) of type (\S+)`)

// memberLocation places a value that encoding/json could not decode, as
// the loader reports it for a Swagger 2.0 document: by the name of its
// member and the kind of its value only. It is the first member of that
// name, in the document's files, whose value is of that kind.
func (s *source) memberLocation(key, kind string, entry *file) (diag.Location, bool) {
	if key == "" || jsonKinds[kind] == "" {
		return diag.Location{}, false
	}
	for _, f := range s.parsedFiles(entry) {
		if node, at := findMember(f.root, key, kind, nil); node != nil {
			return diag.Location{File: f.display, Line: node.Line, Col: node.Column, Path: at.String()}, true
		}
	}
	return diag.Location{}, false
}

// findMember returns the first value under node of the member key whose
// JSON kind is kind, and its place.
func findMember(node *yaml.Node, key, kind string, at *nodePath) (*yaml.Node, *nodePath) {
	switch node.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			p := &nodePath{parent: at, key: k.Value, index: -1}
			if k.Value == key && jsonKind(v) == kind {
				return v, p
			}
			if n, found := findMember(v, key, kind, p); n != nil {
				return n, found
			}
		}
	case yaml.SequenceNode:
		for i, item := range node.Content {
			if n, found := findMember(item, key, kind, &nodePath{parent: at, index: i}); n != nil {
				return n, found
			}
		}
	}
	return nil, nil
}

// jsonKind returns the kind of JSON value node stands for, as
// encoding/json names it.
func jsonKind(node *yaml.Node) string {
	switch node.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	case yaml.ScalarNode:
		switch node.ShortTag() {
		case "!!int", "!!float":
			return "number"
		case "!!bool":
			return "bool"
		case "!!str":
			return "string"
		}
	}
	return ""
}

// refSite finds the $ref a loader error is about ("bad data in
// \"#/paths/~1a/get/parameters/1\" (expecting ref to schema object)"):
// the first $ref of the document's files that names a reference the
// message quotes.
func (s *source) refSite(msg string, entry *file) (refSite, bool) {
	quoted := quotedRefs(msg)
	if len(quoted) == 0 {
		return refSite{}, false
	}
	for _, f := range s.parsedFiles(entry) {
		var sites []refSite
		collectRefs(f, f.root, nil, &sites)
		for _, site := range sites {
			for _, q := range quoted {
				if site.value == q || fragmentOf(site.value) != "" && fragmentOf(site.value) == fragmentOf(q) {
					return site, true
				}
			}
		}
	}
	return refSite{}, false
}

// pointerLocation places a loader error that quotes a pointer into the
// entry file at the node it names.
func (s *source) pointerLocation(msg string, entry *file) (diag.Location, bool) {
	for _, q := range quotedRefs(msg) {
		if strings.HasPrefix(q, "#/") && entry.root != nil {
			if node, ok := lookup(entry.root, fragmentOf(q)); ok {
				return diag.Location{File: entry.display, Line: node.Line, Col: node.Column, Path: q}, true
			}
		}
	}
	return diag.Location{}, false
}

// expectedObjects are the objects of kin-openapi a $ref can stand for, by
// the name its messages give them ("expecting ref to schema object").
var expectedObjects = map[string]func() any{
	"schema":         func() any { return new(openapi3.Schema) },
	"parameter":      func() any { return new(openapi3.Parameter) },
	"response":       func() any { return new(openapi3.Response) },
	"requestBody":    func() any { return new(openapi3.RequestBody) },
	"header":         func() any { return new(openapi3.Header) },
	"example":        func() any { return new(openapi3.Example) },
	"link":           func() any { return new(openapi3.Link) },
	"securityScheme": func() any { return new(openapi3.SecurityScheme) },
}

var expectingPattern = regexp.MustCompile(`\(expecting (?:ref to )?(\w+) object\)`)

// reportTarget reports the values of the wrong kind in what site names,
// where they are written, when the loader refused it as the object the
// message says it expected: it reads the target again as that object.
// It reports whether it found any.
func (s *source) reportTarget(site refSite, msg string, diags *diag.List) bool {
	m := expectingPattern.FindStringSubmatch(msg)
	if m == nil || expectedObjects[m[1]] == nil {
		return false
	}
	t, ok := (&refChecker{s: s, members: map[*yaml.Node]map[string]*yaml.Node{}, ends: map[target]bool{}}).resolveSite(site, nil)
	if !ok {
		return false
	}
	f := s.open(t.rel)
	node, ok := lookup(f.root, t.ptr)
	if !ok {
		return false
	}
	var construct *yaml.LoadErrors
	if err := node.Decode(expectedObjects[m[1]]()); !errors.As(err, &construct) || len(construct.Errors) == 0 {
		return false
	}
	for _, e := range construct.Errors {
		loc := diag.Location{File: f.display, Line: e.Mark.Line, Col: e.Mark.Column}
		found, at := findNode(node, e.Mark.Line, e.Mark.Column, nil)
		if found != nil {
			path := t.ptr + strings.TrimPrefix(at.String(), "#")
			if mm := constructPattern.FindStringSubmatch(e.Message); mm != nil && mm[4] != "" {
				if v := child(found, mm[4]); v != nil {
					found, path = v, pointer(path, mm[4])
				}
			}
			loc.Line, loc.Col, loc.Path = found.Line, found.Column, path
		}
		what, fix := constructMessage(e.Message + " in /" + strings.TrimPrefix(loc.Path, "#/"))
		diags.Errorf(loc, diag.RuleLoad, fmt.Sprintf("%s, where $ref %q at %s:%d:%d names a %s", what, site.value, site.from.display, site.line, site.col, m[1]), fix)
	}
	return true
}

// objectNames are the names, for a document's author, of the objects of
// kin-openapi's messages.
var objectNames = map[string]string{
	"schema": "schema", "parameter": "parameter", "response": "response", "requestBody": "request body",
	"header": "header", "example": "example", "link": "link", "callback": "callback",
	"securityScheme": "security scheme", "pathItem": "path item",
}

// article returns "a" or "an" for the noun w.
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an"
	}
	return "a"
}

// componentKinds are the objects under each member of components.
var componentKinds = map[string]string{
	"schemas": "schema", "parameters": "parameter", "responses": "response", "requestBodies": "requestBody",
	"headers": "header", "examples": "example", "links": "link", "callbacks": "callback",
	"securitySchemes": "securityScheme", "pathItems": "pathItem",
}

// refTargetKind tells what object the target of site is, by its place
// ("#/components/schemas/S", "#/paths/~1a/get/parameters/0") or, for a
// parameter written elsewhere, by its members; "" when it cannot tell.
func (s *source) refTargetKind(site refSite) string {
	t, ok := (&refChecker{s: s, members: map[*yaml.Node]map[string]*yaml.Node{}, ends: map[target]bool{}}).resolveSite(site, nil)
	if !ok {
		return ""
	}
	if kind, told := pointerKind(t.ptr); told {
		return kind
	}
	if node, ok := lookup(s.open(t.rel).root, t.ptr); ok && isParameter(node) {
		return "parameter"
	}
	return ""
}

// pointerKind tells what object is at the place ptr
// ("#/components/schemas/S", "#/paths/~1a/get/parameters/0") by the place
// alone; told is false when the place does not say. Under an unknown
// member of components, it says "": nothing known.
func pointerKind(ptr string) (kind string, told bool) {
	tokens := strings.Split(strings.TrimPrefix(ptr, "#/"), "/")
	n := len(tokens)
	last, parent := tokens[n-1], ""
	if n >= 2 {
		parent = tokens[n-2]
	}
	switch {
	case n == 3 && tokens[0] == "components":
		return componentKinds[tokens[1]], true
	case parent == "parameters" && isIndex(last):
		return "parameter", true
	case parent == "responses" && tokens[0] == "paths":
		return "response", true
	case last == "requestBody":
		return "requestBody", true
	case last == "schema":
		return "schema", true
	case n == 2 && tokens[0] == "paths":
		return "pathItem", true
	}
	return "", false
}

// refTargetText says what site names, for a message.
func (s *source) refTargetText(site refSite) string {
	if kind := objectNames[s.refTargetKind(site)]; kind != "" {
		return article(kind) + " " + kind
	}
	return "something else"
}

// findNode returns the shallowest node under node that starts at line
// and column, and its place below node.
func findNode(node *yaml.Node, line, col int, at *nodePath) (*yaml.Node, *nodePath) {
	if node.Line == line && node.Column == col {
		return node, at
	}
	switch node.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(node.Content); i += 2 {
			if n, p := findNode(node.Content[i+1], line, col, &nodePath{parent: at, key: node.Content[i].Value, index: -1}); n != nil {
				return n, p
			}
		}
	case yaml.SequenceNode:
		for i, item := range node.Content {
			if n, p := findNode(item, line, col, &nodePath{parent: at, index: i}); n != nil {
				return n, p
			}
		}
	}
	return nil, nil
}

// quotedRefs returns the strings a message quotes that may be
// references: those with a "#".
func quotedRefs(msg string) []string {
	var out []string
	for _, m := range quotedPattern.FindAllString(msg, -1) {
		if v := strings.Trim(m, `"`); strings.Contains(v, "#") {
			out = append(out, v)
		}
	}
	return out
}

var quotedPattern = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// fragmentOf returns the unescaped fragment of a reference, "" when it
// has none or does not parse.
func fragmentOf(ref string) string {
	u, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	return u.Fragment
}
