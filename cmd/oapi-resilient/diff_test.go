package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/gen/diff"
)

// petstoreEdits are five edits of the pet store spec, each with the
// section, rule and class the diff must report it with.
var petstoreEdits = []struct {
	name, old, new         string
	section, rule, subject string
	class                  diff.Class
	goRule                 string
	goClass                diff.Class
}{
	{
		name: "a parameter made required",
		old:  "{name: limit, in: query, schema: {type: integer}}", new: "{name: limit, in: query, required: true, schema: {type: integer}}",
		section: "wire", rule: diff.RuleWireParamRequired, subject: "query parameter limit", class: diff.Breaking,
		goRule: diff.RuleGoChanged, goClass: diff.Breaking,
	},
	{
		name: "a response field removed",
		old: `        adoptions:
          type: integer
          format: int64
          description: How many times the pet was adopted.
`, new: "",
		section: "wire", rule: diff.RuleWirePropRemoved, subject: "response 200 application/json: property adoptions", class: diff.Warning,
		goRule: diff.RuleGoRemoved, goClass: diff.Breaking,
	},
	{
		name:    "x-resilience idempotency flipped",
		old:     "      description: Every call is applied; it is sent once and never retried.\n",
		new:     "      description: Every call is applied; it is sent once and never retried.\n      x-resilience: {idempotent: true}\n",
		section: "resilience", rule: diff.RuleRiskRetryUnsafe, subject: "idempotency", class: diff.Risk,
	},
	{
		name: "a timeout lowered under p99",
		old:  "      operationId: deletePet\n", new: "      operationId: deletePet\n      x-resilience: {timeout: 20ms}\n",
		section: "resilience", rule: diff.RuleRiskTimeoutBelowP99, subject: "total timeout", class: diff.Risk,
	},
	{
		name: "an operation added",
		old:  "components:\n", new: "  /toys:\n    get:\n      operationId: listToys\n      responses:\n        \"204\": {description: none}\ncomponents:\n",
		section: "wire", rule: diff.RuleWireOpAdded, class: diff.Compatible,
		goRule: diff.RuleGoAdded, goClass: diff.Compatible,
	},
}

// petstoreVersions writes the pet store spec (with an optional limit
// parameter on listPets, which the first edit makes required) as
// old.yaml, the same with the five edits as new.yaml, and the policy
// file, into a new folder.
func petstoreVersions(t *testing.T) string {
	t.Helper()
	spec, err := os.ReadFile("../../examples/petstore/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	policy, err := os.ReadFile("../../examples/petstore/policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(spec), "      operationId: listPets\n", "      operationId: listPets\n      parameters:\n        - {name: limit, in: query, schema: {type: integer}}\n", 1)
	new := old
	for _, e := range petstoreEdits {
		if !strings.Contains(new, e.old) {
			t.Fatalf("%s: the pet store spec no longer has %q", e.name, e.old)
		}
		new = strings.Replace(new, e.old, e.new, 1)
	}
	return writeFiles(t, map[string]string{"old.yaml": old, "new.yaml": new, "policy.yaml": string(policy)})
}

