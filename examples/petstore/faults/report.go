package faults

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

// Report gathers the rows of a run of the suite with their verdicts.
type Report struct {
	// Rows are the runs, in the order Run made them.
	Rows []*Row
	// Suite are the fault suite's criteria of every row ([Check]).
	Suite []RowVerdict
	// Acceptance are the demo's acceptance lines ([Acceptance]).
	Acceptance []RowVerdict
	// Deadline is the reference deadline of the run: the longest
	// operation timeout, every call's deadline but in spent-deadline.
	Deadline time.Duration
	// Reviews are the resilience reviews of the resilient clients'
	// policies, by transport.
	Reviews map[Transport]string
}

// NewReport judges rows by the suite's criteria and the acceptance lines.
func NewReport(rows []*Row) *Report {
	rep := &Report{Rows: rows, Reviews: map[Transport]string{}}
	for _, row := range rows {
		rep.Deadline = max(rep.Deadline, row.Deadline)
		rep.Reviews[row.Transport] = row.Policy.Review
		for _, v := range Check(row) {
			rep.Suite = append(rep.Suite, RowVerdict{row.Scenario, row.Transport, v})
		}
	}
	rep.Acceptance = Acceptance(rows)
	return rep
}

// Failed returns the verdicts of vs that failed.
func Failed(vs []RowVerdict) []RowVerdict {
	var f []RowVerdict
	for _, v := range vs {
		if !v.Pass {
			f = append(f, v)
		}
	}
	return f
}

// arms returns the results of row's three arms, nil where one is missing.
func arms(row *Row) (n, r, c *Result) { return row.Arms[Naive], row.Arms[Resilient], row.Arms[Common] }

// Word returns the summary's verdict on row, resilient against the other
// arms: "worse" when it answered fewer calls (beyond Slack) or sent more
// requests per call than max(naive, 1.1); "better" when it answered more;
// "faster" when it answered as many with a p99 at least a fifth lower;
// "slower" when its p99 is a quarter above both others' (and above 10 ms);
// "same" otherwise; "failed" when an arm did not run. The others are
// naive and common, and tuned when it ran.
func Word(row *Row) string {
	n, r, c := arms(row)
	if n == nil || r == nil || c == nil || r.Calls == 0 || n.Calls == 0 || c.Calls == 0 {
		return "failed"
	}
	best := math.Max(n.Share(n.Answered()), c.Share(c.Answered()))
	if t := row.Arms[Tuned]; t != nil && t.Calls > 0 {
		best = math.Max(best, t.Share(t.Answered()))
	}
	rs := r.Share(r.Answered())
	switch {
	case rs < best-Slack || r.PerCall() > math.Max(n.PerCall(), 1.1):
		return "worse"
	case rs > best+Slack:
		return "better"
	case float64(r.P99) <= 0.8*float64(min(n.P99, c.P99)):
		return "faster"
	case float64(r.P99) > 1.25*float64(max(n.P99, c.P99)) && r.P99 > 10*time.Millisecond:
		return "slower"
	}
	return "same"
}

// summaryFormat is one line of the terminal summary: 94 columns.
const summaryFormat = "%-14s %-4s  %7s %7s %7s %7s   %5s %5s %5s %5s   %s\n"

// WriteSummary writes the terminal summary, under 100 columns: one line per
// scenario and transport with each arm's fresh (ok) and answered (ok +
// degraded) shares as "ok/answered" and its requests per call, and a
// verdict word (see [Word]); then the acceptance tally. The p99s are in
// the report.
func (rep *Report) WriteSummary(w io.Writer) {
	fmt.Fprintf(w, "Pet store under faults: every call with a %s deadline; arms naive, resilient, common, tuned.\n", ms(rep.Deadline))
	fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("%21s%s   %s", "", center("ok/answered %", 31), center("requests/call", 23)), " "))
	fmt.Fprintf(w, summaryFormat, "scenario", "", "naive", "res.", "common", "tuned", "naive", "res.", "common", "tuned", "verdict")
	for _, row := range rep.Rows {
		cell := func(a Arm, f func(*Result) string) string {
			if x := row.Arms[a]; x != nil && x.Calls > 0 {
				return f(x)
			}
			return "–"
		}
		answered := func(x *Result) string {
			return fmt.Sprintf("%.0f/%.0f", 100*x.Share(x.OK), 100*x.Share(x.Answered()))
		}
		perCall := func(x *Result) string { return fmt.Sprintf("%.2f", x.PerCall()) }
		fmt.Fprintf(w, summaryFormat, row.Scenario.Name, transportID(row.Transport),
			cell(Naive, answered), cell(Resilient, answered), cell(Common, answered), cell(Tuned, answered),
			cell(Naive, perCall), cell(Resilient, perCall), cell(Common, perCall), cell(Tuned, perCall), Word(row))
	}
	fmt.Fprintf(w, "Acceptance: %d of %d met; fault-suite criteria: %d of %d met.\n",
		len(rep.Acceptance)-len(Failed(rep.Acceptance)), len(rep.Acceptance), len(rep.Suite)-len(Failed(rep.Suite)), len(rep.Suite))
	for _, v := range Failed(rep.Acceptance) {
		fmt.Fprintln(w, clip(fmt.Sprintf("  not met: %s %s: %s (%s)", v.Scenario.Name, transportID(v.Transport), v.Criterion, v.Detail), 99))
	}
}

