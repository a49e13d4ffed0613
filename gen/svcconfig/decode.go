package svcconfig

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// Config is one decoded service config file.
type Config struct {
	// Name is the file's name as diagnostics show it.
	Name string
	// Methods are its methodConfig entries, in the order written.
	Methods []*MethodConfig
}

// MethodConfig is one entry of "methodConfig".
type MethodConfig struct {
	// Loc is where the entry starts; its Path is "methodConfig[i]".
	Loc diag.Location
	// Names are the methods, services ({"service": ...} alone) or, for
	// {}, every method, the entry is for.
	Names []Name
	// Spec is the policy the entry gives the methods it applies to: its
	// timeout, retry policy and hedging policy in the policy's terms.
	Spec policyspec.Spec
	// Retry is where the entry's retryPolicy is written, when it has
	// one; Hedge likewise for its hedgingPolicy.
	Retry, Hedge *diag.Location
}

// Name is one entry of a methodConfig's "name".
type Name struct {
	// Service is the service's full name ("google.pubsub.v1.Publisher"),
	// empty for the default entry.
	Service string
	// Method is the rpc's name, empty for every method of Service.
	Method string
	// Loc is where the name is written.
	Loc diag.Location
}

// String is "service/method", "service/*" or "*".
func (n Name) String() string {
	switch {
	case n.Service == "":
		return "*"
	case n.Method == "":
		return n.Service + "/*"
	}
	return n.Service + "/" + n.Method
}

// Parse decodes data, the gRPC service config named name (the message
// grpc.service_config.ServiceConfig in protobuf JSON, with field names in
// lowerCamelCase or as in the .proto file). Malformed JSON, an unknown
// field, a value of the wrong type, a name written twice and the
// combinations gRPC refuses are errors (E-SVCCONFIG) at their line and
// column; a field the client has no counterpart for is a
// W-SVCCONFIG-IGNORED warning, and retryable status codes it never
// retries W-SVCCONFIG-CODES, each once per file. The Config holds every
// entry that decoded; it is nil only when the JSON does not parse.
func Parse(name string, data []byte) (*Config, []diag.Diagnostic, error) {
	p := &parser{data: data, name: name}
	root, err := parseJSON(name, data)
	if err != nil {
		return nil, nil, err
	}
	d := &decoder{p: p, cfg: &Config{Name: name}, ignored: map[string]*note{}}
	d.serviceConfig(root)
	d.flush()
	return d.cfg, d.list.Warnings(), d.list.Err()
}

// decoder walks a parsed service config.
type decoder struct {
	p    *parser
	cfg  *Config
	list diag.List
	// ignored collects the W-SVCCONFIG-IGNORED and W-SVCCONFIG-CODES
	// findings by what they are about, so that each is reported once
	// per file, at its first place, with a count.
	ignored map[string]*note
	order   []string
	codes   []string // never-retried codes listed, in order of appearance
}

// note is one finding reported once per file.
type note struct {
	rule    diag.Rule
	loc     diag.Location
	count   int
	message string
	fix     string
}

// member is one field of an object, by its lowerCamelCase name.
type member struct {
	val  *node
	loc  diag.Location
	path string
}

// fields returns the members of the object n at path, by their
// lowerCamelCase name; a member whose name is neither known's spelling
// nor its snake_case one is an error with a did-you-mean.
func (d *decoder) fields(n *node, path string, known ...string) map[string]member {
	out := map[string]member{}
	for i, key := range n.keys {
		loc := d.p.at(n.keyOffs[i])
		canon := ""
		for _, k := range known {
			if key == k || strings.Contains(key, "_") && key == snake(k) {
				canon = k
			}
		}
		p := path + "." + key
		if path == "" {
			p = key
		}
		loc.Path = p
		if canon == "" {
			fix := "remove it; the fields here are " + strings.Join(known, ", ")
			if s := closest(key, known); s != "" {
				fix = fmt.Sprintf("did you mean %q?", s)
			}
			d.list.Errorf(loc, diag.RuleSvcConfig, fmt.Sprintf("unknown field %q in %s", key, where(path)), fix)
			continue
		}
		if _, dup := out[canon]; dup {
			d.list.Errorf(loc, diag.RuleSvcConfig, fmt.Sprintf("the field %s is written twice in %s", canon, where(path)), "keep one spelling of it")
			continue
		}
		out[canon] = member{val: n.vals[i], loc: loc, path: p}
	}
	return out
}