// TestDiffPetstore: each of five edits of the pet store spec is reported
// in its section with its class, in the JSON form, and the exit status
// follows -fail-on.
func TestDiffPetstore(t *testing.T) {
	dir := petstoreVersions(t)
	args := func(extra ...string) []string {
		return append(append([]string{"diff", "-policy", filepath.Join(dir, "policy.yaml")}, extra...), filepath.Join(dir, "old.yaml"), filepath.Join(dir, "new.yaml"))
	}
	var stdout, stderr bytes.Buffer
	if status := run(args("-format", "json"), nil, &stdout, &stderr); status != 1 {
		t.Fatalf("status %d, want 1 (breaking changes and risks); standard error:\n%s", status, stderr.String())
	}
	var rep struct {
		Schema  string
		Summary struct{ Semver string }
		Changes []diff.Change
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Schema != diff.SchemaVersion || rep.Summary.Semver != "major" {
		t.Errorf("schema %q, semver %q", rep.Schema, rep.Summary.Semver)
	}
	find := func(section, rule string, class diff.Class, subject string) bool {
		for _, c := range rep.Changes {
			if string(c.Section) == section && c.Rule == rule && c.Class == class && strings.Contains(c.Subject, subject) {
				return true
			}
		}
		return false
	}
	for _, e := range petstoreEdits {
		if !find(e.section, e.rule, e.class, e.subject) {
			t.Errorf("%s: no %s change %s (%s) at %q", e.name, e.section, e.rule, e.class, e.subject)
		}
		if e.goRule != "" && !find("goapi", e.goRule, e.goClass, "") {
			t.Errorf("%s: no Go API change %s (%s)", e.name, e.goRule, e.goClass)
		}
	}
	for _, c := range rep.Changes {
		if strings.HasPrefix(c.Operation, "GET /pets/{id}") && c.Section == diff.SectionResilience {
			t.Errorf("an operation no edit touched has a resilience change: %+v", c)
		}
	}

	for _, tc := range []struct {
		failOn string
		want   int
	}{{"none", 0}, {"breaking", 1}, {"risk", 1}} {
		stdout.Reset()
		if status := run(args("-fail-on", tc.failOn), nil, &stdout, &stderr); status != tc.want {
			t.Errorf("-fail-on %s: status %d, want %d", tc.failOn, status, tc.want)
		}
	}
	// Markdown: a summary line, then the three sections, collapsible.
	stdout.Reset()
	run(args("-format", "markdown", "-fail-on", "none"), nil, &stdout, &stderr)
	md := stdout.String()
	if !strings.HasPrefix(md, "**Spec change**") || strings.Count(md, "<details") != 3 || !strings.Contains(md, "<details open><summary>Resilience") {
		t.Errorf("markdown:\n%s", md)
	}

	// The same spec twice: nothing, status 0.
	stdout.Reset()
	old := filepath.Join(dir, "old.yaml")
	if status := run([]string{"diff", "-policy", filepath.Join(dir, "policy.yaml"), old, old}, nil, &stdout, &stderr); status != 0 || !strings.Contains(stdout.String(), ": no change\n") {
		t.Errorf("identical specs: status %d:\n%s", status, stdout.String())
	}
}

// TestDiffBadInput: unusable input exits 2 with a located message.
func TestDiffBadInput(t *testing.T) {
	dir := writeFiles(t, map[string]string{"ok.yaml": largeSpec(2), "bad.yaml": "openapi: 3.0.3\ninfo: [\n"})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", filepath.Join(dir, "ok.yaml"), filepath.Join(dir, "bad.yaml")}, "bad.yaml:3:1: E-YAML"},
		{[]string{"diff", filepath.Join(dir, "ok.yaml"), filepath.Join(dir, "none.yaml")}, "E-READ"},
		{[]string{"diff", filepath.Join(dir, "ok.yaml")}, "want OLD and NEW"},
		{[]string{"diff", "-format", "yaml", filepath.Join(dir, "ok.yaml"), filepath.Join(dir, "ok.yaml")}, "-format"},
		{[]string{"diff", "-fail-on", "all", filepath.Join(dir, "ok.yaml"), filepath.Join(dir, "ok.yaml")}, "-fail-on"},
		{[]string{"diff", "git:HEAD", filepath.Join(dir, "ok.yaml")}, "want git:REV:PATH"},
	} {
		var stdout, stderr bytes.Buffer
		if status := run(tc.args, nil, &stdout, &stderr); status != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: status %d (want 2), standard error lacks %q:\n%s", tc.args, status, tc.want, stderr.String())
		}
	}
}

