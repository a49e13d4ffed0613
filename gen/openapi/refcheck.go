package openapi

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// refSite is one "$ref" written in a file.
type refSite struct {
	from  *file
	at    *nodePath // where the object holding the $ref is
	value string
	line  int
	col   int
}

// target is a resolved reference: a file and a pointer inside it.
type target struct {
	rel string
	ptr string
}

// checkRefs walks every $ref reachable from the entry file and reports,
// before the loader sees them, references that go to URLs or out of the
// spec's folder (E-REF-EXTERNAL), that do not resolve (E-REF-UNRESOLVED),
// and chains of references that never reach a value (E-REF-CYCLE). The
// loader's own messages for these cases carry no position or mislead.
//
// Its work grows linearly with the files and their references: each file
// is walked once, each reference resolved twice (once to find the files,
// once to report), members of wide mappings are found through an index,
// and a chain of references already known to end at a value is not
// followed again. It returns that work, counted in steps, for the tests
// that hold it linear.
func (s *source) checkRefs(entry *file, diags *diag.List) int {
	c := &refChecker{s: s, members: map[*yaml.Node]map[string]*yaml.Node{}, ends: map[target]bool{}}
	walked := map[string]bool{}
	var sites []refSite
	queue := []*file{entry}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if walked[f.rel] || f.root == nil {
			continue
		}
		walked[f.rel] = true
		start := len(sites)
		collectRefs(f, f.root, nil, &sites)
		for _, site := range sites[start:] {
			if t, ok := c.resolveSite(site, nil); ok && !walked[t.rel] {
				queue = append(queue, s.open(t.rel))
			}
		}
	}
	reported := map[string]bool{}
	for _, site := range sites {
		t, ok := c.resolveSite(site, diags)
		if !ok {
			continue
		}
		if cycle := c.refChain(t); cycle != nil {
			key := slices.Min(cycle)
			if !reported[key] {
				reported[key] = true
				diags.Errorf(site.location(), diag.RuleRefCycle,
					"$ref cycle "+strings.Join(cycle, " -> "),
					"a chain of $refs must end at a schema; point one of them at a definition")
			}
		}
	}
	return c.steps
}

// refChecker resolves the references of one document for checkRefs.
type refChecker struct {
	s *source
	// members indexes the members of wide mappings by key, each mapping
	// on its first lookup.
	members map[*yaml.Node]map[string]*yaml.Node
	// ends holds the targets whose chain of references ends at a value.
	ends map[target]bool
	// steps counts the work done: references resolved, pointer tokens
	// followed, mapping members and chain links looked at.
	steps int
}

// indexedWidth is the number of members from which a mapping is indexed
// rather than scanned.
const indexedWidth = 16

// lookup is [lookup] with wide mappings indexed.
func (c *refChecker) lookup(root *yaml.Node, pointer string) (*yaml.Node, bool) {
	node := root
	pointer = strings.TrimPrefix(pointer, "#")
	if pointer == "" {
		return node, true
	}
	if !strings.HasPrefix(pointer, "/") {
		return node, false
	}
	for tok := range strings.SplitSeq(pointer[1:], "/") {
		c.steps++
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		next := c.child(node, tok)
		if next == nil {
			return node, false
		}
		node = next
	}
	return node, true
}

// child is [child] with wide mappings indexed: the first member of a
// key, as child finds it.
func (c *refChecker) child(node *yaml.Node, tok string) *yaml.Node {
	for node != nil && node.Kind == yaml.AliasNode {
		node = node.Alias
	}
	if node == nil || node.Kind != yaml.MappingNode || len(node.Content) < 2*indexedWidth {
		if node != nil && node.Kind == yaml.MappingNode {
			c.steps += len(node.Content) / 2
		}
		return child(node, tok)
	}
	index, ok := c.members[node]
	if !ok {
		index = make(map[string]*yaml.Node, len(node.Content)/2)
		for i := 0; i+1 < len(node.Content); i += 2 {
			c.steps++
			if _, dup := index[node.Content[i].Value]; !dup {
				index[node.Content[i].Value] = node.Content[i+1]
			}
		}
		c.members[node] = index
	}
	return index[tok]
}

func (r refSite) location() diag.Location {
	return diag.Location{File: r.from.display, Line: r.line, Col: r.col, Path: r.at.String()}
}

// nodePath is the place of a node in its file, as a link to its parent's
// place: walking a file costs one small value per node, and the JSON
// pointer, as long as the node is deep, is written out only for a
// diagnostic. The nil *nodePath is the document's root.
type nodePath struct {
	parent *nodePath
	key    string // the member name, when index < 0
	index  int    // the item's index in a sequence, or -1
}

// String returns the JSON pointer of p ("#/paths/~1pets/get").
func (p *nodePath) String() string {
	var steps []*nodePath
	for q := p; q != nil; q = q.parent {
		steps = append(steps, q)
	}
	var b strings.Builder
	b.WriteByte('#')
	for _, q := range slices.Backward(steps) {
		b.WriteByte('/')
		if q.index >= 0 {
			b.WriteString(strconv.Itoa(q.index))
		} else {
			b.WriteString(escapeToken(q.key))
		}
	}
	return b.String()
}