// where names the object at path for messages.
func where(path string) string {
	if path == "" {
		return "the service config"
	}
	return path
}

// want reports a value of the wrong kind.
func (d *decoder) want(m member, what string) {
	d.list.Errorf(m.loc, diag.RuleSvcConfig, fmt.Sprintf("%s is %s, want %s", m.path, m.val.kind, what),
		"write it as the gRPC service config schema does (grpc/service_config/service_config.proto)")
}

// ignore records a field the client leaves out, and why.
func (d *decoder) ignore(key string, loc diag.Location, message, fix string) {
	d.noteOnce(diag.RuleSvcIgnored, key, loc, message, fix)
}

func (d *decoder) noteOnce(rule diag.Rule, key string, loc diag.Location, message, fix string) {
	if n, ok := d.ignored[key]; ok {
		n.count++
		return
	}
	d.ignored[key] = &note{rule: rule, loc: loc, count: 1, message: message, fix: fix}
	d.order = append(d.order, key)
}

// flush reports the findings noted once per file.
func (d *decoder) flush() {
	if len(d.codes) > 0 {
		n := d.ignored[codesKey]
		n.message = fmt.Sprintf("retryableStatusCodes lists %s, which the client never retries: it retries UNAVAILABLE, DEADLINE_EXCEEDED sent by the server and RESOURCE_EXHAUSTED with a pushback, whatever the list says (AIP-194)",
			strings.Join(d.codes, ", "))
	}
	for _, key := range d.order {
		n := d.ignored[key]
		msg := n.message
		if n.count > 1 {
			msg += fmt.Sprintf(" (%d places, the first here)", n.count)
		}
		d.list.Warnf(n.loc, n.rule, msg, n.fix)
	}
}

const codesKey = "retryableStatusCodes"

func (d *decoder) serviceConfig(n *node) {
	if n.kind != kObject {
		d.list.Errorf(d.p.at(n.off), diag.RuleSvcConfig, fmt.Sprintf("the service config is %s, want a JSON object", n.kind),
			`write {"methodConfig": [...]}, as gapic's *_grpc_service_config.json files do`)
		return
	}
	f := d.fields(n, "", "loadBalancingPolicy", "loadBalancingConfig", "methodConfig", "retryThrottling", "healthCheckConfig")
	for _, key := range []string{"loadBalancingPolicy", "loadBalancingConfig", "healthCheckConfig"} {
		if m, ok := f[key]; ok {
			d.ignore(key, m.loc, key+" is left out: it configures the connection, not a call",
				"give it to grpc-go with grpc.WithDefaultServiceConfig, without methodConfig retry policies (see One retry layer)")
		}
	}
	if m, ok := f["retryThrottling"]; ok {
		d.ignore("retryThrottling", m.loc, "retryThrottling is left out: the client bounds retries with its retry budget and adaptive throttle",
			"set retry.budget (policy file) or (resilient.v1.service).retry.budget if the default 10% does not suit")
	}
	m, ok := f["methodConfig"]
	if !ok {
		return
	}
	if m.val.kind == kNull {
		return
	}
	if m.val.kind != kArray {
		d.want(m, "a list of method configs")
		return
	}
	for i, item := range m.val.items {
		d.methodConfig(item, fmt.Sprintf("methodConfig[%d]", i))
	}
}

