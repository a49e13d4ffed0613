package diff

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/runtime"
)

// policyValue is one compared value of a resolved operation: its text
// and the key of its source.
type policyValue struct {
	subject string
	key     string
	value   func(op *resolve.Operation) string
}

// operationValues are the per-operation values the Resilience section
// compares, in print order.
func operationValues() []policyValue {
	return []policyValue{
		{"idempotency", "idempotent", func(op *resolve.Operation) string { return op.Policy.Policy.Idempotency.String() }},
		{"attempts", "retry.maxRetries", func(op *resolve.Operation) string { return strconv.Itoa(op.Policy.Attempts()) }},
		{"retry backoff", "retry.base", func(op *resolve.Operation) string {
			r := op.Policy.Policy.Retry
			if op.Policy.Attempts() == 1 {
				return ""
			}
			return "base " + short(r.Base) + ", cap " + short(r.Cap)
		}},
		{"total timeout", "timeout", func(op *resolve.Operation) string { return short(totalTimeout(op)) }},
		{"attempt timeout", "attemptTimeout", func(op *resolve.Operation) string {
			if t := op.Policy.Policy.AttemptTimeout; t > 0 {
				return short(t)
			}
			return ""
		}},
		{"hedging", "hedge.delay", func(op *resolve.Operation) string {
			if d := op.Policy.Policy.Hedge.Delay; d > 0 {
				return "after " + short(d)
			}
			return ""
		}},
		{"fallback", "fallback.kind", func(op *resolve.Operation) string { return fallbackText(op.Policy.Policy.Fallback) }},
		{"fallback partition", "fallback.shared", func(op *resolve.Operation) string {
			f := op.Policy.Policy.Fallback
			switch {
			case f.Kind != runtime.FallbackCached:
				return ""
			case f.Shared:
				return "shared by all callers"
			}
			return "per caller's credentials and request"
		}},
		{"idempotency key", "idempotencyKey", func(op *resolve.Operation) string { return op.Policy.IdempotencyKey }},
		{"credentials", "", func(op *resolve.Operation) string { return securityText(op) }},
	}
}

func totalTimeout(op *resolve.Operation) time.Duration {
	if t := op.Policy.Policy.Timeout; t > 0 {
		return t
	}
	return runtime.DefaultTimeout
}

func fallbackText(f runtime.FallbackPolicy) string {
	switch f.Kind {
	case runtime.FallbackCached:
		ttl := f.TTL
		if ttl == 0 {
			ttl = runtime.DefaultFallbackTTL
		}
		return "cached " + short(ttl)
	case runtime.FallbackStatic:
		return "static"
	}
	return ""
}

func securityText(op *resolve.Operation) string {
	var alts []string
	for _, alt := range op.Security {
		var names []string
		for _, s := range alt.Schemes {
			names = append(names, s.Scheme)
		}
		alts = append(alts, strings.Join(names, "+"))
	}
	return strings.Join(alts, " or ")
}

// short prints d as time.Duration does, without zero tails.
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func origin(op *resolve.Operation, key string) string {
	if key == "" {
		return ""
	}
	src, ok := op.Policy.Sources[key]
	if !ok {
		return ""
	}
	return src.String()
}

// dependencyValues are the dependency-wide values compared once.
func dependencyValues() []struct {
	subject, key string
	value        func(d *policyspec.Dependency) string
} {
	return []struct {
		subject, key string
		value        func(d *policyspec.Dependency) string
	}{
		{"breaker", "breaker.failureRate", func(d *policyspec.Dependency) string {
			b := d.Policy.Breaker
			return fmt.Sprintf("at %s%% of %d calls in %s, open %s, %d probes", strconv.FormatFloat(b.FailureRate, 'f', -1, 64), b.MinimumCalls, short(b.Window), short(b.OpenFor), b.HalfOpenProbes)
		}},
		{"bulkhead", "bulkhead.maxConcurrent", func(d *policyspec.Dependency) string {
			b := d.Policy.Bulkhead
			wait := short(b.MaxWait)
			if b.DisableWait {
				wait = "none"
			}
			return fmt.Sprintf("%d concurrent, wait %s", b.MaxConcurrent, wait)
		}},
		{"retry budget", "retry.budget", func(d *policyspec.Dependency) string {
			return strconv.FormatFloat(d.Policy.Budget.Ratio*100, 'f', -1, 64) + "%"
		}},
		{"fleet", "fleet.store", func(d *policyspec.Dependency) string {
			if !d.HasFleet() {
				return ""
			}
			return fmt.Sprintf("store %q, prefix %q", d.Policy.Fleet.Store, d.Policy.Fleet.Prefix)
		}},
		{"deadline header", "deadlineHeader", func(d *policyspec.Dependency) string { return d.DeadlineHeader }},
	}
}

