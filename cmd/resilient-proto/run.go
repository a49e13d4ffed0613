package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	resilientv1 "github.com/resilientgo/resilient/annotations/resilient/v1"
	"github.com/resilientgo/resilient/gen/diff"
	"github.com/resilientgo/resilient/gen/input"
	"github.com/resilientgo/resilient/gen/protocgen"
	"github.com/resilientgo/resilient/gen/svcconfig"
	"github.com/resilientgo/resilient/internal/version"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// Exit statuses; see the command documentation.
const (
	exitOK       = 0
	exitFail     = 1
	exitUnusable = 2
)

const usage = `usage:
  resilient-proto diff [-I DIR]... [-policy POLICY.yaml] [-format text|markdown|json] [-fail-on risk|breaking|none] OLD NEW
  resilient-proto check [-I DIR]... [-opt PARAMETERS]... FILE.proto|FOLDER...
  resilient-proto -version
OLD and NEW: a descriptor set (protoc -o, buf build -o), a .proto file, a folder of them, or git:REV:PATH of any.
check prints what protoc-gen-resilient reports for the files, given its parameters as --resilient_opt takes them.
Run "resilient-proto diff -h" or "resilient-proto check -h" for the flags.
`

// maxDescriptorSet bounds a descriptor set read: 128 MiB.
const maxDescriptorSet = 128 << 20

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

// command is a parsed command line.
type command struct {
	imports         multi
	policy          string
	format          string
	failOn          diff.FailOn
	oldArg, newArg  string
	stdout, stderrW io.Writer
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUnusable
	}
	switch args[0] {
	case "diff":
	case "check":
		return check(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, version.String("resilient-proto"))
		return exitOK
	default:
		fmt.Fprintf(stderr, "resilient-proto: unknown command %q\n%s", args[0], usage)
		return exitUnusable
	}
	c := &command{stdout: stdout, stderrW: &lockedWriter{w: stderr}}
	fs := flag.NewFlagSet("resilient-proto diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&c.imports, "I", "import `folder` of .proto files (repeatable; default: the file's folder); resilient/v1/resilient.proto is built in")
	fs.StringVar(&c.policy, "policy", "", "policy `file` (YAML), as protoc-gen-resilient's policy=; read at REV too for a git:REV: argument")
	fs.StringVar(&c.format, "format", "text", "report `format`: text, markdown (a pull-request comment) or json")
	failOn := fs.String("fail-on", "risk", "exit 1 on a breaking change or a flagged risk (`risk`), on a breaking change only (breaking), or never (none)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: resilient-proto diff [flags] OLD NEW")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUnusable
	}
	switch {
	case fs.NArg() != 2:
		fs.Usage()
		fmt.Fprintf(stderr, "resilient-proto diff: want OLD and NEW, got %d arguments\n", fs.NArg())
		return exitUnusable
	case *failOn != "risk" && *failOn != "breaking" && *failOn != "none":
		fmt.Fprintf(stderr, "resilient-proto diff: -fail-on %q: want risk, breaking or none\n", *failOn)
		return exitUnusable
	case c.format != "text" && c.format != "markdown" && c.format != "json":
		fmt.Fprintf(stderr, "resilient-proto diff: -format %q: want text, markdown or json\n", c.format)
		return exitUnusable
	}
	c.failOn = diff.FailOn(*failOn)
	c.oldArg, c.newArg = fs.Arg(0), fs.Arg(1)
	return c.diff()
}

func (c *command) errorf(format string, args ...any) int {
	fmt.Fprintf(c.stderrW, "resilient-proto diff: "+format+"\n", args...)
	return exitUnusable
}