func (d *decoder) methodConfig(n *node, path string) {
	loc := d.p.at(n.off)
	loc.Path = path
	if n.kind != kObject {
		d.list.Errorf(loc, diag.RuleSvcConfig, fmt.Sprintf("%s is %s, want an object", path, n.kind), `write {"name": [...], "timeout": "10s", ...}`)
		return
	}
	mc := &MethodConfig{Loc: loc}
	f := d.fields(n, path, "name", "waitForReady", "timeout", "maxRequestMessageBytes", "maxResponseMessageBytes", "retryPolicy", "hedgingPolicy")
	if m, ok := f["name"]; ok {
		mc.Names = d.names(m)
	}
	if len(mc.Names) == 0 {
		d.list.Warnf(loc, diag.RuleSvcUnused, path+" names no method, so it applies to none",
			`add "name": [{"service": "pkg.Service", "method": "Method"}], or [{}] for every method`)
	}
	d.ignoreCallOptions(f)
	var values []policyspec.Written
	var timeout time.Duration
	if m, ok := f["timeout"]; ok {
		if t, ok := d.duration(m); ok {
			timeout = t
			values = append(values, policyspec.Written{Key: "timeout", Value: t, Loc: m.loc})
		}
	}
	values = append(values, d.retryOrHedge(f, path, timeout, mc)...)
	spec, err := policyspec.DecodeWritten(values, loc)
	d.list.AddErr(err)
	mc.Spec = spec
	d.cfg.Methods = append(d.cfg.Methods, mc)
}

// ignoreCallOptions notes the fields of a methodConfig that are left out
// because they are the caller's call options or the connection's limits,
// not the policy's.
func (d *decoder) ignoreCallOptions(f map[string]member) {
	if m, ok := f["waitForReady"]; ok {
		d.ignore("waitForReady", m.loc, "waitForReady is left out: it is a call option of the caller's",
			"pass grpc.WaitForReady(true) with the calls that should wait")
	}
	for _, key := range []string{"maxRequestMessageBytes", "maxResponseMessageBytes"} {
		if m, ok := f[key]; ok {
			d.ignore(key, m.loc, key+" is left out: message size limits are the connection's",
				"dial with grpc.WithDefaultCallOptions(grpc.MaxCallSendMsgSize(n), grpc.MaxCallRecvMsgSize(n))")
		}
	}
}

// retryOrHedge decodes the retryPolicy or the hedgingPolicy of the
// methodConfig at path (gRPC allows one of them; the hedgingPolicy of one
// that has both is an error and left out), records in mc where the one
// decoded is written, and returns its values.
func (d *decoder) retryOrHedge(f map[string]member, path string, timeout time.Duration, mc *MethodConfig) []policyspec.Written {
	var values []policyspec.Written
	retry, rok := f["retryPolicy"]
	hedge, hok := f["hedgingPolicy"]
	if rok && hok {
		d.list.Errorf(hedge.loc, diag.RuleSvcConfig, path+" has both a retryPolicy and a hedgingPolicy; gRPC allows one of them",
			"keep one of them")
		hok = false
	}
	if rok && retry.val.kind != kNull {
		values = append(values, d.retryPolicy(retry, timeout)...)
		l := retry.loc
		mc.Retry = &l
	}
	if hok && hedge.val.kind != kNull {
		hv := d.hedgingPolicy(hedge)
		values = append(values, hv...)
		if len(hv) > 0 {
			l := hedge.loc
			mc.Hedge = &l
		}
	}
	return values
}