// compareResilience adds the Resilience section: every changed value of
// the dependency and of each operation both versions have, the policy
// of operations added or removed, and the risks.
func compareResilience(r *Report, old, new *resolve.Service, pairs []opPair) {
	for _, v := range dependencyValues() {
		o, n := v.value(old.Dependency), v.value(new.Dependency)
		if o == n {
			continue
		}
		r.add(Change{Section: SectionResilience, Rule: RuleResChanged, Class: Changed, Subject: "dependency " + v.subject,
			Old: o, New: n, OldOrigin: depOrigin(old.Dependency, v.key), NewOrigin: depOrigin(new.Dependency, v.key)})
	}
	for _, p := range pairs {
		switch {
		case p.old == nil:
			r.add(Change{Section: SectionResilience, Rule: RuleResOpAdded, Class: Changed, Operation: p.name,
				New: p.new.Policy.Summary().String(), Message: "a new operation, with this policy"})
			continue
		case p.new == nil:
			r.add(Change{Section: SectionResilience, Rule: RuleResOpRemoved, Class: Changed, Operation: p.name,
				Old: p.old.Policy.Summary().String(), Message: "the operation is gone, and its policy with it"})
			continue
		}
		for _, v := range operationValues() {
			o, n := v.value(p.old), v.value(p.new)
			if o == n {
				continue
			}
			r.add(Change{Section: SectionResilience, Rule: RuleResChanged, Class: Changed, Operation: p.name, Subject: v.subject,
				Old: o, New: n, OldOrigin: origin(p.old, v.key), NewOrigin: origin(p.new, v.key)})
		}
		risks(r, p)
	}
}

func depOrigin(d *policyspec.Dependency, key string) string {
	if src, ok := d.Sources[key]; ok {
		return src.String()
	}
	return ""
}

// risks flags the changes of one operation's policy that raise risk.
func risks(r *Report, p opPair) {
	c := policyChange{r: r, p: p}
	c.retriesUnsafe()
	c.sentOnce()
	c.timeoutBelowP99()
	c.fallbackRemoved()
	c.keyLost()
	c.fallbackShared()
}

// policyChange is the change of one operation's policy, whose risks are
// flagged in r.
type policyChange struct {
	r *Report
	p opPair
}

// flag adds the risk rule about subject, from old to new, whose origins
// are those of the policy key key.
func (c policyChange) flag(rule, subject, old, new, key, msg string) {
	p := c.p
	c.r.add(Change{Section: SectionResilience, Rule: rule, Class: Risk, Operation: p.name, Subject: subject,
		Old: old, New: new, OldOrigin: origin(p.old, key), NewOrigin: origin(p.new, key), Message: msg})
}

// retriesUnsafe flags retries enabled on an operation that was not
// idempotent.
func (c policyChange) retriesUnsafe() {
	o, n := c.p.old.Policy, c.p.new.Policy
	if na := n.Attempts(); o.Policy.Idempotency == runtime.NotIdempotent && n.Policy.Idempotency != runtime.NotIdempotent && na > 1 {
		c.flag(RuleRiskRetryUnsafe, "idempotency", o.Policy.Idempotency.String(), n.Policy.Idempotency.String(), "idempotent",
			fmt.Sprintf("retries enabled (%d attempts) on an operation that was not idempotent: a retried request repeats its side effect unless the server deduplicates it", na))
	}
}

// sentOnce flags an operation that was retried and is now sent once.
func (c policyChange) sentOnce() {
	if oa, na := c.p.old.Policy.Attempts(), c.p.new.Policy.Attempts(); oa > 1 && na == 1 {
		c.flag(RuleRiskSentOnce, "attempts", strconv.Itoa(oa), "1", "retry.maxRetries",
			"now sent once: a transient failure (a reset connection, a 503) reaches the caller instead of being retried")
	}
}

// timeoutBelowP99 flags a total timeout that fell below the declared p99
// latency, or lower still.
func (c policyChange) timeoutBelowP99() {
	p99 := c.p.new.Policy.Latency.P99
	if p99 <= 0 {
		return
	}
	nt, ot := totalTimeout(c.p.new), totalTimeout(c.p.old)
	if nt < p99 && (ot >= c.p.old.Policy.Latency.P99 || ot > nt) {
		c.flag(RuleRiskTimeoutBelowP99, "total timeout", short(ot), short(nt), "timeout",
			fmt.Sprintf("the total timeout is below the declared p99 of %s: more than 1 call in 100 will time out while the dependency is healthy", short(p99)))
	}
}

// fallbackRemoved flags the fallback of a read removed.
func (c policyChange) fallbackRemoved() {
	o, n := c.p.old.Policy.Policy, c.p.new.Policy.Policy
	if o.Fallback.Kind != runtime.FallbackNone && n.Fallback.Kind == runtime.FallbackNone && o.Idempotency == runtime.ReadOnly {
		c.flag(RuleRiskFallbackRemoved, "fallback", fallbackText(o.Fallback), "", "fallback.kind",
			"fallback removed from a read: callers that relied on a degraded answer while the dependency fails now get the error")
	}
}

// keyLost flags an idempotency key no longer sent.
func (c policyChange) keyLost() {
	o, n := c.p.old.Policy, c.p.new.Policy
	if o.IdempotencyKey != "" && n.IdempotencyKey == "" {
		c.flag(RuleRiskKeyLost, "idempotency key", o.IdempotencyKey, "", "idempotencyKey",
			"idempotency key lost: the server can no longer tell a retried request from a new one")
	}
}

// sharesCache reports whether the fallback f answers from a cache shared
// by all callers.
func sharesCache(f runtime.FallbackPolicy) bool {
	return f.Kind == runtime.FallbackCached && f.Shared
}

// fallbackShared flags cached answers newly shared by all callers.
func (c policyChange) fallbackShared() {
	o, n := c.p.old.Policy.Policy.Fallback, c.p.new.Policy.Policy.Fallback
	if sharesCache(n) && !sharesCache(o) {
		partition := operationValues()[7].value
		c.flag(RuleRiskFallbackShared, "fallback partition", partition(c.p.old), partition(c.p.new), "fallback.shared",
			"cached answers are now shared by all callers: one caller may receive an answer fetched with another caller's credentials")
	}
}