func (c *command) diff() int {
	// The two versions load side by side.
	type loaded struct {
		in     diff.ProtoInput
		code   [][]byte
		status int
	}
	oldDone := make(chan loaded, 1)
	go func() {
		in, code, status := c.load(c.oldArg)
		oldDone <- loaded{in, code, status}
	}()
	newIn, newCode, newStatus := c.load(c.newArg)
	o := <-oldDone
	oldIn, oldCode := o.in, o.code
	if o.status != exitOK {
		return o.status
	}
	if newStatus != exitOK {
		return newStatus
	}
	var err error
	if oldIn.API, newIn.API, err = diff.ProtoGoAPIs(oldIn.Plugin, newIn.Plugin, oldCode, newCode); err != nil {
		return c.errorf("the generated code does not parse: %v", err)
	}
	rep := diff.CompareProto(oldIn, newIn)
	var out []byte
	switch c.format {
	case "markdown":
		out = []byte(rep.Markdown())
	case "json":
		var err error
		if out, err = rep.JSON(); err != nil {
			return c.errorf("%v", err)
		}
	default:
		out = []byte(rep.Text())
	}
	if _, err := c.stdout.Write(out); err != nil {
		return c.errorf("%v", err)
	}
	if rep.Fails(c.failOn) {
		return exitFail
	}
	return exitOK
}

// load reads one version: a descriptor set, a .proto file, or either at
// a git revision, with the policy file (at that revision too).
func (c *command) load(arg string) (diff.ProtoInput, [][]byte, int) {
	in := diff.ProtoInput{Name: arg}
	file, imports, policy := arg, []string(c.imports), c.policy
	policyName := c.policy
	ref, isGit, err := diff.ParseGitRef(arg)
	if err != nil {
		return in, nil, c.errorf("%v", err)
	}
	var tmp string
	if isGit {
		tmp, err = os.MkdirTemp("", "resilient-proto-diff-")
		if err != nil {
			return in, nil, c.errorf("%v", err)
		}
		defer os.RemoveAll(tmp)
		paths := []string{ref.Path}
		if isSource(ref.Path) {
			switch {
			case len(imports) > 0:
			case strings.HasSuffix(ref.Path, ".proto"):
				paths = append(paths, filepath.Dir(ref.Path))
			default:
				// A folder is its own import root.
				paths = append(paths, ref.Path)
			}
			paths = append(paths, imports...)
		}
		if policy != "" {
			paths = append(paths, policy)
		}
		got, err := diff.ExtractGit(ref.Rev, paths, tmp)
		if err != nil {
			return in, nil, c.errorf("%s: %v", arg, err)
		}
		file = got[0]
		if isSource(ref.Path) {
			n := len(imports)
			if n == 0 {
				n = 1
			}
			imports = got[1 : 1+n]
		}
		if policy != "" {
			policy = got[len(got)-1]
			policyName = diff.GitPrefix + ref.Rev + ":" + filepath.ToSlash(c.policy)
		}
	}
	var pf *policyspec.File
	var data []byte
	if policy != "" {
		data, err = input.ReadPolicy(policy)
		if err != nil {
			return in, nil, c.errorf("%s: cannot read the policy file: %s", policyName, input.Explain(err))
		}
		if pf, err = policyspec.DecodeFile(policyName, data); err != nil {
			return in, nil, c.report(err)
		}
	}
	configs, status := c.serviceConfigs(pf, ref, isGit, tmp)
	if status != exitOK {
		return in, nil, status
	}
	var set *descriptorpb.FileDescriptorSet
	if fi, serr := os.Stat(file); strings.HasSuffix(file, ".proto") || serr == nil && fi.IsDir() {
		set, err = compile(file, imports)
	} else {
		set, err = readSet(file)
	}
	if err != nil {
		return in, nil, c.errorf("%s: %v", arg, err)
	}
	snap, err := protocgen.NewProtoSnapshot(set, pf, configs...)
	if err != nil {
		fmt.Fprintf(c.stderrW, "%s:\n", arg)
		return in, nil, c.report(err)
	}
	in.Plugin, in.Services, in.PolicyErrors = snap.Plugin, snap.Services, snap.PolicyErrors
	return in, snap.Code, exitOK
}

// serviceConfigs reads the gRPC service configs the policy file names
// (grpcServiceConfigs), relative to its folder, at the git revision of a
// git:REV: argument as the policy file is, extracted into tmp.
func (c *command) serviceConfigs(pf *policyspec.File, ref diff.GitRef, isGit bool, tmp string) ([]*svcconfig.Config, int) {
	if pf == nil {
		return nil, exitOK
	}
	var configs []*svcconfig.Config
	for _, r := range pf.ServiceConfigs {
		name := filepath.Join(filepath.Dir(c.policy), filepath.FromSlash(r.Name))
		shown, at := filepath.ToSlash(name), name
		if isGit {
			got, err := diff.ExtractGit(ref.Rev, []string{name}, tmp)
			if err != nil {
				return nil, c.errorf("%s: %v", r.Loc, err)
			}
			shown, at = diff.GitPrefix+ref.Rev+":"+shown, got[0]
		}
		data, err := input.ReadPolicy(at)
		if err != nil {
			return nil, c.errorf("%s: cannot read the service config %s: %s", r.Loc, shown, input.Explain(err))
		}
		cfg, _, err := svcconfig.Parse(shown, data)
		if err != nil {
			return nil, c.report(err)
		}
		configs = append(configs, cfg)
	}
	return configs, exitOK
}