// names decodes a methodConfig's "name" list.
func (d *decoder) names(m member) []Name {
	if m.val.kind != kArray {
		d.want(m, `a list of names such as {"service": "pkg.Service", "method": "Method"}`)
		return nil
	}
	var out []Name
	for i, item := range m.val.items {
		path := fmt.Sprintf("%s[%d]", m.path, i)
		loc := d.p.at(item.off)
		loc.Path = path
		if item.kind != kObject {
			d.list.Errorf(loc, diag.RuleSvcConfig, fmt.Sprintf("%s is %s, want an object", path, item.kind), `write {"service": "pkg.Service", "method": "Method"}`)
			continue
		}
		f := d.fields(item, path, "service", "method")
		n := Name{Loc: loc}
		ok := true
		for key, dst := range map[string]*string{"service": &n.Service, "method": &n.Method} {
			if v, set := f[key]; set {
				if v.val.kind != kString {
					d.want(v, "a string")
					ok = false
					continue
				}
				*dst = v.val.text
			}
		}
		if !ok {
			continue
		}
		if n.Service == "" && n.Method != "" {
			d.list.Errorf(loc, diag.RuleSvcConfig, fmt.Sprintf("%s names method %q without its service", path, n.Method),
				`add "service": the service's full name, such as "google.pubsub.v1.Publisher"`)
			continue
		}
		out = append(out, n)
	}
	return out
}

// retryPolicy maps a retryPolicy: maxAttempts to retries (gRPC treats
// more than 5 attempts as 5), initialBackoff and maxBackoff to the
// backoff's base and cap. A maxBackoff not below the entry's timeout, a
// backoffMultiplier other than 2 and perAttemptRecvTimeout are left out.
func (d *decoder) retryPolicy(m member, timeout time.Duration) []policyspec.Written {
	if m.val.kind != kObject {
		d.want(m, "an object")
		return nil
	}
	f := d.fields(m.val, m.path, "maxAttempts", "initialBackoff", "maxBackoff", "backoffMultiplier", "retryableStatusCodes", "perAttemptRecvTimeout")
	var out []policyspec.Written
	if a, ok := f["maxAttempts"]; ok {
		out = append(out, d.maxAttempts(a, "retry.max_retries", "write at least 2, or remove the retryPolicy to send the calls once")...)
	}
	if b, ok := f["initialBackoff"]; ok {
		if t, ok := d.duration(b); ok {
			out = append(out, policyspec.Written{Key: "retry.base", Value: t, Loc: b.loc})
		}
	}
	if b, ok := f["maxBackoff"]; ok {
		out = append(out, d.maxBackoff(b, timeout)...)
	}
	if b, ok := f["backoffMultiplier"]; ok {
		if x, ok := d.number(b); ok && x != 2 {
			d.ignore("backoffMultiplier", b.loc, "backoffMultiplier "+strconv.FormatFloat(x, 'g', -1, 64)+" is left out: the client doubles its backoff, with full jitter, up to the cap",
				"nothing to do: the base and cap apply")
		}
	}
	if b, ok := f["perAttemptRecvTimeout"]; ok {
		d.ignore("perAttemptRecvTimeout", b.loc, "perAttemptRecvTimeout is left out: the client's attempt timeout is derived from latency, or written",
			"set attemptTimeout in the policy file, or (resilient.v1.method).attempt_timeout")
	}
	codes, ok := f["retryableStatusCodes"]
	if !ok {
		d.list.Errorf(m.loc, diag.RuleSvcConfig, m.path+" has no retryableStatusCodes; gRPC requires them", `add "retryableStatusCodes": ["UNAVAILABLE"]`)
		return out
	}
	d.statusCodes(codes)
	return out
}

// maxAttempts maps the maxAttempts a of a retry or hedging policy to the
// number of attempts beyond the first, written as key (gRPC treats more
// than 5 attempts as 5). Below 2 it is an error, with fix as its advice,
// and gives no value.
func (d *decoder) maxAttempts(a member, key, fix string) []policyspec.Written {
	n, ok := d.integer(a)
	if !ok {
		return nil
	}
	if n < 2 {
		d.list.Errorf(a.loc, diag.RuleSvcConfig, fmt.Sprintf("%s is %d; gRPC requires at least 2", a.path, n), fix)
		return nil
	}
	return []policyspec.Written{{Key: key, Value: min(n, 5) - 1, Loc: a.loc}}
}

