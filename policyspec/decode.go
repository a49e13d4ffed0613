package policyspec

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/resilientgo/resilient/runtime"
	"gopkg.in/yaml.v3"
)

// naming selects the spelling of keys a decoder accepts.
type naming uint8

const (
	camelKeys naming = iota // "maxRetries": x-resilience and the policy file
	snakeKeys               // "max_retries": proto options
)

// DecodeNode decodes a policy object (the value of x-resilience, or one
// level of a policy file) from a YAML node; JSON parsed with yaml.v3 works
// the same. at gives the file and the node's path; lines and columns come
// from the nodes. Every problem is reported, as [Diagnostics]; the returned
// Spec holds all the values that were valid.
func DecodeNode(n *yaml.Node, at Location) (Spec, error) {
	c := newConverter()
	v := c.fromNode(n, at, 0)
	s, _ := c.spec(v, camelKeys, nil)
	return s, c.diags.Err()
}

// DecodeValue decodes a policy object given as a plain Go value: maps,
// slices, strings, float64 and bool, as kin-openapi gives extension values.
// Every value is reported at at's file position, with its path below at's.
// Keys are camelCase.
func DecodeValue(v any, at Location) (Spec, error) {
	c := newConverter()
	s, _ := c.spec(c.fromAny(v, at, 0), camelKeys, nil)
	return s, c.diags.Err()
}

// DecodeSnakeValue is [DecodeValue] for keys in snake_case ("max_retries"),
// the spelling of the proto options, for a front end that turns option
// values into a map.
func DecodeSnakeValue(v any, at Location) (Spec, error) {
	c := newConverter()
	s, _ := c.spec(c.fromAny(v, at, 0), snakeKeys, nil)
	return s, c.diags.Err()
}

// spec decodes a policy object. Keys named in extra are not decoded but
// returned, for the policy file's "operations".
func (c *converter) spec(v *value, nm naming, extra []string) (Spec, map[string]entry) {
	var s Spec
	if v.kind == vNull || v.invalid {
		return s, nil
	}
	if v.kind != vMap {
		c.typeError(v, "policy", "a mapping of policy keys")
		return s, nil
	}
	extras := map[string]entry{}
	c.block(v, "", nm, extra, &s, extras)
	return s, extras
}

// block decodes the keys of one mapping: the top level when prefix is "",
// else the block named prefix.
func (c *converter) block(v *value, prefix string, nm naming, extra []string, s *Spec, extras map[string]entry) {
	allowed := childKeys(prefix)
	seen := map[string]bool{}
	for _, e := range v.entries {
		key := e.key
		if nm == snakeKeys {
			key = camelOf(key, allowed)
		}
		if seen[key] {
			c.add(e.loc, RuleYAML, "duplicate key "+quotedIn(e.key, e.rest), "keep one of them")
			continue
		}
		seen[key] = true
		if prefix == "" && contains(extra, key) {
			extras[key] = e
			continue
		}
		if !contains(allowed, key) {
			c.unknownKey(e, prefix, nm, append(allowed, extra...))
			continue
		}
		if e.val.invalid {
			continue
		}
		name := key
		if prefix != "" {
			name = prefix + "." + key
		}
		def, ok := lookupKey(name)
		if !ok { // a block
			if e.val.kind == vNull {
				continue
			}
			if e.val.kind != vMap {
				c.typeError(e.val, name, "a mapping")
				continue
			}
			c.block(e.val, name, nm, nil, s, extras)
			continue
		}
		c.leaf(def, e, s)
	}
}

// camelOf maps a snake_case key to its camelCase spelling among allowed;
// an unknown key is returned as it is.
func camelOf(key string, allowed []string) string {
	for _, a := range allowed {
		if SnakeCase(a) == key {
			return a
		}
	}
	return key
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *converter) add(loc Location, rule Rule, msg, fix string) {
	c.diags = append(c.diags, Diagnostic{Location: loc, Rule: rule, Message: msg, Fix: fix})
}

func (c *converter) typeError(v *value, name, want string) {
	c.add(v.loc, RuleType, fmt.Sprintf("%s must be %s, found %s", name, want, v.describe()), "")
}

