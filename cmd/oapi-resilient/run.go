package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/resilientgo/resilient/gen"
	"github.com/resilientgo/resilient/gen/diff"
	"github.com/resilientgo/resilient/gen/input"
	"github.com/resilientgo/resilient/gen/openapigen"
	"github.com/resilientgo/resilient/internal/version"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// Exit statuses; see the command documentation.
const (
	exitOK       = 0
	exitLint     = 1
	exitUnusable = 2
)

const usage = `usage:
  oapi-resilient generate [-package NAME] [-o OUT.go] [-policy POLICY.yaml] [-review OUT.md] [-check] SPEC
  oapi-resilient check    [-policy POLICY.yaml] SPEC
  oapi-resilient review   [-policy POLICY.yaml] SPEC
  oapi-resilient diff     [-policy POLICY.yaml] [-format text|markdown|json] [-fail-on risk|breaking|none] OLD NEW
  oapi-resilient -version
Run "oapi-resilient COMMAND -h" for a command's flags.
`

// run runs the command line args (without the program name) and returns
// the exit status. It reads and writes files only as the arguments say.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	_ = stdin
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUnusable
	}
	switch args[0] {
	case "generate", "check", "review", "diff":
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, version.String("oapi-resilient"))
		return exitOK
	default:
		fmt.Fprintf(stderr, "oapi-resilient: unknown command %q\n%s", args[0], usage)
		return exitUnusable
	}
	cmd, err := parse(args[0], args[1:], stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "oapi-resilient %s: %v\n", args[0], err)
		return exitUnusable
	}
	return cmd.run(stdout, stderr)
}

// command is one parsed command line.
type command struct {
	name       string
	spec       string
	root       string
	policy     string
	dependency string
	strict     bool
	noGoNames  bool
	docURL     string
	by         policyspec.ReviewMode
	out        string
	pkg        string
	review     string
	// check compares the files generate would write with those on disk
	// instead of writing them.
	check bool
	// include and exclude are the -include and -exclude filters.
	include, exclude []gen.Filter
	split            gen.SplitMode
	// newSpec, format and failOn are diff's: NEW (spec is OLD), the
	// report's format and what fails it.
	newSpec, format string
	failOn          diff.FailOn
}

func parse(name string, args []string, stderr io.Writer) (*command, error) {
	c := &command{name: name}
	fs := flag.NewFlagSet("oapi-resilient "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.policy, "policy", "", "policy `file` (YAML) layered below the spec's x-resilience")
	fs.StringVar(&c.dependency, "dependency", "", "`name` the policy file knows the service by (default: from info.title)")
	fs.StringVar(&c.root, "root", "", "`folder` the spec's $refs may reach (default: the spec's folder)")
	fs.BoolVar(&c.strict, "strict", false, "make the warnings of a sloppy document (W-OPENAPI, W-NO-OPID, W-PATH-QUERY, W-PATH-FRAGMENT, W-MEDIA-TYPE, W-KEYWORD-TYPE, W-REF-SCHEMA, W-REF-PARAMETER, W-REF-RESPONSE) errors")
	fs.BoolVar(&c.noGoNames, "ignore-go-names", false, "disregard x-go-name values written for another generator's package layout")
	fs.StringVar(&c.docURL, "document-url", "", "`URL` the spec is served from, to resolve relative server URLs against")
	by := fs.String("by", "operation", "rows of the review table: operation or dependency")
	filters := func(into *[]gen.Filter) func(string) error {
		return func(s string) error {
			f, err := gen.ParseFilters(s)
			*into = append(*into, f...)
			return err
		}
	}
	fs.Func("include", "only the operations of these `filters` (tag:NAME, path:/PREFIX, op:OPERATION_ID; comma-separated, repeatable)", filters(&c.include))
	fs.Func("exclude", "leave out the operations of these `filters` (as -include)", filters(&c.exclude))
	if name == "generate" {
		fs.StringVar(&c.out, "o", "", "output `file` (default: standard output)")
		fs.StringVar(&c.pkg, "package", "", "Go package `name` (default: from the output folder)")
		fs.StringVar(&c.review, "review", "", "also write the Markdown resilience review to `file`")
		c.split = gen.SplitAuto
		fs.BoolVar(&c.check, "check", false, "write nothing: exit 1 with a unified diff when -o (its split files and -review included) is not what generation would write now")
		fs.Var(&c.split, "split", "write the client as several files of the package, named after -o's: `auto` (when it is large, with -o), on (-split alone; needs -o) or off")
	}
	args1 := "SPEC"
	var failOn string
	if name == "diff" {
		args1 = "OLD NEW"
		fs.StringVar(&c.format, "format", "text", "report `format`: text, markdown (a pull-request comment) or json")
		fs.StringVar(&failOn, "fail-on", "risk", "exit 1 on a breaking change or a flagged risk (`risk`), on a breaking change only (breaking), or never (none)")
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: oapi-resilient %s [flags] %s\n", name, args1)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if name == "diff" {
		if fs.NArg() != 2 {
			fs.Usage()
			return nil, fmt.Errorf("want OLD and NEW, got %d arguments", fs.NArg())
		}
		c.spec, c.newSpec = fs.Arg(0), fs.Arg(1)
		if failOn != "risk" && failOn != "breaking" && failOn != "none" {
			return nil, fmt.Errorf("-fail-on %q: want risk, breaking or none", failOn)
		}
		c.failOn = diff.FailOn(failOn)
		if c.format != "text" && c.format != "markdown" && c.format != "json" {
			return nil, fmt.Errorf("-format %q: want text, markdown or json", c.format)
		}
		return c, nil
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return nil, fmt.Errorf("want exactly one SPEC argument, got %d", fs.NArg())
	}
	c.spec = fs.Arg(0)
	switch *by {
	case "operation":
		c.by = policyspec.ReviewPerOperation
	case "dependency":
		c.by = policyspec.ReviewPerDependency
	default:
		return nil, fmt.Errorf("-by %q: want operation or dependency", *by)
	}
	switch {
	case c.split == gen.SplitOn && c.out == "":
		return nil, errors.New("-split needs -o: the files are named after it")
	case c.check && c.out == "":
		return nil, errors.New("-check needs -o: the file to compare")
	case c.split == gen.SplitAuto && c.out == "":
		// One file goes to standard output.
		c.split = gen.SplitOff
	}
	if c.pkg != "" && (!token.IsIdentifier(c.pkg) || token.IsKeyword(c.pkg)) {
		return nil, fmt.Errorf("-package %q is not a Go package name", c.pkg)
	}
	return c, nil
}

