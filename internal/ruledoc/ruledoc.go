// Package ruledoc checks, for the commands' tests, that a command's
// documentation lists every rule of the catalogue (diag.Rules) that the
// command reports, each with the catalogue's own doc line, and nothing
// else.
//
// A command's doc.go holds, after a "# Rules" heading, one preformatted
// line per rule:
//
//	//	E-READ                 a file that cannot be read: ...
package ruledoc

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// Check reads the Go file docFile and returns what is wrong with its
// "# Rules" section for the command tool: a rule of tool missing, listed
// twice, or with another doc line than the catalogue's, and a rule
// listed that tool does not report. It returns an error when the file
// cannot be read or has no such section.
func Check(docFile string, tool diag.Tools) ([]string, error) {
	data, err := os.ReadFile(docFile)
	if err != nil {
		return nil, err
	}
	_, section, ok := strings.Cut(string(data), "\n// # Rules\n")
	if !ok {
		return nil, fmt.Errorf("%s has no \"# Rules\" section", docFile)
	}
	if end := strings.Index(section, "\n// # "); end >= 0 {
		section = section[:end]
	}
	// One rule line of the section.
	line := regexp.MustCompile(`^//\t([EW]-[A-Z0-9-]+) +(.+)$`)
	listed := map[string]string{}
	var problems []string
	for _, l := range strings.Split(section, "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if _, dup := listed[m[1]]; dup {
			problems = append(problems, m[1]+" is listed twice")
		}
		listed[m[1]] = m[2]
	}
	for _, r := range diag.Rules() {
		doc, ok := listed[string(r.Rule)]
		delete(listed, string(r.Rule))
		switch {
		case r.Tools&tool == 0 && ok:
			problems = append(problems, string(r.Rule)+" is listed, but the command does not report it")
		case r.Tools&tool == 0:
		case !ok:
			problems = append(problems, fmt.Sprintf("%s is missing; add the line\n//\t%s  %s", r.Rule, r.Rule, r.Doc))
		case doc != r.Doc:
			problems = append(problems, fmt.Sprintf("%s reads %q, the catalogue %q", r.Rule, doc, r.Doc))
		}
	}
	for id := range listed {
		problems = append(problems, id+" is listed but is not in the catalogue")
	}
	return problems, nil
}

// Test fails t with every problem [Check] finds in docFile for tool.
func Test(t testing.TB, docFile string, tool diag.Tools) {
	t.Helper()
	problems, err := Check(docFile, tool)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s, # Rules: %s", docFile, p)
	}
}
