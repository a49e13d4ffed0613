package faults

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"
)

// Report gathers the results of a run of the suite with their verdicts.
type Report struct {
	// Results are the runs, in the order Run made them.
	Results []*Result
	// Verdicts are the pass criteria of every resilient run, then the
	// hedging comparisons.
	Verdicts []RunVerdict
	// Reviews are the resilience reviews of the clients' policies, by
	// transport.
	Reviews map[Transport]string
}

// RunVerdict is a Verdict for one scenario and transport.
type RunVerdict struct {
	Scenario  Scenario
	Transport Transport
	Verdict
}

// NewReport judges results: every criterion on each Resilient run, and the
// hedging comparison where the scenario asks for it. Naive runs are only
// shown.
func NewReport(results []*Result) *Report {
	rep := &Report{Results: results, Reviews: map[Transport]string{}}
	for _, r := range results {
		rep.Reviews[r.Transport] = r.Policy.Review
		if r.Kind != Resilient {
			continue
		}
		for _, v := range Check(r) {
			rep.Verdicts = append(rep.Verdicts, RunVerdict{r.Scenario, r.Transport, v})
		}
		if r.Scenario.CompareHedging {
			if off := rep.find(r.Scenario.ID, r.Transport, ResilientNoHedge); off != nil {
				rep.Verdicts = append(rep.Verdicts, RunVerdict{r.Scenario, r.Transport, CheckHedging(r, off)})
			}
		}
	}
	return rep
}

// Failed returns the verdicts that failed.
func (rep *Report) Failed() []RunVerdict {
	var f []RunVerdict
	for _, v := range rep.Verdicts {
		if !v.Pass {
			f = append(f, v)
		}
	}
	return f
}

func (rep *Report) find(id int, t Transport, k Kind) *Result {
	for _, r := range rep.Results {
		if r.Scenario.ID == id && r.Transport == t && r.Kind == k {
			return r
		}
	}
	return nil
}

// row is one line of the fault table: a scenario and transport, the naive
// and resilient runs side by side.
type row struct {
	sc      Scenario
	t       Transport
	n, r, h *Result // naive, resilient, resilient without hedging
}

func (rep *Report) rows() []row {
	var rows []row
	seen := map[string]bool{}
	for _, x := range rep.Results {
		key := fmt.Sprint(x.Scenario.ID, x.Transport)
		if seen[key] {
			continue
		}
		seen[key] = true
		rows = append(rows, row{
			sc: x.Scenario, t: x.Transport,
			n: rep.find(x.Scenario.ID, x.Transport, Naive),
			r: rep.find(x.Scenario.ID, x.Transport, Resilient),
			h: rep.find(x.Scenario.ID, x.Transport, ResilientNoHedge),
		})
	}
	return rows
}

var faultHeader = []string{"#", "Scenario", "Transport", "Calls (naive / resilient)", "p50", "p99", "Errors", "Degraded", "Fast-fail", "Requests/call", "Max in flight", "Breaker at end"}

func (w row) cells() []string {
	pair := func(f func(*Result) string) string {
		a, b := "—", "—"
		if w.n != nil {
			a = f(w.n)
		}
		if w.r != nil {
			b = f(w.r)
		}
		return a + " / " + b
	}
	pct := func(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }
	p99 := pair(func(r *Result) string { return ms(r.P99) })
	if w.h != nil {
		p99 += " (no hedging " + ms(w.h.P99) + ")"
	}
	return []string{
		fmt.Sprint(w.sc.ID), w.sc.Title, string(w.t),
		pair(func(r *Result) string { return fmt.Sprint(r.Calls) }),
		pair(func(r *Result) string { return ms(r.P50) }),
		p99,
		pair(func(r *Result) string { return pct(r.ErrorRate()) }),
		pair(func(r *Result) string { return pct(r.Share(r.Degraded)) }),
		pair(func(r *Result) string { return pct(r.Share(r.FastFail)) }),
		pair(func(r *Result) string { return fmt.Sprintf("%.2f", r.PerCall()) }),
		pair(func(r *Result) string { return fmt.Sprint(r.MaxInFlight) }),
		pair(func(r *Result) string { return r.Breaker }),
	}
}

