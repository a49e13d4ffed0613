package openapi

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/gen/input"
)

// source reads the files of one document: the entry file and the files its
// $refs reach. It is the allow-list for external references: only files
// inside fsys can be read, never URLs, never paths leaving fsys.
//
// Files are named two ways: rel is the slash-separated path inside fsys
// ("spec/Pet.yaml"), display is how diagnostics name it (dir joined with
// rel, "specs/spec/Pet.yaml").
//
// A source is safe for concurrent use: the loader may read files while
// references are being checked.
type source struct {
	fsys  fs.FS
	dir   string
	limit int64 // the size limit of one file
	mu    sync.Mutex
	files map[string]*file
	// unparsable lists the files that were read but did not parse.
	unparsable []*file
}

// file is one read and parsed file. Reading and parsing happen once each,
// on first need; the loader reads without parsing.
type file struct {
	rel, display string
	read, parse  sync.Once

	data []byte
	// root is the parsed document's top node; nil when parsing failed.
	root *yaml.Node
	// err is why the file could not be read or parsed.
	err error
}

func newSource(fsys fs.FS, dir string, limit int64) *source {
	dir = path.Clean(dir)
	if dir == "." {
		dir = ""
	}
	if limit <= 0 {
		limit = input.MaxSpecSize
	}
	return &source{fsys: fsys, dir: dir, limit: limit, files: map[string]*file{}}
}

// display names rel for diagnostics.
func (s *source) display(rel string) string {
	if s.dir == "" {
		return rel
	}
	return path.Join(s.dir, rel)
}

// rel turns a display name back into a path inside fsys; ok is false when
// the name lies outside it.
func (s *source) rel(display string) (string, bool) {
	p := path.Clean(display)
	if s.dir != "" {
		prefix := s.dir + "/"
		if !strings.HasPrefix(p, prefix) {
			return "", false
		}
		p = strings.TrimPrefix(p, prefix)
	}
	return p, fs.ValidPath(p) && p != "."
}

// entry returns the file rel, creating its record on first use.
func (s *source) entry(rel string) *file {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[rel]
	if !ok {
		f = &file{rel: rel, display: s.display(rel)}
		s.files[rel] = f
	}
	return f
}

// failedParses returns the files that were read but did not parse.
func (s *source) failedParses() []*file {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.unparsable)
}

// readData reads rel once and returns its bytes.
func (s *source) readData(rel string) (*file, []byte, error) {
	f := s.entry(rel)
	var err error
	f.read.Do(func() { f.data, f.err = input.Read(s.fsys, rel, s.limit) })
	if f.data == nil {
		err = f.err
	}
	return f, f.data, err
}

// open reads and parses rel once.
func (s *source) open(rel string) *file {
	f, data, err := s.readData(rel)
	if err != nil {
		return f
	}
	f.parse.Do(func() {
		if root, ok := parseJSONNode(data); ok {
			f.root = root
			return
		}
		var doc yaml.Node
		switch err := yaml.Unmarshal(data, &doc); {
		case err != nil:
			f.err = err
		case len(doc.Content) == 0:
			f.err = errors.New("the file is empty")
		default:
			f.root = doc.Content[0]
			return
		}
		s.mu.Lock()
		s.unparsable = append(s.unparsable, f)
		s.mu.Unlock()
	})
	return f
}

// readURI serves the loader's reads from fsys, refusing anything else.
func (s *source) readURI(u *url.URL) ([]byte, error) {
	if u.Scheme != "" || u.Host != "" {
		return nil, fmt.Errorf("external reference %q is not allowed", u.String())
	}
	rel, ok := s.rel(u.Path)
	if !ok {
		return nil, fmt.Errorf("reference to %q leaves the spec's folder", u.Path)
	}
	_, data, err := s.readData(rel)
	return data, err
}

// lookup resolves a JSON pointer ("#/components/schemas/Pet" or
// "/components/schemas/Pet") inside root. It returns the deepest node
// reached and whether the whole pointer resolved.
func lookup(root *yaml.Node, pointer string) (*yaml.Node, bool) {
	node := root
	pointer = strings.TrimPrefix(pointer, "#")
	if pointer == "" {
		return node, true
	}
	if !strings.HasPrefix(pointer, "/") {
		return node, false
	}
	for tok := range strings.SplitSeq(pointer[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		next := child(node, tok)
		if next == nil {
			return node, false
		}
		node = next
	}
	return node, true
}

// child returns the value under key tok of a mapping, or the item at index
// tok of a sequence, following aliases; nil when there is none.
func child(node *yaml.Node, tok string) *yaml.Node {
	for node != nil && node.Kind == yaml.AliasNode {
		node = node.Alias
	}
	if node == nil {
		return nil
	}
	switch node.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(node.Content); i += 2 {
			if node.Content[i].Value == tok {
				return node.Content[i+1]
			}
		}
	case yaml.SequenceNode:
		var idx int
		if _, err := fmt.Sscanf(tok, "%d", &idx); err == nil && idx >= 0 && idx < len(node.Content) {
			return node.Content[idx]
		}
	}
	return nil
}

// escapeToken escapes one JSON pointer token.
func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// pointer joins tokens onto a JSON pointer, escaping each.
func pointer(base string, tokens ...string) string {
	var b strings.Builder
	b.WriteString(base)
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}