// maxBackoff maps a retryPolicy's maxBackoff b to the backoff's cap,
// unless it is not below the entry's timeout: then it is left out.
func (d *decoder) maxBackoff(b member, timeout time.Duration) []policyspec.Written {
	t, ok := d.duration(b)
	if !ok {
		return nil
	}
	if timeout > 0 && t >= timeout {
		d.ignore("maxBackoff", b.loc, fmt.Sprintf("maxBackoff %s is left out: it is not below the timeout %s, so a backoff that long would leave no time to retry, and the built-in cap %s applies", t, timeout, runtime.DefaultBackoffCap),
			"set retry.cap in the policy file, or (resilient.v1.method).retry.cap, if another cap suits")
		return nil
	}
	return []policyspec.Written{{Key: "retry.cap", Value: t, Loc: b.loc}}
}

// hedgingPolicy maps a hedgingPolicy: maxAttempts to hedges (at most 4;
// without it, as a retryPolicy without it, the built-in number) and
// hedgingDelay to the delay. One without a delay sends every attempt
// at once, which the client never does: it is left out.
func (d *decoder) hedgingPolicy(m member) []policyspec.Written {
	if m.val.kind != kObject {
		d.want(m, "an object")
		return nil
	}
	f := d.fields(m.val, m.path, "maxAttempts", "hedgingDelay", "nonFatalStatusCodes")
	var out []policyspec.Written
	if a, ok := f["maxAttempts"]; ok {
		out = append(out, d.maxAttempts(a, "hedge.max_hedges", "write at least 2, or remove the hedgingPolicy")...)
	}
	delay, ok := f["hedgingDelay"]
	var t time.Duration
	if ok {
		t, ok = d.durationOrZero(delay)
	}
	if !ok || t == 0 {
		d.ignore("hedgingDelay", m.loc, m.path+" is left out: without a hedgingDelay it sends every attempt at once, and the client hedges only after a delay",
			"add a hedgingDelay near the p95 latency, or set hedge.delay in the policy file")
		return nil
	}
	out = append(out, policyspec.Written{Key: "hedge.delay", Value: t, Loc: delay.loc})
	if c, ok := f["nonFatalStatusCodes"]; ok {
		d.ignore("nonFatalStatusCodes", c.loc, "nonFatalStatusCodes is left out: a hedge waits for the first answer it may use, by the codes the client retries",
			"nothing to do")
	}
	return out
}

// retried are the status codes the client retries (see
// resilientgrpc.Classify).
var retried = []string{"UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED"}

// codeNames are gRPC's status codes by number.
var codeNames = []string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
	"PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL",
	"UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}

// statusCodes checks a list of status codes, by name or number, and notes
// those the client never retries.
func (d *decoder) statusCodes(m member) {
	if m.val.kind != kArray || len(m.val.items) == 0 {
		d.want(m, `a non-empty list of status codes, such as ["UNAVAILABLE"]`)
		return
	}
	var never []string
	for i, item := range m.val.items {
		name := codeName(item)
		if name == "" {
			d.unknownCode(item, fmt.Sprintf("%s[%d]", m.path, i))
			continue
		}
		if !slices.Contains(retried, name) {
			never = append(never, name)
		}
	}
	if len(never) == 0 {
		return
	}
	d.noteOnce(diag.RuleSvcCodes, codesKey, m.loc, "", "nothing to change: the rest of each retry policy applies, and AIP-194 says why other codes are not safe to retry")
	for _, c := range never {
		if !slices.Contains(d.codes, c) {
			d.codes = append(d.codes, c)
		}
	}
}

// codeName is the name of the gRPC status code item writes, by name or
// number, or "" if it writes none.
func codeName(item *node) string {
	switch item.kind {
	case kString:
		if slices.Contains(codeNames, item.text) {
			return item.text
		}
	case kNumber:
		if n, err := strconv.Atoi(item.text); err == nil && n >= 0 && n < len(codeNames) {
			return codeNames[n]
		}
	}
	return ""
}