func (c *command) run(stdout, stderr io.Writer) int {
	if c.name == "diff" {
		return c.diff(stdout, stderr)
	}
	root, name, opts, status := c.options(stderr)
	if status != exitOK {
		return status
	}
	defer root.Close()
	fsys := root.FS()
	switch c.name {
	case "check":
		warnings, err := openapigen.Check(fsys, name, opts)
		return report(stderr, warnings, err)
	case "review":
		review, warnings, err := openapigen.Review(fsys, name, opts)
		if status := report(stderr, warnings, err); status != exitOK {
			return status
		}
		if _, err := io.WriteString(stdout, review); err != nil {
			fmt.Fprintf(stderr, "oapi-resilient: %v\n", err)
			return exitUnusable
		}
		return exitOK
	}
	opts.Package = c.pkg
	if opts.Package == "" {
		opts.Package = c.defaultPackage()
	}
	opts.Source = c.source()
	res, err := openapigen.OpenAPI(fsys, name, opts)
	var warnings []diag.Diagnostic
	if res != nil {
		warnings = res.Warnings
	}
	if status := report(stderr, warnings, err); status != exitOK {
		return status
	}
	if c.check {
		return c.checkFresh(stdout, stderr, res)
	}
	if err := c.writeCode(stdout, res); err != nil {
		fmt.Fprintf(stderr, "oapi-resilient: %v\n", err)
		return exitUnusable
	}
	if res.Files == nil && c.out != "" {
		for _, f := range staleParts(c.out) {
			fmt.Fprintf(stderr, "warning: %s: a file of an earlier split client is left beside %s, which now holds the whole client; delete it, its declarations repeat the client's\n", f, c.out)
		}
	}
	if c.review != "" {
		if err := c.write(stdout, c.review, []byte(res.Review)); err != nil {
			fmt.Fprintf(stderr, "oapi-resilient: %v\n", err)
			return exitUnusable
		}
	}
	return exitOK
}

// options opens the spec's folder (or -root), which confines what the
// spec's $refs and symbolic links may reach, and reads the policy file
// from its own folder, confined the same way. Both are read only when they
// are regular files within the size limits of package input.
func (c *command) options(stderr io.Writer) (*os.Root, string, gen.OpenAPIOptions, int) {
	opts := gen.OpenAPIOptions{Dependency: c.dependency, Strict: c.strict, IgnoreGoNames: c.noGoNames, DocumentURL: c.docURL, ReviewMode: c.by,
		Include: c.include, Exclude: c.exclude, Split: c.split}
	root := c.root
	if root == "" {
		root = filepath.Dir(c.spec)
	}
	rel, err := filepath.Rel(root, c.spec)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		fmt.Fprintf(stderr, "oapi-resilient: spec %s is outside -root %s\n", c.spec, root)
		return nil, "", opts, exitUnusable
	}
	opts.Dir = filepath.ToSlash(filepath.Clean(root))
	if c.policy != "" {
		data, err := input.ReadPolicy(c.policy)
		if err != nil {
			d := diag.Diagnostic{Rule: diag.RuleRead, Message: "cannot read the policy file: " + input.Explain(err)}
			d.Location.File = c.policy
			return nil, "", opts, report(stderr, nil, d)
		}
		opts.PolicyName, opts.PolicyData = filepath.ToSlash(filepath.Clean(c.policy)), data
	}
	r, err := input.OpenRoot(root)
	if err != nil {
		d := diag.Diagnostic{Rule: diag.RuleRead, Message: "cannot open the spec's folder: " + input.Explain(err)}
		d.Location.File = opts.Dir
		return nil, "", opts, report(stderr, nil, d)
	}
	return r, filepath.ToSlash(rel), opts, exitOK
}

