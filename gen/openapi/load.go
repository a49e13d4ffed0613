package openapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v4"

	"github.com/resilientgo/resilient/gen/input"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// Document is a loaded OpenAPI document, converted to OpenAPI 3 and
// validated, ready for [Build].
type Document struct {
	// T is the loaded document with all $refs resolved and origins kept.
	T *openapi3.T
	// Source is the entry file's name as diagnostics show it.
	Source string
	// Version is the version as written: "2.0", "3.0.3", "3.1.0".
	Version string

	src   *source
	entry *file
	// validation is the loader's context, kept for a deferred Validate.
	validation context.Context
	// given holds, by file (display), the edits of the text the loader
	// was given: the marker of withoutRootKey, the repairs; see
	// [Document.loaderColumn].
	given map[string][]edit
}

// fileRoot returns the top node of the file that diagnostics name
// display, nil when it is not a file of the document or does not parse.
func (d *Document) fileRoot(display string) *yaml.Node {
	rel, ok := d.src.rel(display)
	if !ok {
		return nil
	}
	return d.src.open(rel).root
}

// IsSwagger reports whether the document was written as Swagger 2.0.
func (d *Document) IsSwagger() bool { return d.Version == "2.0" }

// LoadOptions configures [Load]. The zero value is ready to use.
type LoadOptions struct {
	// Dir is how diagnostics and origins name the root of the file
	// system: file names are shown as Dir joined with their path inside
	// it. Empty shows paths relative to the file system's root.
	Dir string
	// DeferValidation skips kin-openapi's validation during Load; the
	// caller runs [Document.Validate] itself, typically while it builds
	// and emits, since validation only reports.
	DeferValidation bool
	// MaxFileSize is the size limit of each file read, in bytes; zero
	// means [input.MaxSpecSize] (128 MiB). A larger file is an E-READ
	// error, as is anything that is not a regular file.
	MaxFileSize int64
}

// LoadFile loads the document at path from disk. Files its $refs name must
// lie in path's folder or below it, and so must the files any symbolic
// link among them leads to (the folder is opened with [os.OpenRoot]).
func LoadFile(path string) (*Document, []diag.Diagnostic, error) {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	shown := filepath.ToSlash(filepath.Clean(dir))
	root, err := input.OpenRoot(dir)
	if err != nil {
		return nil, nil, diag.Diagnostic{Location: diag.Location{File: shown}, Rule: diag.RuleRead, Message: "cannot open the spec's folder: " + oneLine(err.Error())}
	}
	defer root.Close()
	return Load(root.FS(), name, LoadOptions{Dir: shown})
}

// Load reads the document name from fsys, resolves its $refs (to files in
// fsys only), converts Swagger 2.0 to OpenAPI 3 and validates the result.
//
// Findings on examples, defaults and OpenAPI 3.1 keywords, and unknown
// keywords inside schemas, are warnings: such documents still generate.
// So are the sloppy constructs that kin-openapi refuses whole and that
// Load repairs in the text the loader is given (W-KEYWORD-TYPE and the
// W-REF-* warnings); a value the loader cannot read is an E-LOAD error
// at the place it is written.
// Everything else that makes the document unusable is an error; the
// returned error joins all of them, and the Document is nil.
func Load(fsys fs.FS, name string, opts LoadOptions) (*Document, []diag.Diagnostic, error) {
	var diags diag.List
	src := newSource(fsys, opts.Dir, opts.MaxFileSize)
	doc := load(src, name, opts.DeferValidation, &diags)
	return doc, diags.Warnings(), diags.Err()
}

func load(src *source, name string, deferValidation bool, diags *diag.List) *Document {
	l := startLoad(src, name)
	// Every return below waits for the load started, so that no goroutine
	// outlives the call.
	defer l.wait()

	entry := src.open(name)
	if entry.err != nil {
		reportFileError(entry, diags)
		return nil
	}
	version, swagger := documentVersion(entry.root)
	if !checkVersion(entry, version, swagger, diags) || !checkFiles(src, entry, diags) {
		return nil
	}
	var t *openapi3.T
	var err error
	if swagger {
		t, err = l.swagger(entry, diags)
	} else {
		t, err = l.openAPI(entry, diags)
	}
	if err != nil {
		if !src.misplacedSchemaRefs(entry, diags) {
			src.reportLoadError(err, entry, l.files.given, diags)
		}
		return nil
	}
	doc := &Document{T: t, Source: entry.display, Version: version, src: src, entry: entry, validation: l.loader.Context, given: l.files.given}
	if deferValidation {
		return doc
	}
	doc.validate(l.loader.Context, diags, true)
	if diags.HasErrors() {
		return nil
	}
	return doc
}

