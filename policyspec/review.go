package policyspec

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/resilientgo/resilient/runtime"
)

// ReviewMode selects the rows of a review table.
type ReviewMode uint8

const (
	// ReviewPerOperation gives one row per operation. It is the zero value.
	ReviewPerOperation ReviewMode = iota
	// ReviewPerDependency gives one row per dependency; a cell whose value
	// differs between operations lists each value with its count.
	ReviewPerDependency
)

// ReviewDependency is one dependency of a review with its resolved
// operations.
type ReviewDependency struct {
	// Dependency is the resolved dependency.
	Dependency *Dependency
	// Protocol, such as "gRPC" or "HTTP", is shown after the name when set.
	Protocol string
	// Operations are the dependency's resolved operations.
	Operations []*Operation
}

// Marks used in review cells.
const (
	markDefault = " (default)"
	markPartly  = " (partly default)"
	markGuess   = " *guess*"
	// markFloor prefixes an attempt timeout or hedge delay that the
	// runtime lengthens when the observed latency calls for it.
	markFloor = "≥"
)

// RenderReview renders the resilience review of service in the shape of
// the resilience-patterns output template: a "## Resilience review:"
// heading, the table, a legend of the marks used, and the open risks found.
// Dependencies are sorted by name and operations by name, so the output
// depends only on the policies. The service, dependency, operation and
// protocol names are escaped (see mdText): whatever a spec calls them,
// the heading stays one line and each row one row of seven cells.
func RenderReview(service string, deps []ReviewDependency, mode ReviewMode) string {
	deps = slices.Clone(deps)
	slices.SortStableFunc(deps, func(a, b ReviewDependency) int { return cmp.Compare(a.Dependency.Name, b.Dependency.Name) })
	var b strings.Builder
	fmt.Fprintf(&b, "## Resilience review: %s\n", mdText(service))
	b.WriteString("| Dependency | Timeout (connect/request) | Retries | Breaker | Bulkhead | Fallback | Idempotent |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	var rows [][]string
	for _, d := range deps {
		ops := slices.Clone(d.Operations)
		slices.SortStableFunc(ops, func(a, b *Operation) int { return cmp.Compare(a.Name, b.Name) })
		name := mdText(d.Dependency.Name)
		http := d.Protocol != "gRPC"
		if mode == ReviewPerDependency {
			rows = append(rows, dependencyRow(label(name, d.Protocol), d.Dependency, ops, http))
			continue
		}
		for _, op := range ops {
			rows = append(rows, operationRow(label(name+"/"+mdText(op.Name), d.Protocol), d.Dependency, op, http))
		}
	}
	for _, row := range rows {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	b.WriteString(legend(rows))
	b.WriteString("\n**Open risks:** " + risks(deps) + "\n")
	return b.String()
}

// label is a row's first cell: name, already escaped, and the protocol.
func label(name, protocol string) string {
	if protocol == "" {
		return name
	}
	return name + " (" + mdText(protocol) + ")"
}

// operationRow renders the cells of one operation; http says whether the
// deadline goes out in a header, which the timeout cell then names.
func operationRow(name string, d *Dependency, op *Operation, http bool) []string {
	timeout := timeoutCell(op)
	if http {
		timeout += deadlineCell(d)
	}
	return []string{name, timeout, retriesCell(d, op), breakerCell(d), bulkheadCell(d), fallbackCell(op), idempotentCell(op)}
}

// dependencyRow renders the cells of a dependency, merging the cells of
// its operations.
func dependencyRow(name string, d *Dependency, ops []*Operation, http bool) []string {
	row := []string{name, "", "", breakerCell(d), bulkheadCell(d), "", ""}
	for _, col := range []int{1, 2, 5, 6} {
		var cells []string
		for _, op := range ops {
			cells = append(cells, operationRow("", d, op, http)[col])
		}
		row[col] = mergeCells(cells)
	}
	return row
}

// mergeCells returns the one value of cells, or each distinct value with
// the number of operations that have it, most frequent first.
func mergeCells(cells []string) string {
	if len(cells) == 0 {
		return "–"
	}
	count := map[string]int{}
	for _, c := range cells {
		count[c]++
	}
	if len(count) == 1 {
		return cells[0]
	}
	distinct := slices.Sorted(func(yield func(string) bool) {
		for c := range count {
			if !yield(c) {
				return
			}
		}
	})
	slices.SortStableFunc(distinct, func(a, b string) int { return cmp.Compare(count[b], count[a]) })
	parts := make([]string, len(distinct))
	for i, c := range distinct {
		ops := "ops"
		if count[c] == 1 {
			ops = "op"
		}
		parts[i] = fmt.Sprintf("%d %s: %s", count[c], ops, c)
	}
	return strings.Join(parts, "; ")
}

// mark returns the mark of a value from source s; a value a gRPC service
// config set is followed by the config's name, " (service config x.json)".
func mark(s Source) string {
	switch s.Origin {
	case OriginSet:
		if s.Layer == LayerServiceConfig {
			return " (" + serviceConfigNote(s.Loc) + ")"
		}
	case OriginDefault:
		return markDefault
	case OriginGuess:
		return markGuess
	}
	return ""
}

// markAll returns the mark of a cell made of values from sources: a guess
// if any is, default if all are, partly default if some are.
func markAll(sources ...Source) string {
	defaults := 0
	for _, s := range sources {
		switch s.Origin {
		case OriginGuess:
			return markGuess
		case OriginDefault:
			defaults++
		}
	}
	switch defaults {
	case 0:
		return ""
	case len(sources):
		return markDefault
	}
	return markPartly
}

// timeoutCell renders "connect / request". The request is the attempt
// timeout, marked as a floor that adapts, whose last attempt runs to the
// deadline, followed by the total, for an operation whose attempts are cut
// by it: one that is retried and not hedged. An operation sent once, or
// hedged, runs its attempts to the deadline, and the total is the request
// timeout then. A total that is a guess is said to apply only without a
// caller deadline, and so is the attempt timeout then. A connect timeout the client does not apply (gRPC: the
// dial options do) is "–". The deadline header, for HTTP, follows.
func timeoutCell(op *Operation) string {
	p, src := op.Policy, op.Sources
	connect := "–"
	if p.ConnectTimeout > 0 {
		connect = formatDuration(p.ConnectTimeout) + mark(src["connectTimeout"])
	}
	total := formatDuration(p.Timeout) + mark(src["timeout"])
	if p.KeepCallerDeadline {
		total += ", only without a caller deadline"
	}
	if !p.AttemptTimeoutFits() || op.Attempts() == 1 || p.Hedge.Delay > 0 {
		return connect + " / " + total
	}
	attempt := markFloor + formatDuration(p.AttemptTimeout) + mark(src["attemptTimeout"])
	if p.KeepCallerDeadline {
		// Both timeouts are guesses, which give way to a caller's deadline.
		return connect + " / " + attempt + " adaptive, last attempt to the deadline, total " +
			formatDuration(p.Timeout) + mark(src["timeout"]) + ", both only without a caller deadline"
	}
	return connect + " / " + attempt + " adaptive, last attempt to the deadline, total " + total
}

// deadlineCell renders whether, and in which header, an HTTP client sends
// the remaining budget: ", deadline in X-Request-Deadline" or ", no
// deadline header".
func deadlineCell(d *Dependency) string {
	if d.DeadlineHeader == "" {
		return ", no deadline header" + mark(d.Sources["deadlineHeader"])
	}
	return ", deadline in " + d.DeadlineHeader + mark(d.Sources["deadlineHeader"])
}

// retriesCell renders "2, full jitter, budget 10%", and the hedge.
func retriesCell(d *Dependency, op *Operation) string {
	p := op.Policy
	var s string
	switch {
	case p.Retry.Disabled && p.Idempotency == runtime.NotIdempotent:
		s = "none (not idempotent)"
	case p.Retry.Disabled:
		s = "none"
	default:
		s = fmt.Sprintf("%d%s, full jitter, budget %s%%%s%s", p.Retry.MaxRetries, mark(op.Sources["retry.maxRetries"]),
			strconv.FormatFloat(d.Policy.Budget.Ratio*100, 'f', -1, 64), mark(d.Sources["retry.budget"]), fleetCell(d))
	}
	if p.Hedge.Delay > 0 {
		s += ", hedge after " + markFloor + formatDuration(p.Hedge.Delay) + mark(op.Sources["hedge.delay"])
	}
	return s
}

// breakerCell renders "50%/20 calls/30 s→5 m": failure rate, minimum calls
// and the open period, from the first opening's to the longest a streak
// of openings reaches (runtime.MaxOpenForFactor times it), and ", fleet
// (redis)" when the breaker is the fleet's.
func breakerCell(d *Dependency) string {
	b := d.Policy.Breaker
	return fmt.Sprintf("%s%%/%d calls/%s→%s%s%s, %s", strconv.FormatFloat(b.FailureRate, 'f', -1, 64), b.MinimumCalls,
		formatDuration(b.OpenFor), formatDuration(runtime.MaxOpenForFactor*b.OpenFor),
		markAll(d.Sources["breaker.failureRate"], d.Sources["breaker.minimumCalls"], d.Sources["breaker.openFor"]), fleetCell(d), throttleCell(d.Policy.Throttle))
}

// throttleCell renders the adaptive throttle in force, "throttle 3×/250 ms":
// while the dependency sheds load the client sends about 3 times what it
// accepted over the last 250 ms (the Marks line says so).
func throttleCell(t runtime.ThrottlePolicy) string {
	if t.Disabled {
		return "no throttle"
	}
	ratio, window := t.Ratio, t.Window
	if ratio == 0 {
		ratio = runtime.DefaultThrottleRatio
	}
	if window == 0 {
		window = runtime.DefaultThrottleWindow
	}
	return "throttle " + strconv.FormatFloat(ratio, 'f', -1, 64) + "×/" + formatDuration(window)
}

// fleetCell renders ", fleet (redis)" when the dependency shares its
// breaker and budget with the service's other replicas, else "".
func fleetCell(d *Dependency) string {
	if !d.HasFleet() {
		return ""
	}
	return ", fleet (redis)"
}

// bulkheadCell renders "≥32 permits": the runtime widens the bulkhead up
// to twice while the dependency answers slowly.
func bulkheadCell(d *Dependency) string {
	return fmt.Sprintf("%s%d permits%s", markFloor, d.Policy.Bulkhead.MaxConcurrent, mark(d.Sources["bulkhead.maxConcurrent"]))
}

// fallbackCell renders "cached, 5 m, marked degraded" (", shared by all
// callers" when declared so), "static value, marked degraded" or "none".
func fallbackCell(op *Operation) string {
	f := op.Policy.Fallback
	switch f.Kind {
	case runtime.FallbackCached:
		shared := ""
		if f.Shared {
			shared = ", shared by all callers"
		}
		return "cached, " + formatDuration(f.TTL) + mark(op.Sources["fallback.ttl"]) + shared + ", marked degraded"
	case runtime.FallbackStatic:
		return "static value, marked degraded"
	}
	return "none"
}

// idempotentCell renders "yes", "no" or "with key Idempotency-Key". An
// idempotency inferred from what the input says elsewhere, whose basis
// reads "from ..." ("from google.api.http GET", "from AIP-131") and is
// not the method's own default, is
// followed by it in parentheses.
func idempotentCell(op *Operation) string {
	cell := "yes"
	switch {
	case op.IdempotencyKey != "" && op.Policy.Idempotency != runtime.NotIdempotent:
		return "with key " + op.IdempotencyKey
	case op.Policy.Idempotency == runtime.NotIdempotent:
		cell = "no"
	}
	if src := op.Sources["idempotent"]; src.Origin == OriginDefault && strings.HasPrefix(src.Basis, "from ") && src.Basis != methodBasis {
		cell += " (" + src.Basis + ")"
	}
	return cell
}

// legend explains the marks the rows use.
func legend(rows [][]string) string {
	used := func(m string) bool {
		for _, row := range rows {
			for _, c := range row[1:] {
				if strings.Contains(c, m) {
					return true
				}
			}
		}
		return false
	}
	var parts []string
	if used(markDefault) {
		parts = append(parts, "(default) built-in default")
	}
	if used(markPartly) {
		parts = append(parts, "(partly default) some values are built-in defaults")
	}
	if used(markGuess) {
		parts = append(parts, "*guess* chosen without latency data; measure p99.9 and rps to replace it")
	}
	if used(markFloor) {
		h := strconv.FormatFloat(runtime.AdaptiveHeadroom, 'f', -1, 64)
		parts = append(parts, "≥ a floor the runtime raises when the dependency slows down: the attempt timeout to "+h+
			" × the observed p99, the hedge delay to "+h+" × the observed p90, the bulkhead up to twice its size while the dependency answers; "+
			"an attempt is cut only when a retry can follow, hedged and last attempts run to the deadline")
	}
	parts = append(parts, "throttle K×/W: while the dependency sheds load (503, 429, gRPC RESOURCE_EXHAUSTED or UNAVAILABLE from a reached server) "+
		"the client sends about K times what it accepted over the last W and refuses the rest locally (ErrThrottled); shed answers do not open the breaker, "+
		"which opens on unanswered attempts, resets, 500s and gateway errors; "+
		"breaker R%/N calls/A→B: it opens at R % failures among at least N attempts, for A at first and A longer at each opening in a row up to B, "+
		"and once its probes succeed ramps traffic back over A (a fleet's shared breaker keeps A and one round of probes)")
	return "\nMarks: " + strings.Join(parts, "; ") + ".\n"
}

// risks lists dependencies whose timeouts or bulkhead are guesses and
// dependencies without any fallback.
func risks(deps []ReviewDependency) string {
	var out []string
	for _, d := range deps {
		guessed := d.Dependency.Sources["bulkhead.maxConcurrent"].Origin == OriginGuess
		fallback := false
		for _, op := range d.Operations {
			if op.Sources["timeout"].Origin == OriginGuess || op.Sources["attemptTimeout"].Origin == OriginGuess {
				guessed = true
			}
			if op.Policy.Fallback.Kind != runtime.FallbackNone {
				fallback = true
			}
		}
		name := mdText(d.Dependency.Name)
		if guessed {
			out = append(out, name+": no latency data, timeouts or bulkhead are guesses")
		}
		if !fallback {
			out = append(out, name+": no fallback, failures reach the caller")
		}
	}
	if len(out) == 0 {
		return "none found."
	}
	return strings.Join(out, "; ") + "."
}

// formatDuration renders d for a reader: "800 ms", "1.5 s", "5 m", "2 h".
func formatDuration(d time.Duration) string {
	num := func(x float64, unit string) string { return strconv.FormatFloat(x, 'f', -1, 64) + " " + unit }
	switch {
	case d < time.Second:
		return num(float64(d)/float64(time.Millisecond), "ms")
	case d >= time.Hour && d%time.Hour == 0:
		return num(d.Hours(), "h")
	case d >= time.Minute && d%time.Minute == 0:
		return num(d.Minutes(), "m")
	}
	return num(d.Seconds(), "s")
}
