package faults

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"
)

// Chart geometry, in pixels: a label column, then the plot; per row a
// bar for each arm and a gap.
const (
	chartWidth  = 900
	chartLeft   = 230
	chartRight  = 70
	chartTop    = 56
	chartBar    = 11
	chartGap    = 9
	chartBottom = 30
)

// armColour is the colour of each arm in the requests and latency charts.
var armColour = map[Arm]string{Naive: "#a0a0a0", Resilient: "#2b6cb0", Common: "#d69e2e", Tuned: "#805ad5"}

// outcome is one of what a user got, with its colour.
type outcome struct {
	name, colour string
	count        func(*Result) int
}

var outcomes = []outcome{
	{"ok", "#38a169", func(r *Result) int { return r.OK }},
	{"degraded", "#9ae6b4", func(r *Result) int { return r.Degraded }},
	{"failed fast", "#f6ad55", func(r *Result) int { return r.FailedFast }},
	{"failed slow", "#e53e3e", func(r *Result) int { return r.FailedSlow }},
}

// svgChart is a chart under construction: a title, a legend, and for each
// row of the report a label and one bar per arm drawn by bar.
type svgChart struct {
	b      strings.Builder
	height int
}

func newChart(rows int, title string, legend [][2]string) *svgChart {
	c := &svgChart{height: chartTop + rows*(len(Arms)*chartBar+chartGap) + chartBottom}
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", chartWidth, c.height)
	fmt.Fprintf(&c.b, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", chartWidth, c.height)
	fmt.Fprintf(&c.b, `<text x="10" y="18" font-size="14">%s</text>`+"\n", html.EscapeString(title))
	x := 10
	for _, l := range legend {
		fmt.Fprintf(&c.b, `<rect x="%d" y="28" width="10" height="10" fill="%s"/><text x="%d" y="37">%s</text>`+"\n", x, l[1], x+14, html.EscapeString(l[0]))
		x += 24 + 7*len([]rune(l[0]))
	}
	return c
}

// rows draws every row: its label, and each arm's bar with a short arm
// label beside the axis.
func (c *svgChart) rows(rows []*Row, bar func(y int, a Arm, r *Result)) {
	y := chartTop
	for i, row := range rows {
		if i%2 == 0 {
			fmt.Fprintf(&c.b, `<rect x="0" y="%d" width="%d" height="%d" fill="#f7f7f7"/>`+"\n", y-chartGap/2, chartWidth, len(Arms)*chartBar+chartGap)
		}
		fmt.Fprintf(&c.b, `<text x="%d" y="%d" text-anchor="end" font-weight="bold">%s</text>`+"\n",
			chartLeft-70, y+2*chartBar-1, html.EscapeString(row.Scenario.Name+" "+transportID(row.Transport)))
		for _, a := range Arms {
			fmt.Fprintf(&c.b, `<text x="%d" y="%d" text-anchor="end" font-size="9" fill="#555">%s</text>`+"\n", chartLeft-4, y+chartBar-2, a)
			if r := row.Arms[a]; r != nil && r.Calls > 0 {
				bar(y, a, r)
			}
			y += chartBar
		}
		y += chartGap
	}
}

func (c *svgChart) String() string { return c.b.String() + "</svg>\n" }

// OutcomesSVG charts what users got: for each scenario, transport and arm
// a bar of the calls' shares that were answered fresh, degraded, failed
// fast and failed slow, stacked to 100 %.
func (rep *Report) OutcomesSVG() string {
	var legend [][2]string
	for _, o := range outcomes {
		legend = append(legend, [2]string{o.name, o.colour})
	}
	c := newChart(len(rep.Rows), fmt.Sprintf("What users got: share of calls (failed fast: an error within %s)", ms(rep.Deadline/10)), legend)
	plot := float64(chartWidth - chartLeft - chartRight)
	c.rows(rep.Rows, func(y int, a Arm, r *Result) {
		x := float64(chartLeft)
		for _, o := range outcomes {
			share := r.Share(o.count(r))
			if share == 0 {
				continue
			}
			w := share * plot
			fmt.Fprintf(&c.b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %s %s</title></rect>`+"\n",
				x, y, w, chartBar-1, o.colour, html.EscapeString(r.Client), pct(share), o.name)
			if w >= 28 {
				fmt.Fprintf(&c.b, `<text x="%.1f" y="%d" font-size="9" text-anchor="middle">%s</text>`+"\n", x+w/2, y+chartBar-2, pct(share))
			}
			x += w
		}
		fmt.Fprintf(&c.b, `<text x="%d" y="%d" font-size="9">%d calls</text>`+"\n", chartWidth-chartRight+4, y+chartBar-2, r.Calls)
	})
	return c.String()
}

// RequestsSVG charts the requests that reached the store per call, for
// each scenario, transport and arm, on a linear axis.
func (rep *Report) RequestsSVG() string {
	top := 1.0
	for _, row := range rep.Rows {
		for _, r := range row.Arms {
			top = math.Max(top, r.PerCall())
		}
	}
	top = math.Ceil(top*2) / 2
	c := newChart(len(rep.Rows), "Requests reaching the store per call (1 = no retry, no hedge)", armLegend())
	plot := float64(chartWidth - chartLeft - chartRight)
	x := func(v float64) float64 { return chartLeft + plot*v/top }
	for v := 0.0; v <= top+1e-9; v += 0.5 {
		fmt.Fprintf(&c.b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/><text x="%.1f" y="%d" text-anchor="middle">%g</text>`+"\n",
			x(v), chartTop-6, x(v), c.height-chartBottom+4, gridColour(v == 1), x(v), c.height-10, v)
	}
	c.rows(rep.Rows, func(y int, a Arm, r *Result) {
		fmt.Fprintf(&c.b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %.2f requests per call</title></rect>`+"\n",
			chartLeft, y, x(r.PerCall())-chartLeft, chartBar-1, armColour[a], html.EscapeString(r.Client), r.PerCall())
		fmt.Fprintf(&c.b, `<text x="%.1f" y="%d" font-size="9">%.2f</text>`+"\n", x(r.PerCall())+3, y+chartBar-2, r.PerCall())
	})
	return c.String()
}

func gridColour(strong bool) string {
	if strong {
		return "#888"
	}
	return "#ddd"
}

// LatencySVG charts the callers' latency, a bar to the p99 with a tick at
// the p50, on a logarithmic axis from 0.1 ms to 1 s.
func (rep *Report) LatencySVG() string {
	const lo, hi = 0.1, 1000.0 // ms
	plot := float64(chartWidth - chartLeft - chartRight)
	x := func(d time.Duration) float64 {
		v := math.Min(math.Max(float64(d)/float64(time.Millisecond), lo), hi)
		return chartLeft + plot*math.Log10(v/lo)/math.Log10(hi/lo)
	}
	c := newChart(len(rep.Rows), "Caller latency: bar to the p99, tick at the p50 (ms, log scale)", armLegend())
	for _, v := range []float64{0.1, 1, 10, 100, 1000} {
		px := x(time.Duration(v * float64(time.Millisecond)))
		fmt.Fprintf(&c.b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/><text x="%.1f" y="%d" text-anchor="middle">%g</text>`+"\n",
			px, chartTop-6, px, c.height-chartBottom+4, px, c.height-10, v)
	}
	dl := x(rep.Deadline)
	fmt.Fprintf(&c.b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e53e3e" stroke-dasharray="4 3"/><text x="%.1f" y="%d" fill="#e53e3e" text-anchor="middle">deadline</text>`+"\n",
		dl, chartTop-6, dl, c.height-chartBottom+4, dl, chartTop-8)
	c.rows(rep.Rows, func(y int, a Arm, r *Result) {
		fmt.Fprintf(&c.b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: p50 %s, p99 %s</title></rect>`+"\n",
			chartLeft, y, x(r.P99)-chartLeft, chartBar-1, armColour[a], html.EscapeString(r.Client), ms(r.P50), ms(r.P99))
		fmt.Fprintf(&c.b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#000" stroke-width="2"/>`+"\n", x(r.P50), y, x(r.P50), y+chartBar-1)
		fmt.Fprintf(&c.b, `<text x="%.1f" y="%d" font-size="9">%s</text>`+"\n", x(r.P99)+3, y+chartBar-2, ms(r.P99))
	})
	return c.String()
}

func armLegend() [][2]string {
	var l [][2]string
	for _, a := range Arms {
		l = append(l, [2]string{string(a), armColour[a]})
	}
	return l
}

// GoodputScenarios are the scenarios charted as goodput over time.
var GoodputScenarios = []string{"503-window", "overload", "retry-storm"}

// GoodputSVG charts goodput over time for the rows of scenario name: for
// each transport a panel with, per arm, the share of the calls planned in
// each 100 ms bucket that got a fresh answer; a dashed line marks where
// the fault ended, when it does within the phase. It returns "" when the
// run has no such row.
func (rep *Report) GoodputSVG(name string) string {
	rows := rep.rowsOf(name)
	if len(rows) == 0 {
		return ""
	}
	const panel, top, gap = 170, 56, 40
	height := top + len(rows)*(panel+gap)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", chartWidth, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", chartWidth, height)
	fmt.Fprintf(&b, `<text x="10" y="18" font-size="14">Goodput over time, %s: share of the calls of each 100 ms answered fresh (ok)</text>`+"\n", html.EscapeString(name))
	x := 10
	for _, l := range armLegend() {
		fmt.Fprintf(&b, `<rect x="%d" y="28" width="10" height="10" fill="%s"/><text x="%d" y="37">%s</text>`+"\n", x, l[1], x+14, html.EscapeString(l[0]))
		x += 24 + 7*len([]rune(l[0]))
	}
	const left = 90
	plot := float64(chartWidth - left - chartRight)
	for i, row := range rows {
		y0 := top + i*(panel+gap)
		phase := row.Plan.Phase
		px := func(d time.Duration) float64 { return left + plot*float64(d)/float64(phase) }
		py := func(share float64) float64 { return float64(y0+panel) - share*panel }
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", 10, y0+panel/2, html.EscapeString(transportID(row.Transport)))
		for _, v := range []float64{0, 0.5, 1} {
			fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n",
				left, py(v), px(phase), py(v), left-4, py(v)+4, pct(v))
		}
		for t := time.Duration(0); t <= phase; t += 500 * time.Millisecond {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%gs</text>`+"\n", px(t), y0+panel+14, t.Seconds())
		}
		if w := row.Plan.Window; w > 0 {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e53e3e" stroke-dasharray="4 3"/><text x="%.1f" y="%d" fill="#e53e3e">fault ends</text>`+"\n",
				px(w), y0, px(w), y0+panel, px(w)+3, y0+10)
		}
		for _, a := range Arms {
			r := row.Arms[a]
			if r == nil || len(r.Timeline) == 0 {
				continue
			}
			var pts []string
			for k, bk := range r.Timeline {
				if bk.Calls == 0 {
					continue
				}
				mid := time.Duration(k)*BucketWidth + BucketWidth/2
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(min(mid, phase)), py(bk.Share())))
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"><title>%s</title></polyline>`+"\n",
				armColour[a], strings.Join(pts, " "), html.EscapeString(r.Client))
		}
	}
	return b.String() + "</svg>\n"
}