// checkVersion reports a document that is neither Swagger 2.0 nor
// OpenAPI 3.0 or 3.1, and returns whether it is one of them.
func checkVersion(entry *file, version string, swagger bool, diags *diag.List) bool {
	switch {
	case swagger && version != "2.0":
		diags.Errorf(fileStart(entry), diag.RuleVersion,
			fmt.Sprintf("unsupported Swagger version %q", version), `only "swagger: \"2.0\"" documents are converted`)
		return false
	case !swagger && !strings.HasPrefix(version, "3.0") && !strings.HasPrefix(version, "3.1"):
		found := "no openapi field"
		if version != "" {
			found = fmt.Sprintf("openapi %q", version)
		}
		diags.Errorf(fileStart(entry), diag.RuleVersion,
			fmt.Sprintf("not an OpenAPI 3.0 or 3.1 document (found %s)", found),
			`start the document with "openapi: 3.0.3" or "openapi: 3.1.0", or "swagger: \"2.0\""`)
		return false
	}
	return true
}

// checkFiles checks the references of the entry file and reports the
// other files of src that could not be parsed; it returns whether the
// document is free of errors so far.
func checkFiles(src *source, entry *file, diags *diag.List) bool {
	src.checkRefs(entry, diags)
	for _, f := range src.failedParses() {
		if f != entry {
			reportFileError(f, diags)
		}
	}
	return !diags.HasErrors()
}

// loading is the load of one document by kin-openapi: where the document
// is, the loader last used and the files it was given.
//
// An OpenAPI 3 document is loaded by kin-openapi while this package
// parses it again for positions and checks its references; the result is
// used only when that check passes. A Swagger document is loaded after
// it, by the converter.
type loading struct {
	src      *source
	location *url.URL
	entryRel string
	files    *loaderFiles
	loader   *openapi3.Loader
	// pending delivers the load started early; nil when none was
	// started or it was waited for.
	pending chan loadResult
}

// startLoad starts loading the document name of src, unless it says it is
// a Swagger document.
func startLoad(src *source, name string) *loading {
	l := &loading{src: src, location: &url.URL{Path: src.display(name)}}
	l.entryRel, _ = src.rel(l.location.Path)
	l.files = newLoaderFiles(src, l.entryRel, nil)
	l.loader = l.files.loader()
	if _, data, err := src.readData(name); err == nil && topLevelKey(data) != "swagger" {
		pending := make(chan loadResult, 1)
		loader, location := l.loader, l.location
		go func() {
			t, err := loader.LoadFromURI(location)
			pending <- loadResult{t, err}
		}()
		l.pending = pending
	}
	return l
}

// wait waits for the load started early, if any, and returns its result.
func (l *loading) wait() loadResult {
	if l.pending == nil {
		return loadResult{}
	}
	r := <-l.pending
	l.pending = nil
	return r
}

// openAPI returns the OpenAPI 3 document entry as loaded early, or loads
// it now when no load was started. Sloppy constructs that the loader
// refuses whole, and a client can do without, are repaired in what it is
// given, with a warning each, and the document loaded again.
func (l *loading) openAPI(entry *file, diags *diag.List) (*openapi3.T, error) {
	var t *openapi3.T
	var err error
	if l.pending != nil {
		r := l.wait()
		t, err = r.t, r.err
	} else {
		t, err = l.loader.LoadFromURI(l.location)
	}
	if err == nil {
		return t, nil
	}
	repaired := l.src.repairs(entry, diags)
	if len(repaired) == 0 {
		return t, err
	}
	l.files = newLoaderFiles(l.src, l.entryRel, repaired)
	l.loader = l.files.loader()
	return l.loader.LoadFromURI(l.location)
}

// swagger converts the Swagger 2.0 document entry, repaired and converted
// again when the converter's loader refuses it as openAPI does. The
// document may have looked like OpenAPI 3 and be loaded as such: that
// load is of no use, and its loader is not shared. The loader of the
// early load stays the one whose context validates the result.
func (l *loading) swagger(entry *file, diags *diag.List) (*openapi3.T, error) {
	l.wait()
	l.files = newLoaderFiles(l.src, "", nil)
	t, err := convertSwagger(l.src, entry, entry.data, l.files.loader(), l.location)
	if err == nil {
		return t, nil
	}
	repaired := l.src.repairs(entry, diags)
	if len(repaired) == 0 {
		return t, err
	}
	l.files = newLoaderFiles(l.src, "", repaired)
	data := entry.data
	if edits := repaired[entry.rel]; len(edits) > 0 {
		data = applyEdits(data, edits)
		l.files.given[entry.display] = edits
	}
	return convertSwagger(l.src, entry, data, l.files.loader(), l.location)
}