// WriteText writes the report for a terminal: the reviews, the fault table
// and the verdicts.
func (rep *Report) WriteText(w io.Writer) {
	for _, t := range []Transport{HTTP, GRPC} {
		if s := rep.Reviews[t]; s != "" {
			fmt.Fprintln(w, strings.TrimSpace(s))
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w, "## Fault tests run (naive / resilient)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(faultHeader, "\t"))
	for _, r := range rep.rows() {
		fmt.Fprintln(tw, strings.Join(r.cells(), "\t"))
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "## Pass criteria (resilient clients)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, v := range rep.Verdicts {
		fmt.Fprintf(tw, "%d %s\t%s\t%s\t%s\t%s\n", v.Scenario.ID, v.Scenario.Name, v.Transport, v.Criterion, passFail(v.Pass), v.Detail)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d of %d criteria passed.\n", len(rep.Verdicts)-len(rep.Failed()), len(rep.Verdicts))
}

// Markdown returns the report as Markdown, in the shape of the
// resilience-patterns output template.
func (rep *Report) Markdown(chart string) string {
	var b strings.Builder
	b.WriteString("# Pet store fault tests\n\n")
	for _, t := range []Transport{HTTP, GRPC} {
		if s := rep.Reviews[t]; s != "" {
			b.WriteString(strings.TrimSpace(s) + "\n\n")
		}
	}
	b.WriteString("**Fault tests run:** each scenario against the naive and the resilient client; cells read naive / resilient.\n\n")
	b.WriteString("| " + strings.Join(faultHeader, " | ") + " |\n")
	b.WriteString(strings.Repeat("|---", len(faultHeader)) + "|\n")
	for _, r := range rep.rows() {
		b.WriteString("| " + strings.Join(r.cells(), " | ") + " |\n")
	}
	b.WriteString("\nFaults injected:\n\n")
	for _, r := range rep.rows() {
		if r.r != nil {
			fmt.Fprintf(&b, "- %d %s (%s): %s; %d callers, deadline %s.\n", r.sc.ID, r.sc.Name, r.t, r.r.Plan.Fault, r.r.Plan.Callers, ms(r.r.Plan.Deadline))
		}
	}
	if chart != "" {
		fmt.Fprintf(&b, "\n![caller latency, naive and resilient](%s)\n", chart)
	}
	b.WriteString("\n## Pass criteria (resilient clients)\n\n| Scenario | Transport | Criterion | Result | Measured |\n|---|---|---|---|---|\n")
	for _, v := range rep.Verdicts {
		fmt.Fprintf(&b, "| %d %s | %s | %s | %s | %s |\n", v.Scenario.ID, v.Scenario.Name, v.Transport, v.Criterion, passFail(v.Pass), strings.ReplaceAll(v.Detail, "|", "\\|"))
	}
	fmt.Fprintf(&b, "\n%d of %d criteria passed.\n", len(rep.Verdicts)-len(rep.Failed()), len(rep.Verdicts))
	return b.String()
}

func passFail(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

// SVG returns a chart of the callers' p50 and p99 latency per scenario and
// transport, naive beside resilient, on a logarithmic axis.
func (rep *Report) SVG() string {
	rows := rep.rows()
	const (
		left, barH, gap, width = 300, 9, 8, 900
		lo, hi                 = 0.1, 1000.0 // ms
	)
	x := func(d time.Duration) float64 {
		v := math.Max(float64(d)/float64(time.Millisecond), lo)
		return left + (width-left-20)*math.Log10(v/lo)/math.Log10(hi/lo)
	}
	height := 60 + len(rows)*(3*barH+gap) + 30
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="10" y="18" font-size="14">Caller latency under faults: bar to p99, tick at p50 (log scale, ms)</text>`+"\n")
	fmt.Fprintf(&b, `<rect x="10" y="28" width="10" height="8" fill="#bbb"/><text x="24" y="36">naive</text><rect x="80" y="28" width="10" height="8" fill="#2b6cb0"/><text x="94" y="36">resilient</text><rect x="170" y="28" width="10" height="8" fill="#90cdf4"/><text x="184" y="36">resilient, no hedging</text>`+"\n")
	for _, t := range []float64{0.1, 1, 10, 100, 1000} {
		px := x(time.Duration(t * float64(time.Millisecond)))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="44" x2="%.1f" y2="%d" stroke="#eee"/><text x="%.1f" y="%d" text-anchor="middle">%g</text>`+"\n", px, px, height-24, px, height-10, t)
	}
	y := 50
	for _, r := range rows {
		label := fmt.Sprintf("%d %s (%s)", r.sc.ID, r.sc.Title, r.t)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", left-6, y+barH+4, html.EscapeString(label))
		for _, e := range []struct {
			res  *Result
			fill string
		}{{r.n, "#bbb"}, {r.r, "#2b6cb0"}, {r.h, "#90cdf4"}} {
			if e.res == nil {
				continue
			}
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: p50 %s, p99 %s</title></rect>`+"\n",
				left, y, x(e.res.P99)-left, barH-1, e.fill, html.EscapeString(e.res.Client), ms(e.res.P50), ms(e.res.P99))
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#000"/>`+"\n", x(e.res.P50), y, x(e.res.P50), y+barH-1)
			y += barH
		}
		y += gap
	}
	b.WriteString("</svg>\n")
	return b.String()
}