// unknownCode reports item, at path, as no gRPC status code, suggesting
// the nearest name.
func (d *decoder) unknownCode(item *node, path string) {
	loc := d.p.at(item.off)
	loc.Path = path
	fix := "write a gRPC status code name, such as UNAVAILABLE"
	if s := closest(item.text, codeNames); s != "" {
		fix = fmt.Sprintf("did you mean %q?", s)
	}
	d.list.Errorf(loc, diag.RuleSvcConfig, fmt.Sprintf("%s is not a gRPC status code", strconv.Quote(item.text)), fix)
}

// duration reads a google.protobuf.Duration in protobuf JSON ("1.5s"),
// greater than zero.
func (d *decoder) duration(m member) (time.Duration, bool) {
	t, ok := d.durationOrZero(m)
	if ok && t == 0 {
		d.list.Errorf(m.loc, diag.RuleSvcConfig, m.path+" is zero", "write a positive duration, such as \"10s\", or remove it")
		return 0, false
	}
	return t, ok
}

// durationOrZero reads a google.protobuf.Duration in protobuf JSON: a
// decimal number of seconds with at most nine fractional digits and an
// "s", not negative.
func (d *decoder) durationOrZero(m member) (time.Duration, bool) {
	bad := func(why string) (time.Duration, bool) {
		d.list.Errorf(m.loc, diag.RuleSvcConfig, fmt.Sprintf("%s is not a duration: %s", m.path, why),
			`write seconds with an "s", as protobuf JSON does: "0.250s", "60s"`)
		return 0, false
	}
	if m.val.kind != kString {
		return bad(fmt.Sprintf("it is %s", m.val.kind))
	}
	s, ok := strings.CutSuffix(m.val.text, "s")
	if !ok {
		return bad(fmt.Sprintf("%q does not end in s", m.val.text))
	}
	whole, frac, _ := strings.Cut(s, ".")
	digits := func(x string) bool {
		return !strings.ContainsFunc(x, func(r rune) bool { return r < '0' || r > '9' })
	}
	if whole == "" || !digits(whole) || !digits(frac) || len(frac) > 9 || strings.HasPrefix(s, "-") {
		return bad(fmt.Sprintf("%q is not a non-negative number of seconds", m.val.text))
	}
	secs, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || secs > int64(policyspec.MaxDuration/time.Second) {
		return bad(fmt.Sprintf("%q is longer than %s", m.val.text, policyspec.MaxDuration))
	}
	nanos, _ := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
	return time.Duration(secs)*time.Second + time.Duration(nanos), true
}

// integer reads a uint32, as a JSON number or a string of one.
func (d *decoder) integer(m member) (int, bool) {
	text := m.val.text
	if m.val.kind != kNumber && m.val.kind != kString {
		text = ""
	}
	n, err := strconv.ParseUint(text, 10, 32)
	if err != nil {
		d.want(m, "a whole number")
		return 0, false
	}
	return int(n), true
}

// number reads a double, as a JSON number or a string of one.
func (d *decoder) number(m member) (float64, bool) {
	text := m.val.text
	if m.val.kind != kNumber && m.val.kind != kString {
		text = ""
	}
	x, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
		d.want(m, "a positive number")
		return 0, false
	}
	return x, true
}

// snake is a lowerCamelCase field name as the .proto file spells it.
func snake(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// closest returns the element of known nearest to s, ignoring case and
// underscores, when it is within two edits; empty otherwise.
func closest(s string, known []string) string {
	norm := func(x string) string { return strings.ToLower(strings.ReplaceAll(x, "_", "")) }
	best, bestD := "", 3
	for _, k := range known {
		if dist := edits(norm(s), norm(k)); dist < bestD {
			best, bestD = k, dist
		}
	}
	return best
}

// edits is the Levenshtein distance of a and b.
func edits(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