// report prints warnings and errors and returns the exit status they
// call for.
func report(stderr io.Writer, warnings []diag.Diagnostic, err error) int {
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w.Error())
	}
	status := exitOK
	for _, d := range diag.From(err) {
		fmt.Fprintln(stderr, d.Error())
		if d.Rule.Doc().Unusable {
			status = exitUnusable
		} else if status == exitOK {
			status = exitLint
		}
	}
	return status
}

// source names the spec in the generated file's header, never with an
// absolute path: a spec given by a relative path is named relative to the
// output file's folder (as given when writing to standard output), so the
// header does not depend on the working folder; an absolute one by its
// file name.
func (c *command) source() string {
	if filepath.IsAbs(c.spec) {
		return filepath.Base(c.spec)
	}
	if c.out != "" {
		spec, err1 := filepath.Abs(c.spec)
		out, err2 := filepath.Abs(filepath.Dir(c.out))
		if err1 == nil && err2 == nil {
			if rel, err := filepath.Rel(out, spec); err == nil {
				return filepath.ToSlash(rel)
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(c.spec))
}

var majorVersion = regexp.MustCompile(`^v[0-9]+$`)

// defaultPackage picks the package name when -package is not given: the
// package of the Go files already in the output folder, else the folder's
// name, else (writing to standard output, or a folder called "main" with
// no Go files) the spec's file name.
func (c *command) defaultPackage() string {
	base := filepath.Base(c.spec)
	fromSpec := gen.PackageName(strings.TrimSuffix(base, filepath.Ext(base)), "client")
	if c.out == "" {
		return fromSpec
	}
	dir, err := filepath.Abs(filepath.Dir(c.out))
	if err != nil {
		return fromSpec
	}
	if pkg := existingPackage(dir, filepath.Base(c.out)); pkg != "" {
		return pkg
	}
	name := filepath.Base(dir)
	if majorVersion.MatchString(name) {
		name = filepath.Base(filepath.Dir(dir))
	}
	pkg := gen.PackageName(name, "")
	if pkg == "" || pkg == "main" {
		return fromSpec
	}
	return pkg
}

// existingPackage returns the package clause of the first non-test Go
// file in dir other than skip, or "".
func existingPackage(dir, skip string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || n == skip || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, n), nil, parser.PackageClauseOnly)
		if err == nil && f.Name != nil {
			return f.Name.Name
		}
	}
	return ""
}

// write writes data to the file name, or to stdout when name is empty.
// A name that is a device or a pipe is written to as it is. Missing
// folders are made. An existing file with the same content is
// left untouched; otherwise the
// data goes to a temporary file in the same folder that is then renamed,
// so a failed write never leaves half a file.
// writeCode writes the generated client: its file, or with -split its
// files, named after -o (see partName).
func (c *command) writeCode(stdout io.Writer, res *gen.Result) error {
	if res.Files == nil {
		return c.write(stdout, c.out, res.Code)
	}
	for _, f := range res.Files {
		if err := c.write(stdout, partName(c.out, f.Part), f.Code); err != nil {
			return err
		}
	}
	return nil
}

// generatedHeader is the first line of every file oapi-resilient writes.
const generatedHeader = "// Code generated by oapi-resilient. DO NOT EDIT.\n"

// staleParts lists the files named as parts of a split client of out
// (see partName) that oapi-resilient generated: left from a run that split
// the client, they repeat its declarations once it is one file again.
func staleParts(out string) []string {
	base, ext := strings.TrimSuffix(out, ".gen.go"), ".gen.go"
	if base == out {
		ext = filepath.Ext(out)
		base = strings.TrimSuffix(out, ext)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	prefix := filepath.Base(base) + "_"
	var stale []string
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(n, prefix) || !strings.HasSuffix(n, ext) || len(n) <= len(prefix)+len(ext) {
			continue
		}
		n = filepath.Join(filepath.Dir(out), n)
		f, err := os.Open(n)
		if err != nil {
			continue
		}
		head := make([]byte, len(generatedHeader))
		_, err = io.ReadFull(f, head)
		f.Close()
		if err == nil && string(head) == generatedHeader {
			stale = append(stale, n)
		}
	}
	return stale
}

// partName names the file of a part of a split client after the core's,
// out: the part goes before ".gen.go", else before the extension
// (client.gen.go → client_issues.gen.go, api.go → api_issues.go).
func partName(out, part string) string {
	if part == "" {
		return out
	}
	base, ext := strings.TrimSuffix(out, ".gen.go"), ".gen.go"
	if base == out {
		ext = filepath.Ext(out)
		base = strings.TrimSuffix(out, ext)
	}
	return base + "_" + part + ext
}

func (c *command) write(stdout io.Writer, name string, data []byte) error {
	if name == "" {
		_, err := stdout.Write(data)
		return err
	}
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		// A device or pipe (-o /dev/null, -o /dev/stdout) is written to,
		// never replaced by a renamed file.
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	if old, err := os.ReadFile(name); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