// unknownKey reports a key outside the vocabulary, suggesting the nearest
// known key.
func (c *converter) unknownKey(e entry, prefix string, nm naming, allowed []string) {
	where := "policy"
	if prefix != "" {
		where = prefix
	}
	spell := func(k string) string {
		if nm == snakeKeys {
			return SnakeCase(k)
		}
		return k
	}
	msg := fmt.Sprintf("unknown key %s in %s", quotedIn(e.key, e.rest), spell(where))
	if s := suggest(e.key, allowed); s != "" {
		c.add(e.loc, RuleUnknownKey, msg, fmt.Sprintf("did you mean %q?", spell(s)))
		return
	}
	known := make([]string, len(allowed))
	for i, k := range allowed {
		known[i] = spell(k)
	}
	c.add(e.loc, RuleUnknownKey, msg, "known keys: "+strings.Join(known, ", "))
}

// leaf decodes one key's value into its field.
func (c *converter) leaf(def keyDef, e entry, s *Spec) {
	v, loc := e.val, e.loc
	switch f := def.field(s).(type) {
	case *Field[bool]:
		if v.kind != vBool {
			c.typeError(v, def.name, "true or false")
			return
		}
		*f = Given(v.b, loc)
	case *Field[string]:
		if v.kind != vString {
			c.typeError(v, def.name, "a header name")
			return
		}
		if !validHeader(v.text) {
			c.add(loc, RuleRange, fmt.Sprintf("%s %s is not a valid header name", def.name, quotedIn(v.text, v.rest)), `write a header name such as "Idempotency-Key"`)
			return
		}
		*f = Given(v.text, loc)
	case *Field[time.Duration]:
		c.duration(def, v, loc, f)
	case *Field[int]:
		if v.kind != vNumber || !v.integer {
			c.typeError(v, def.name, "an integer")
			return
		}
		if c.inRange(def, v.num, v.text, loc) {
			*f = Given(int(v.num), loc)
		}
	case *Field[float64]:
		c.float(def, v, loc, f)
	case *Field[runtime.FallbackKind]:
		kinds := []string{"cached", "static", "none"}
		k := -1
		if v.kind == vString {
			k = indexOf(kinds, v.text)
		}
		if k < 0 {
			fix := "write cached, static or none"
			if s := suggest(v.text, kinds); s != "" && v.kind == vString {
				fix = fmt.Sprintf("did you mean %q?", s)
			}
			c.add(v.loc, RuleRange, fmt.Sprintf("%s %s is not a fallback kind", def.name, v.describe()), fix)
			return
		}
		*f = Given([]runtime.FallbackKind{runtime.FallbackCached, runtime.FallbackStatic, runtime.FallbackNone}[k], loc)
	case *Field[any]:
		*f = Given(v.toAny(), loc)
	case *Field[StoreName]:
		if v.kind != vString {
			c.typeError(v, def.name, "a store name")
			return
		}
		if why := badStoreName(v.text); why != "" {
			c.add(loc, RuleRange, fmt.Sprintf("%s %s %s", def.name, quotedIn(v.text, v.rest), why),
				`name the store, such as "sessions-redis"; the application gives the Redis client itself to the generated client's WithFleet option`)
			return
		}
		*f = Given(StoreName(v.text), loc)
	case *Field[KeyPrefix]:
		if v.kind != vString {
			c.typeError(v, def.name, "a key prefix")
			return
		}
		if why := badKeyPrefix(v.text); why != "" {
			c.add(loc, RuleRange, fmt.Sprintf("%s %s %s", def.name, quotedIn(v.text, v.rest), why),
				`write a short prefix such as "checkout:"; addresses and credentials belong to the Redis client the application gives WithFleet`)
			return
		}
		*f = Given(KeyPrefix(v.text), loc)
	case *Field[HeaderSwitch]:
		switch {
		case v.kind == vBool:
			*f = Given(HeaderSwitch{Off: !v.b}, loc)
		case v.kind != vString:
			c.typeError(v, def.name, "true, false or a header name")
		case !validHeader(v.text):
			c.add(loc, RuleRange, fmt.Sprintf("%s %q is not a valid header name", def.name, v.text), `write false to send no deadline header, or a header name such as "X-Request-Deadline"`)
		default:
			*f = Given(HeaderSwitch{Name: v.text}, loc)
		}
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// duration decodes a duration key.
func (c *converter) duration(def keyDef, v *value, loc Location, f *Field[time.Duration]) {
	rule := RuleDuration
	if def.name == "breaker.window" {
		rule = RuleBreakerWindow
	}
	example := `"800ms"`
	if strings.HasPrefix(def.name, "breaker.") || def.name == "fallback.ttl" {
		example = `"30s"`
	}
	if v.kind != vString {
		c.add(loc, rule, fmt.Sprintf("%s %s must be a Go duration string with a unit", def.name, v.describe()), "write e.g. "+example)
		return
	}
	d, reason := parseDuration(v.text, def.kind == kindDurationZero)
	if reason != "" {
		what := "a positive Go duration"
		if def.kind == kindDurationZero {
			what = "a Go duration of zero or more"
		}
		c.add(loc, rule, fmt.Sprintf("%s %s must be %s (it %s)", def.name, quotedIn(v.text, v.rest), what, reason), "write e.g. "+example)
		return
	}
	if rule == RuleBreakerWindow && d%time.Second != 0 {
		c.add(loc, rule, fmt.Sprintf("%s %s must be a whole number of seconds (the breaker counts in 1 s buckets)", def.name, quotedIn(v.text, v.rest)), fmt.Sprintf("write %q", (d.Truncate(time.Second)+time.Second).String()))
		return
	}
	*f = Given(d, loc)
}

// float decodes a number key; a ratio also takes "10%".
func (c *converter) float(def keyDef, v *value, loc Location, f *Field[float64]) {
	x, text := v.num, v.text
	switch {
	case v.kind == vNumber:
	case def.kind == kindRatio && v.kind == vString && strings.HasSuffix(strings.TrimSpace(v.text), "%"):
		p, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v.text), "%")), 64)
		if err != nil {
			c.add(loc, RuleType, fmt.Sprintf("%s %s is not a percentage", def.name, quotedIn(v.text, v.rest)), `write e.g. "10%" or 0.1`)
			return
		}
		x = p / 100
	default:
		want := "a number"
		if def.kind == kindRatio {
			want = `a share such as "10%" or 0.1`
		}
		c.typeError(v, def.name, want)
		return
	}
	if def.kind == kindRatio && x > 1 && x <= 100 && v.kind == vNumber {
		c.add(loc, RuleRange, fmt.Sprintf("%s %s must be in (0, 1]", def.name, text), fmt.Sprintf(`write "%s%%" or %s`, text, strconv.FormatFloat(x/100, 'g', -1, 64)))
		return
	}
	if c.inRange(def, x, text, loc) {
		*f = Given(x, loc)
	}
}