// collectRefs appends every $ref under node, which is at the place at.
func collectRefs(f *file, node *yaml.Node, at *nodePath, out *[]refSite) {
	switch node.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			if k.Value == "$ref" && v.Kind == yaml.ScalarNode {
				*out = append(*out, refSite{from: f, at: at, value: v.Value, line: k.Line, col: k.Column})
				continue
			}
			if k.Value == "discriminator" {
				collectMappingRefs(f, v, &nodePath{parent: at, key: k.Value, index: -1}, out)
			}
			if v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode {
				collectRefs(f, v, &nodePath{parent: at, key: k.Value, index: -1}, out)
			}
		}
	case yaml.SequenceNode:
		for i, item := range node.Content {
			if item.Kind == yaml.MappingNode || item.Kind == yaml.SequenceNode {
				collectRefs(f, item, &nodePath{parent: at, index: i}, out)
			}
		}
	}
}

// collectMappingRefs appends the values of the discriminator disc's
// mapping that name another file ("models/pet.yml#/Dog"), which the
// loader follows as it follows a $ref; schema names and references into
// the same file are left to the validator.
func collectMappingRefs(f *file, disc *yaml.Node, at *nodePath, out *[]refSite) {
	mapping := child(disc, "mapping")
	if mapping == nil || mapping.Kind != yaml.MappingNode {
		return
	}
	at = &nodePath{parent: at, key: "mapping", index: -1}
	for i := 0; i+1 < len(mapping.Content); i += 2 {
		v := mapping.Content[i+1]
		if v.Kind == yaml.ScalarNode && strings.Contains(v.Value, "/") && !strings.HasPrefix(v.Value, "#") {
			*out = append(*out, refSite{from: f, at: at, value: v.Value, line: v.Line, col: v.Column})
		}
	}
}

// resolveSite finds what site refers to. With diags non-nil it reports why
// a reference cannot be followed.
func (c *refChecker) resolveSite(site refSite, diags *diag.List) (target, bool) {
	s := c.s
	c.steps++
	fail := func(rule diag.Rule, msg, fix string) (target, bool) {
		if diags != nil {
			diags.Errorf(site.location(), rule, msg, fix)
		}
		return target{}, false
	}
	u, err := url.Parse(site.value)
	if err != nil {
		return fail(diag.RuleRefUnresolved, fmt.Sprintf("$ref %q is not a valid URI reference (%v), so the client cannot know what it names", site.value, err), "")
	}
	if u.Scheme != "" || u.Host != "" {
		return fail(diag.RuleRefExternal, fmt.Sprintf("$ref %q points to a URL, which is never fetched, so the client cannot know what it names", site.value),
			"copy the referenced file under the spec's folder and refer to it by a relative path")
	}
	rel := site.from.rel
	if u.Path != "" {
		joined := path.Join(path.Dir(site.from.display), u.Path)
		if path.IsAbs(u.Path) {
			joined = u.Path
		}
		var ok bool
		if rel, ok = s.rel(joined); !ok {
			return fail(diag.RuleRefExternal, fmt.Sprintf("$ref %q leaves the spec's folder, which is never read, so the client cannot know what it names", site.value),
				"keep every referenced file under the folder of the entry file (or load from a wider root)")
		}
	}
	f := s.open(rel)
	if f.root == nil {
		if f.data != nil && diags != nil {
			// The file exists but does not parse; its own E-YAML is reported
			// by the caller that parses it.
			return target{}, false
		}
		if f.err == nil || errors.Is(f.err, fs.ErrNotExist) {
			return fail(diag.RuleRefUnresolved, fmt.Sprintf("$ref %q: %s does not exist, so the client cannot know what it names", site.value, f.display),
				"add the file beside the spec, as its authors have it, or fix the reference")
		}
		rule, why, fix := readFailure(f.err)
		return fail(rule, fmt.Sprintf("$ref %q: cannot read %s: %s", site.value, f.display, why), fix)
	}
	if _, ok := c.lookup(f.root, u.Fragment); !ok {
		return fail(diag.RuleRefUnresolved, fmt.Sprintf("$ref %q does not resolve, so the client cannot know what it names", site.value),
			"define the target or fix the reference")
	}
	return target{rel: rel, ptr: "#" + u.Fragment}, true
}

// refChain follows a target that is itself only a $ref, and returns the
// chain when it comes back to a target already seen; nil when the chain
// ends at a value. The targets of a chain that ends at a value are
// remembered, so that no chain is followed twice.
func (c *refChecker) refChain(t target) []string {
	seen := map[target]bool{}
	var chain []string
	var links []target
	for {
		c.steps++
		if c.ends[t] {
			break
		}
		if seen[t] {
			return append(chain, t.rel+t.ptr)
		}
		seen[t] = true
		chain = append(chain, t.rel+t.ptr)
		links = append(links, t)
		f := c.s.open(t.rel)
		node, _ := c.lookup(f.root, t.ptr)
		ref := c.child(node, "$ref")
		if ref == nil || ref.Kind != yaml.ScalarNode {
			break
		}
		next, ok := c.resolveSite(refSite{from: f, value: ref.Value}, nil)
		if !ok {
			break
		}
		t = next
	}
	for _, l := range links {
		c.ends[l] = true
	}
	return nil
}
