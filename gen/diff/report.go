package diff

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html"
	"slices"
	"strings"
)

// Section is one of the three parts of a report.
type Section string

// Sections, in the order a report prints them.
const (
	// SectionResilience holds per-operation policy changes and risks.
	SectionResilience Section = "resilience"
	// SectionGoAPI holds changes of the generated client's exported
	// declarations.
	SectionGoAPI Section = "goapi"
	// SectionWire holds changes of what goes over the wire.
	SectionWire Section = "wire"
)

// Title returns the section's heading.
func (s Section) Title() string {
	switch s {
	case SectionResilience:
		return "Resilience"
	case SectionGoAPI:
		return "Go API"
	}
	return "Wire"
}

// Class says what a change means for the code that calls the client.
type Class string

// Classes.
const (
	// Breaking: a caller's code stops compiling, or a request the old
	// client sends, or an answer it expects, is no longer valid.
	Breaking Class = "breaking"
	// Warning: may break some callers (an optional response property
	// gone, a new value of a response enum).
	Warning Class = "warning"
	// Compatible: nothing a caller relies on changes.
	Compatible Class = "compatible"
	// Risk: a resilience change that can hurt the dependency or the
	// caller (a retried write, a timeout under the tail latency).
	Risk Class = "risk"
	// Changed: a resilience change a reviewer should see, with no known
	// risk.
	Changed Class = "changed"
)

// Change is one reported difference.
type Change struct {
	// Section is the part of the report the change belongs to.
	Section Section `json:"section"`
	// Rule is the rule id (see the package documentation).
	Rule string `json:"rule"`
	// Class is what the change means.
	Class Class `json:"class"`
	// Operation names the operation ("GET /pets/{id}" or a gRPC method's
	// full name) or, in the Go API section, the declaration; empty for
	// what belongs to the whole API (servers, the dependency's policy).
	Operation string `json:"operation,omitempty"`
	// Subject is what changed within it ("query parameter limit",
	// "response 200 body: property name", "attempts").
	Subject string `json:"subject,omitempty"`
	// Old and New are the values before and after, empty for what did
	// not exist.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// OldOrigin and NewOrigin say where a resilience value came from
	// ("operation at openapi.yaml:40:7", "default: from the method").
	OldOrigin string `json:"oldOrigin,omitempty"`
	NewOrigin string `json:"newOrigin,omitempty"`
	// Message is one sentence saying what the change means.
	Message string `json:"message"`
}

// Report is the outcome of a comparison.
type Report struct {
	// Old and New name the two versions as given.
	Old, New string
	// Changes are sorted by section, operation, subject and rule.
	Changes []Change
}

// Count returns how many changes of the class the report holds.
func (r *Report) Count(c Class) int {
	n := 0
	for _, ch := range r.Changes {
		if ch.Class == c {
			n++
		}
	}
	return n
}

// Semver returns the version bump the Go API changes imply for the
// generated client's package: "major" for a breaking one, "minor" for
// additions, "patch" for any other change, "none" when nothing changed.
func (r *Report) Semver() string {
	bump := "none"
	for _, c := range r.Changes {
		switch {
		case c.Section == SectionGoAPI && c.Class == Breaking:
			return "major"
		case c.Section == SectionGoAPI:
			bump = "minor"
		case bump == "none":
			bump = "patch"
		}
	}
	return bump
}

// FailOn selects which changes make [Report.Fails] true.
type FailOn string

// FailOn values.
const (
	// FailOnRisk fails on a breaking change or a flagged risk.
	FailOnRisk FailOn = "risk"
	// FailOnBreaking fails on a breaking change only.
	FailOnBreaking FailOn = "breaking"
	// FailOnNone never fails.
	FailOnNone FailOn = "none"
)

// Fails reports whether the report holds a change that f fails on. The
// zero FailOn is FailOnRisk.
func (r *Report) Fails(f FailOn) bool {
	switch f {
	case FailOnNone:
		return false
	case FailOnBreaking:
		return r.Count(Breaking) > 0
	}
	return r.Count(Breaking) > 0 || r.Count(Risk) > 0
}

// sort orders the changes as the report prints them.
func (r *Report) sort() {
	order := map[Section]int{SectionResilience: 0, SectionGoAPI: 1, SectionWire: 2}
	slices.SortStableFunc(r.Changes, func(a, b Change) int {
		return cmp.Or(cmp.Compare(order[a.Section], order[b.Section]), cmp.Compare(a.Operation, b.Operation),
			cmp.Compare(a.Subject, b.Subject), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.New, b.New), cmp.Compare(a.Old, b.Old))
	})
}

// sections returns the changes of each section, in print order.
func (r *Report) sections() [3][]Change {
	var out [3][]Change
	for _, c := range r.Changes {
		switch c.Section {
		case SectionResilience:
			out[0] = append(out[0], c)
		case SectionGoAPI:
			out[1] = append(out[1], c)
		default:
			out[2] = append(out[2], c)
		}
	}
	return out
}

var sectionOrder = [3]Section{SectionResilience, SectionGoAPI, SectionWire}