// loaderFiles is what a kin-openapi loader reads: the files of src, with
// the edits of repaired (by rel), and the file marked (by rel; "" for
// none) with the marker of withoutRootKey. The edits each file was given
// are recorded in given (by display name), written by the loader and read
// once the load is over.
type loaderFiles struct {
	src      *source
	marked   string
	repaired map[string][]edit
	mu       sync.Mutex
	given    map[string][]edit
}

// newLoaderFiles returns the files of src with the edits of repaired and
// the file marked given the marker ("" for none).
func newLoaderFiles(src *source, marked string, repaired map[string][]edit) *loaderFiles {
	return &loaderFiles{src: src, marked: marked, repaired: repaired, given: map[string][]edit{}}
}

// loader returns a new loader of f.
func (f *loaderFiles) loader() *openapi3.Loader {
	loader := openapi3.NewLoader()
	loader.IncludeOrigin = true
	loader.IsExternalRefsAllowed = true
	loader.ReadFromURIFunc = f.read
	return loader
}

// read gives the loader the file at u, edited.
func (f *loaderFiles) read(_ *openapi3.Loader, u *url.URL) ([]byte, error) {
	data, err := f.src.readURI(u)
	rel, ok := f.src.rel(u.Path)
	if err != nil || !ok {
		return data, err
	}
	edits := f.repaired[rel]
	if len(edits) > 0 {
		data = applyEdits(data, edits)
	}
	if f.marked != "" && rel == f.marked {
		if withMarker := withoutRootKey(data); len(withMarker) > len(data) {
			edits = append([]edit{{line: 1, col: 1, text: documentStart}}, edits...)
			data = withMarker
		}
	}
	if len(edits) > 0 {
		f.mu.Lock()
		f.given[f.src.display(rel)] = edits
		f.mu.Unlock()
	}
	return data, err
}

// topLevelKey tells, without parsing data, whether the document's version
// key is "openapi" or "swagger": it returns the first of the two met as a
// key of the top-level mapping of a JSON document (one that starts with
// "{"), or at the start of a line of a YAML document ("swagger:",
// "'swagger':", "\"swagger\":"). It returns "" when it finds neither.
// It only decides whether the document is loaded while it is parsed;
// the parsed document decides what it is.
func topLevelKey(data []byte) string {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if bytes.HasPrefix(trimmed, []byte("{")) {
		return jsonTopLevelKey(trimmed)
	}
	for line := range bytes.Lines(data) {
		line = bytes.TrimLeft(line, `"'`)
		for _, key := range []string{"openapi", "swagger"} {
			if rest, ok := bytes.CutPrefix(line, []byte(key)); ok {
				rest = bytes.TrimLeft(rest, `"' `)
				if bytes.HasPrefix(rest, []byte(":")) {
					return key
				}
			}
		}
	}
	return ""
}

// jsonTopLevelKey returns the first of "openapi" and "swagger" that is a
// key of the top-level object of the JSON text data, which starts with
// "{"; "" when neither is or the text is not JSON enough to tell.
func jsonTopLevelKey(data []byte) string {
	depth := 0
	expectKey := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			end := jsonStringEnd(data, i)
			if end >= len(data) {
				return ""
			}
			if depth == 1 && expectKey {
				if key := string(data[i+1 : end]); key == "openapi" || key == "swagger" {
					return key
				}
				expectKey = false
			}
			i = end
		case '{', '[':
			depth++
			expectKey = c == '{' && depth == 1
		case '}', ']':
			depth--
			if depth <= 0 {
				return ""
			}
		case ',':
			expectKey = depth == 1
		}
	}
	return ""
}

// jsonStringEnd returns the index in data of the quote that closes the
// JSON string opened by the quote at start, or len(data) or more when the
// string is not closed.
func jsonStringEnd(data []byte, start int) int {
	end := start + 1
	for end < len(data) && data[end] != '"' {
		if data[end] == '\\' {
			end++
		}
		end++
	}
	return end
}