// inRange reports whether x is within def's bounds, reporting E-RANGE when
// not. NaN is never in range.
func (c *converter) inRange(def keyDef, x float64, text string, loc Location) bool {
	lowOK := x >= def.lo
	open := "["
	if def.loOpen {
		lowOK, open = x > def.lo, "("
	}
	if lowOK && x <= def.hi && !math.IsNaN(x) {
		return true
	}
	c.add(loc, RuleRange, fmt.Sprintf("%s %s must be in %s%s, %s]", def.name, text, open, fmtNum(def.lo), fmtNum(def.hi)), rangeFix(def))
	return false
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// rangeFix explains the bounds of the keys whose limits are a choice.
func rangeFix(def keyDef) string {
	switch def.name {
	case "retry.maxRetries":
		return "more than 5 retries multiplies load during an incident; use 2 (the default) or fewer"
	case "hedge.maxHedges":
		return "one hedge (the default) is usually enough"
	case "breaker.failureRate":
		return "give a percentage such as 50"
	}
	return ""
}

// validHeader reports whether s is an HTTP field name (RFC 9110 token).
func validHeader(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("!#$%&'*+-.^_`|~", r):
		default:
			return false
		}
	}
	return true
}

// badStoreName says why s is not a store name, or returns "".
func badStoreName(s string) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > 64:
		return "is longer than 64 characters"
	case strings.Contains(s, "://") || strings.ContainsRune(s, '@'):
		return "looks like an address; the policy only names the store"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return fmt.Sprintf("has %q; a store name has letters, digits, \".\", \"_\" and \"-\"", r)
		}
	}
	return ""
}

// badKeyPrefix says why s is not a key prefix, or returns "".
func badKeyPrefix(s string) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > 64:
		return "is longer than 64 characters"
	case strings.Contains(s, "://") || strings.ContainsRune(s, '@'):
		return "looks like an address; the policy only names the keys"
	}
	for _, r := range s {
		if r <= ' ' || r > '~' || r == '{' || r == '}' {
			return fmt.Sprintf("has %q; a key prefix is printable ASCII without spaces or braces", r)
		}
	}
	return ""
}