// TestDiffGit: git:REV:PATH reads the spec, and the policy file, as
// they are at REV.
func TestDiffGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := petstoreVersions(t)
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	// The spec as committed is the old version; the work tree has the new.
	if err := os.MkdirAll(filepath.Join(dir, "api"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "old.yaml"), filepath.Join(dir, "api", "openapi.yaml")); err != nil {
		t.Fatal(err)
	}
	gitRun("init", "-q")
	gitRun("add", ".")
	gitRun("commit", "-q", "-m", "old")
	if err := os.Rename(filepath.Join(dir, "new.yaml"), filepath.Join(dir, "api", "openapi.yaml")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	status := run([]string{"diff", "-policy", "policy.yaml", "git:HEAD:api/openapi.yaml", "api/openapi.yaml"}, nil, &stdout, &stderr)
	if status != 1 || !strings.Contains(stdout.String(), "git:HEAD:api/openapi.yaml → api/openapi.yaml") || !strings.Contains(stdout.String(), diff.RuleRiskRetryUnsafe) {
		t.Errorf("status %d:\n%s\n%s", status, stdout.String(), stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if status := run([]string{"diff", "git:no-such-rev:api/openapi.yaml", "api/openapi.yaml"}, nil, &stdout, &stderr); status != 2 || !strings.Contains(stderr.String(), "git:no-such-rev:api/openapi.yaml") {
		t.Errorf("unknown revision: status %d:\n%s", status, stderr.String())
	}
}

// TestSpecChangeRoundTrip walks docs/spec-changes.md: a
// client generated from the pet store spec is fresh; the spec is bumped
// (the five edits) and -check finds the client stale; generating again
// makes it fresh; diff of the two versions fails on what the edits broke.
func TestSpecChangeRoundTrip(t *testing.T) {
	dir := petstoreVersions(t)
	spec, policy := filepath.Join(dir, "openapi.yaml"), filepath.Join(dir, "policy.yaml")
	old, _ := os.ReadFile(filepath.Join(dir, "old.yaml"))
	new, _ := os.ReadFile(filepath.Join(dir, "new.yaml"))
	out := filepath.Join(dir, "client", "client.gen.go")
	generate := func(check bool) (int, string) {
		t.Helper()
		args := []string{"generate", "-package", "pets", "-o", out, "-policy", policy, "-review", filepath.Join(dir, "client", "REVIEW.md")}
		if check {
			args = append(args, "-check")
		}
		var stdout, stderr bytes.Buffer
		status := run(append(args, spec), nil, &stdout, &stderr)
		return status, stdout.String() + stderr.String()
	}
	os.WriteFile(spec, old, 0o644)
	if status, msg := generate(false); status != 0 {
		t.Fatalf("generate: %d\n%s", status, msg)
	}
	if status, msg := generate(true); status != 0 {
		t.Fatalf("fresh client: -check %d\n%s", status, msg)
	}
	// Bump the spec; the timeout edit is refused by generate, so the
	// round trip takes the four others and keeps deletePet's timeout out.
	bumped := strings.Replace(string(new), "      x-resilience: {timeout: 20ms}\n", "", 1)
	os.WriteFile(spec, []byte(bumped), 0o644)
	if status, msg := generate(true); status != 1 || !strings.Contains(msg, "+func (c *Client) ListToys(") {
		t.Errorf("bumped spec: -check %d, want 1 with the new method in the diff:\n%.2000s", status, msg)
	}
	if status, msg := generate(false); status != 0 {
		t.Fatalf("regenerate: %d\n%s", status, msg)
	}
	if status, msg := generate(true); status != 0 {
		t.Errorf("regenerated client: -check %d\n%s", status, msg)
	}
	os.WriteFile(filepath.Join(dir, "bumped.yaml"), []byte(bumped), 0o644)
	var stdout, stderr bytes.Buffer
	if status := run([]string{"diff", "-policy", policy, filepath.Join(dir, "old.yaml"), filepath.Join(dir, "bumped.yaml")}, nil, &stdout, &stderr); status != 1 || !strings.Contains(stdout.String(), diff.RuleRiskRetryUnsafe) {
		t.Errorf("diff: status %d:\n%s%s", status, stdout.String(), stderr.String())
	}
}