// withoutRootKey returns the bytes kin-openapi's loader is given for the
// entry file. A JSON document that starts with its opening brace gets a
// YAML document start marker before it ("--- {"): the loader reads JSON
// with the YAML parser, which takes an object opening the stream for a
// possible mapping key, and so holds every token of the document in its
// queue until the closing brace, a third of its parse time and much of
// its memory for a large spec. After the marker no key may start there.
// Every node keeps its line and column, except that those on the first
// line move right by the marker's width, which [Document.loaderColumn]
// takes back from the positions the loader records. A document holding
// U+0085, which the loader reads with the JSON parser, is left as it is.
func withoutRootKey(data []byte) []byte {
	if !bytes.HasPrefix(data, []byte("{")) || bytes.Contains(data, []byte("\u0085")) {
		return data
	}
	out := make([]byte, 0, len(documentStart)+len(data))
	return append(append(out, documentStart...), data...)
}

// documentStart is the YAML document start marker withoutRootKey adds.
const documentStart = "--- "

// loaderColumn returns the column in the file as written of a position
// the loader recorded in file at line and col: on the first line of the
// entry file, less the width of the marker the loader was given before
// it (see withoutRootKey), and on a line the loader was given repaired,
// less what the repairs before it added.
func (d *Document) loaderColumn(file string, line, col int) int {
	return fromLoader(d.given[file], line, col)
}

// loadResult is what kin-openapi's loader returned.
type loadResult struct {
	t   *openapi3.T
	err error
}

// documentVersion reads the "openapi" or "swagger" field of a document.
func documentVersion(root *yaml.Node) (version string, swagger bool) {
	if v := child(root, "openapi"); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value, false
	}
	if v := child(root, "swagger"); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value, true
	}
	return "", false
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// reportFileError reports a file that cannot be read or parsed.
func reportFileError(f *file, diags *diag.List) {
	loc := diag.Location{File: f.display}
	if f.data == nil {
		_, msg, fix := readFailure(f.err)
		diags.Errorf(loc, diag.RuleRead, msg, fix)
		return
	}
	msg := strings.TrimPrefix(oneLine(f.err.Error()), "yaml: ")
	var le *yaml.LoadError
	switch {
	case errors.As(f.err, &le):
		loc.Line, loc.Col, msg = le.Mark.Line, le.Mark.Column, le.Message
		if le.ContextMsg != "" && le.ContextMark.Line > 0 && le.ContextMark.Line != le.Mark.Line {
			msg += fmt.Sprintf(" (%s started at line %d)", le.ContextMsg, le.ContextMark.Line)
		}
	case yamlLine.MatchString(msg):
		m := yamlLine.FindStringSubmatch(msg)
		loc.Line, _ = strconv.Atoi(m[1])
		msg = strings.TrimPrefix(strings.TrimPrefix(msg, m[0]), ": ")
	}
	fix := ""
	if strings.Contains(msg, "cannot start any token") && strings.Contains(string(f.data), "\t") {
		fix = "tabs are not allowed in YAML indentation; indent with spaces"
	}
	diags.Errorf(loc, diag.RuleYAML, "invalid YAML: "+msg, fix)
}

func fileStart(f *file) diag.Location {
	loc := diag.Location{File: f.display, Line: 1, Col: 1}
	if f.root != nil {
		loc.Line, loc.Col = f.root.Line, f.root.Column
	}
	return loc
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// validateContext is the context validation runs in.
func validateContext(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// Validate runs kin-openapi's validation of a document loaded with
// [LoadOptions.DeferValidation] and returns its findings as [Load] would:
// warnings in the slice, errors joined. With examples false, examples are
// not checked against their schemas; such findings are only ever warnings.
// It only reads the document, so it may run while the document is built
// into the IR.
func (d *Document) Validate(examples bool) ([]diag.Diagnostic, error) {
	var diags diag.List
	d.validate(d.validation, &diags, examples)
	return diags.Warnings(), diags.Err()
}

// readFailure explains why a file could not be read: the rule a $ref to
// it breaks (E-REF-EXTERNAL for a link out of the folder, else
// E-REF-UNRESOLVED), what is wrong and the fix.
func readFailure(err error) (refRule diag.Rule, msg, fix string) {
	var large *input.TooLargeError
	var irregular *input.NotRegularError
	switch {
	case errors.Is(err, input.ErrOutsideRoot):
		return diag.RuleRefExternal, "the file is a symbolic link that leads outside the spec's folder",
			"copy the file under the spec's folder, or widen the folder the generator may read (oapi-resilient -root)"
	case errors.As(err, &large):
		return diag.RuleRefUnresolved, "the file is larger than the limit of " + sizeText(large.Limit),
			"split the document into files joined by $ref, each below the limit"
	case errors.As(err, &irregular):
		return diag.RuleRefUnresolved, "the file is " + irregular.What() + ", not a regular file", "point at a spec file"
	}
	return diag.RuleRefUnresolved, oneLine(err.Error()), ""
}

// sizeText renders a byte count as MiB when it is whole.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