// report prints the diagnostics of err, one per line.
func (c *command) report(err error) int {
	ds := diag.From(err)
	if len(ds) == 0 {
		return c.errorf("%v", err)
	}
	for _, d := range ds {
		fmt.Fprintln(c.stderrW, d.Error())
	}
	return exitUnusable
}

// readSet reads a binary FileDescriptorSet.
func readSet(name string) (*descriptorpb.FileDescriptorSet, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxDescriptorSet+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxDescriptorSet {
		return nil, fmt.Errorf("larger than %d MiB", maxDescriptorSet>>20)
	}
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(data, set); err != nil {
		return nil, fmt.Errorf("not a descriptor set (protoc -o FILE --include_imports, or buf build -o FILE.binpb): %v", err)
	}
	if len(set.File) == 0 {
		return nil, errors.New("an empty descriptor set: write it with protoc -o FILE --include_imports, or buf build -o FILE.binpb")
	}
	return set, nil
}

// compile compiles the .proto file name, or every .proto file under the
// folder name, with the import folders (the file's folder, or the folder
// itself, when there are none) and returns them with their imports as a
// descriptor set; the standard imports and resilient/v1/resilient.proto
// are built in.
func compile(name string, imports []string) (*descriptorpb.FileDescriptorSet, error) {
	set, _, err := compileNames(name, imports)
	return set, err
}

// compileNames is [compile], also returning the names of the files
// compiled (not their imports) as protoc passes them to a plugin:
// relative to their import folder, slash-separated.
func compileNames(name string, imports []string) (*descriptorpb.FileDescriptorSet, []string, error) {
	var names []string
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		if len(imports) == 0 {
			imports = []string{name}
		}
		err := filepath.WalkDir(name, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".proto") {
				names = append(names, p)
			}
			return err
		})
		if err != nil {
			return nil, nil, err
		}
		if len(names) == 0 {
			return nil, nil, errors.New("a folder without .proto files")
		}
	} else {
		if len(imports) == 0 {
			imports = []string{filepath.Dir(name)}
		}
		names = []string{name}
	}
	var rels []string
	for _, n := range names {
		rel := ""
		for _, dir := range imports {
			if r, err := filepath.Rel(dir, n); err == nil && filepath.IsLocal(r) {
				rel = filepath.ToSlash(r)
				break
			}
		}
		if rel == "" {
			return nil, nil, fmt.Errorf("%s is not under any -I folder (%s)", n, strings.Join(imports, ", "))
		}
		rels = append(rels, rel)
	}
	builtin := protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
		if path == "resilient/v1/resilient.proto" {
			return protocompile.SearchResult{Desc: resilientv1.File_resilient_v1_resilient_proto}, nil
		}
		return protocompile.SearchResult{}, os.ErrNotExist
	})
	comp := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(protocompile.CompositeResolver{
			&protocompile.SourceResolver{ImportPaths: imports}, builtin}),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	files, err := comp.Compile(context.Background(), rels...)
	if err != nil {
		return nil, nil, err
	}
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := 0; i < fd.Imports().Len(); i++ {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		if r, ok := fd.(linker.Result); ok {
			set.File = append(set.File, r.FileDescriptorProto())
		} else {
			set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
		}
	}
	for _, f := range files {
		add(f)
	}
	return set, rels, nil
}

// lockedWriter serializes the writes of the two versions' loads.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// isSource reports whether a git:REV:PATH names .proto sources (a .proto
// file, or a folder: a path without an extension) rather than a
// descriptor set.
func isSource(path string) bool {
	return strings.HasSuffix(path, ".proto") || filepath.Ext(path) == ""
}