// Summary returns the report's first line: "3 breaking, 1 risk, 2
// warnings, 5 compatible, 4 changed; Go API semver: major".
func (r *Report) Summary() string {
	if len(r.Changes) == 0 {
		return "no change"
	}
	var parts []string
	for _, c := range []Class{Breaking, Risk, Warning, Compatible, Changed} {
		if n := r.Count(c); n > 0 {
			name := string(c)
			if c == Risk && n > 1 {
				name = "risks"
			} else if c == Warning && n > 1 {
				name = "warnings"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
		}
	}
	return strings.Join(parts, ", ") + "; Go API semver: " + r.Semver()
}

// describe returns the change as one line of text.
func (c Change) describe() string {
	var b strings.Builder
	if c.Operation != "" {
		b.WriteString(c.Operation)
	}
	if c.Subject != "" {
		if b.Len() > 0 {
			b.WriteString(": ")
		}
		b.WriteString(c.Subject)
	}
	if c.Old != "" || c.New != "" {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString(orNone(c.Old) + " → " + orNone(c.New))
	}
	if c.OldOrigin != "" || c.NewOrigin != "" {
		fmt.Fprintf(&b, " (%s → %s)", orNone(c.OldOrigin), orNone(c.NewOrigin))
	}
	if c.Message != "" {
		b.WriteString(": " + c.Message)
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Text renders the report for a terminal.
func (r *Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s → %s: %s\n", r.Old, r.New, r.Summary())
	for i, changes := range r.sections() {
		s := sectionOrder[i]
		fmt.Fprintf(&b, "\n%s (%d)\n", s.Title(), len(changes))
		if s == SectionGoAPI {
			fmt.Fprintf(&b, "  semver: %s\n", r.Semver())
		}
		for _, c := range changes {
			fmt.Fprintf(&b, "  %-10s %-30s %s\n", c.Class, c.Rule, c.describe())
		}
	}
	return b.String()
}

// Markdown renders the report as a pull-request comment: a summary line,
// then one collapsible section per part, open when it holds a breaking
// change or a risk.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Spec change** `%s` → `%s`: %s\n", mdCode(r.Old), mdCode(r.New), r.Summary())
	for i, changes := range r.sections() {
		s := sectionOrder[i]
		open := ""
		for _, c := range changes {
			if c.Class == Breaking || c.Class == Risk {
				open = " open"
			}
		}
		title := fmt.Sprintf("%s: %d", s.Title(), len(changes))
		if s == SectionGoAPI {
			title += ", semver " + r.Semver()
		}
		fmt.Fprintf(&b, "\n<details%s><summary>%s</summary>\n\n", open, html.EscapeString(title))
		if len(changes) == 0 {
			b.WriteString("No change.\n")
		} else {
			b.WriteString("| class | rule | where | old → new | what it means |\n|---|---|---|---|---|\n")
			for _, c := range changes {
				where := c.Operation
				if c.Subject != "" {
					where = strings.TrimPrefix(where+": "+c.Subject, ": ")
				}
				values := ""
				if c.Old != "" || c.New != "" {
					values = orNone(c.Old) + " → " + orNone(c.New)
				}
				if c.OldOrigin != "" || c.NewOrigin != "" {
					values += " (" + orNone(c.OldOrigin) + " → " + orNone(c.NewOrigin) + ")"
				}
				fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", c.Class, c.Rule, mdCell(where), mdCell(values), mdCell(c.Message))
			}
		}
		b.WriteString("\n</details>\n")
	}
	return b.String()
}

func mdCode(s string) string { return strings.ReplaceAll(s, "`", "'") }

// mdEscape escapes what Markdown would read as emphasis, code, links or
// table cells in text, and HTML.
var mdEscape = strings.NewReplacer("*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "|", `\|`, "\n", " ")

func mdCell(s string) string { return mdEscape.Replace(html.EscapeString(s)) }

// jsonReport is the JSON form; see the package documentation.
type jsonReport struct {
	Schema  string      `json:"schema"`
	Old     string      `json:"old"`
	New     string      `json:"new"`
	Summary jsonSummary `json:"summary"`
	Changes []Change    `json:"changes"`
}

type jsonSummary struct {
	Breaking   int    `json:"breaking"`
	Risk       int    `json:"risk"`
	Warning    int    `json:"warning"`
	Compatible int    `json:"compatible"`
	Changed    int    `json:"changed"`
	Semver     string `json:"semver"`
}

// SchemaVersion names the JSON form's schema; it changes only when a
// field changes meaning or goes away.
const SchemaVersion = "resilient.diff/v1"

// JSON renders the report in the stable JSON form documented in the
// package documentation, indented, with a final newline.
func (r *Report) JSON() ([]byte, error) {
	j := jsonReport{Schema: SchemaVersion, Old: r.Old, New: r.New, Changes: r.Changes,
		Summary: jsonSummary{Breaking: r.Count(Breaking), Risk: r.Count(Risk), Warning: r.Count(Warning),
			Compatible: r.Count(Compatible), Changed: r.Count(Changed), Semver: r.Semver()}}
	if j.Changes == nil {
		j.Changes = []Change{}
	}
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}