// center centres s in a field of n columns.
func center(s string, n int) string {
	pad := n - utf8.RuneCountInString(s)
	if pad <= 0 {
		return s
	}
	return strings.Repeat(" ", pad/2) + s + strings.Repeat(" ", pad-pad/2)
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// transportID is the transport as the results file writes it.
func transportID(t Transport) string { return strings.ToLower(string(t)) }

// ResultsFile is the machine-readable results of a run (-json).
type ResultsFile struct {
	// DeadlineMs is the reference deadline: a failure in under a tenth of
	// it is a fast one.
	DeadlineMs float64 `json:"deadlineMs"`
	// Results has one entry per scenario and transport.
	Results []ResultsRow `json:"results"`
}

// ResultsRow is one scenario over one transport.
type ResultsRow struct {
	Scenario  string     `json:"scenario"`
	Transport string     `json:"transport"`
	Arms      ResultArms `json:"arms"`
	// Timeline is what each arm's calls got per 100 ms of the phase, by
	// their planned start.
	Timeline []TimelineBucket `json:"timeline"`
	// RecoveryMs is, where the fault ends within the phase, each arm's
	// time from the fault's end to the first bucket whose ok share is back
	// to 90 % of the arm's warm-up ok share; -1 when none is.
	RecoveryMs map[string]float64 `json:"recoveryMs,omitempty"`
}

// ResultArms holds the figures of the four arms; an arm that did not
// run has zero figures.
type ResultArms struct {
	Naive     ArmFigures `json:"naive"`
	Resilient ArmFigures `json:"resilient"`
	Common    ArmFigures `json:"common"`
	Tuned     ArmFigures `json:"tuned"`
}

// ArmFigures are one arm's figures; OK + Degraded + FailedFast +
// FailedSlow = Calls.
type ArmFigures struct {
	Calls            int     `json:"calls"`
	OK               int     `json:"ok"`
	Degraded         int     `json:"degraded"`
	FailedFast       int     `json:"failedFast"`
	FailedSlow       int     `json:"failedSlow"`
	P50Ms            float64 `json:"p50Ms"`
	P99Ms            float64 `json:"p99Ms"`
	RequestsPerCall  float64 `json:"requestsPerCall"`
	DuplicateEffects int64   `json:"duplicateEffects"`
}

// Results returns the run's results file.
func (rep *Report) Results() ResultsFile {
	f := ResultsFile{DeadlineMs: msFloat(rep.Deadline), Results: []ResultsRow{}}
	for _, row := range rep.Rows {
		n, r, c := arms(row)
		f.Results = append(f.Results, ResultsRow{Scenario: row.Scenario.Name, Transport: transportID(row.Transport),
			Arms:     ResultArms{Naive: figures(n), Resilient: figures(r), Common: figures(c), Tuned: figures(row.Arms[Tuned])},
			Timeline: timeline(row), RecoveryMs: recoveries(row)})
	}
	return f
}

func figures(r *Result) ArmFigures {
	if r == nil {
		return ArmFigures{}
	}
	return ArmFigures{Calls: r.Calls, OK: r.OK, Degraded: r.Degraded, FailedFast: r.FailedFast, FailedSlow: r.FailedSlow,
		P50Ms: msFloat(r.P50), P99Ms: msFloat(r.P99), RequestsPerCall: round3(r.PerCall()), DuplicateEffects: r.Duplicates}
}

func msFloat(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// WriteJSON writes the results file, indented.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep.Results())
}
