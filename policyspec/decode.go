package policyspec

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
	"go.yaml.in/yaml/v4"
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
// from the nodes. Every problem is reported, as [diag.List]; the returned
// Spec holds all the values that were valid.
func DecodeNode(n *yaml.Node, at diag.Location) (Spec, error) {
	c := newConverter()
	v := c.fromNode(n, at, 0)
	s, _ := c.spec(v, camelKeys, nil)
	return s, c.diags.Err()
}

// DecodeValue decodes a policy object given as a plain Go value: maps,
// slices, strings, float64 and bool, as kin-openapi gives extension values.
// Every value is reported at at's file position, with its path below at's.
// Keys are camelCase.
func DecodeValue(v any, at diag.Location) (Spec, error) {
	c := newConverter()
	s, _ := c.spec(c.fromAny(v, at, 0), camelKeys, nil)
	return s, c.diags.Err()
}

// Written is one policy value that a front end read as a typed value, such
// as a field of a proto option, rather than as text.
type Written struct {
	// Key is the key path as the author spelled it, in snake_case
	// ("retry.max_retries").
	Key string
	// Value is a bool, a string, an integer or a float64, a
	// time.Duration, a runtime.FallbackKind, or, for fallback.value, any
	// JSON value as encoding/json decodes one.
	Value any
	// Loc is where the value was written; its Path names the value.
	Loc diag.Location
}

// DecodeWritten decodes a policy object from typed values, checking each as
// [DecodeNode] checks written text (a key outside the vocabulary, a
// negative duration, a number out of range) and naming keys in messages as
// the author spelled them. at is where the object is written; a block
// ("retry") takes the location of its first value. Every problem is
// reported, as [diag.List]; the returned Spec holds all the values that
// were valid.
func DecodeWritten(values []Written, at diag.Location) (Spec, error) {
	c := newConverter()
	root := &value{kind: vMap, loc: at, rest: -1}
	for _, w := range values {
		parts := strings.Split(w.Key, ".")
		m := root
		for i, part := range parts {
			j := slices.IndexFunc(m.entries, func(e entry) bool { return e.key == part })
			if i == len(parts)-1 {
				if j >= 0 {
					c.add(w.Loc, diag.RuleYAML, "duplicate key "+quoted(w.Key), "keep one of them")
					break
				}
				m.entries = append(m.entries, entry{key: part, loc: w.Loc, val: c.written(w.Value, w.Loc), rest: -1})
				break
			}
			if j < 0 {
				m.entries = append(m.entries, entry{key: part, loc: w.Loc, val: &value{kind: vMap, loc: w.Loc, rest: -1}, rest: -1})
				j = len(m.entries) - 1
			}
			m = m.entries[j].val
		}
	}
	s, _ := c.spec(root, snakeKeys, nil)
	return s, c.diags.Err()
}

// written converts a typed value: a duration to its text and a fallback
// kind to its name, so that they are checked as written ones are.
func (c *converter) written(x any, loc diag.Location) *value {
	switch t := x.(type) {
	case time.Duration:
		return &value{kind: vString, text: t.String(), loc: loc, rest: -1}
	case runtime.FallbackKind:
		return &value{kind: vString, text: t.String(), loc: loc, rest: -1}
	}
	return c.fromAny(x, loc, 0)
}

// spec decodes a policy object. Keys named in extra are not decoded but
// returned, for the policy file's "operations".
func (c *converter) spec(v *value, nm naming, extra []string) (Spec, map[string]entry) {
	c.nm = nm
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
			c.add(e.loc, diag.RuleYAML, "duplicate key "+quotedIn(e.key, e.rest), "keep one of them")
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
				c.typeError(e.val, c.spell(name), "a mapping")
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

// spell writes a key path as the decoded text spells keys: snake_case for
// proto options, else as the vocabulary does.
func (c *converter) spell(key string) string {
	if c.nm == snakeKeys {
		return SnakeCase(key)
	}
	return key
}

func (c *converter) add(loc diag.Location, rule diag.Rule, msg, fix string) {
	c.diags = append(c.diags, diag.Diagnostic{Location: loc, Rule: rule, Message: msg, Fix: fix})
}

func (c *converter) typeError(v *value, name, want string) {
	c.add(v.loc, diag.RuleType, fmt.Sprintf("%s must be %s, found %s", name, want, v.describe()), "")
}

// unknownKey reports a key outside the vocabulary, suggesting the nearest
// known key.
func (c *converter) unknownKey(e entry, prefix string, nm naming, allowed []string) {
	where := "policy"
	if prefix != "" {
		where = prefix
	}
	spell := c.spell
	msg := fmt.Sprintf("unknown key %s in %s", quotedIn(e.key, e.rest), spell(where))
	if s := suggest(e.key, allowed); s != "" {
		c.add(e.loc, diag.RuleUnknownKey, msg, fmt.Sprintf("did you mean %q?", spell(s)))
		return
	}
	known := make([]string, len(allowed))
	for i, k := range allowed {
		known[i] = spell(k)
	}
	c.add(e.loc, diag.RuleUnknownKey, msg, "known keys: "+strings.Join(known, ", "))
}

// leaf decodes one key's value into its field.
func (c *converter) leaf(def keyDef, e entry, s *Spec) {
	v, loc := e.val, e.loc
	switch f := def.field(s).(type) {
	case *Field[bool]:
		if v.kind != vBool {
			c.typeError(v, c.spell(def.name), "true or false")
			return
		}
		*f = Given(v.b, loc)
	case *Field[string]:
		if v.kind != vString {
			c.typeError(v, c.spell(def.name), "a header name")
			return
		}
		if !validHeader(v.text) {
			c.add(loc, diag.RuleRange, fmt.Sprintf("%s %s is not a valid header name", c.spell(def.name), quotedIn(v.text, v.rest)), `write a header name such as "Idempotency-Key"`)
			return
		}
		*f = Given(v.text, loc)
	case *Field[time.Duration]:
		c.duration(def, v, loc, f)
	case *Field[int]:
		if v.kind != vNumber || !v.integer {
			c.typeError(v, c.spell(def.name), "an integer")
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
			c.add(v.loc, diag.RuleRange, fmt.Sprintf("%s %s is not a fallback kind", c.spell(def.name), v.describe()), fix)
			return
		}
		*f = Given([]runtime.FallbackKind{runtime.FallbackCached, runtime.FallbackStatic, runtime.FallbackNone}[k], loc)
	case *Field[any]:
		*f = Given(v.toAny(), loc)
	case *Field[StoreName]:
		if v.kind != vString {
			c.typeError(v, c.spell(def.name), "a store name")
			return
		}
		if why := badStoreName(v.text); why != "" {
			c.add(loc, diag.RuleFleetName, fmt.Sprintf("%s %s %s", c.spell(def.name), quotedIn(v.text, v.rest), why),
				`name the store, such as "sessions-redis"; the application gives the Redis client itself to the generated client's fleet option (WithFleet, With<Service>Fleet for gRPC)`)
			return
		}
		*f = Given(StoreName(v.text), loc)
	case *Field[KeyPrefix]:
		if v.kind != vString {
			c.typeError(v, c.spell(def.name), "a key prefix")
			return
		}
		if why := badKeyPrefix(v.text); why != "" {
			c.add(loc, diag.RuleFleetName, fmt.Sprintf("%s %s %s", c.spell(def.name), quotedIn(v.text, v.rest), why),
				`write a short prefix such as "checkout:"; addresses and credentials belong to the Redis client the application gives the generated client's fleet option`)
			return
		}
		*f = Given(KeyPrefix(v.text), loc)
	case *Field[HeaderSwitch]:
		switch {
		case v.kind == vBool:
			*f = Given(HeaderSwitch{Off: !v.b}, loc)
		case v.kind != vString:
			c.typeError(v, c.spell(def.name), "true, false or a header name")
		case !validHeader(v.text):
			c.add(loc, diag.RuleRange, fmt.Sprintf("%s %q is not a valid header name", c.spell(def.name), v.text), `write false to send no deadline header, or a header name such as "X-Request-Deadline"`)
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
func (c *converter) duration(def keyDef, v *value, loc diag.Location, f *Field[time.Duration]) {
	rule := diag.RuleDuration
	if def.name == "breaker.window" {
		rule = diag.RuleBreakerWindow
	}
	example := `"800ms"`
	if strings.HasPrefix(def.name, "breaker.") || def.name == "fallback.ttl" {
		example = `"30s"`
	}
	if v.kind != vString {
		c.add(loc, rule, fmt.Sprintf("%s %s must be a Go duration string with a unit", c.spell(def.name), v.describe()), "write e.g. "+example)
		return
	}
	d, reason := parseDuration(v.text, def.kind == kindDurationZero)
	if reason != "" {
		what := "a positive Go duration"
		if def.kind == kindDurationZero {
			what = "a Go duration of zero or more"
		}
		c.add(loc, rule, fmt.Sprintf("%s %s must be %s (it %s)", c.spell(def.name), quotedIn(v.text, v.rest), what, reason), "write e.g. "+example)
		return
	}
	if rule == diag.RuleBreakerWindow && d%time.Second != 0 {
		c.add(loc, rule, fmt.Sprintf("%s %s must be a whole number of seconds (the breaker counts in 1 s buckets)", c.spell(def.name), quotedIn(v.text, v.rest)), fmt.Sprintf("write %q", (d.Truncate(time.Second)+time.Second).String()))
		return
	}
	*f = Given(d, loc)
}

// float decodes a number key; a ratio also takes "10%".
func (c *converter) float(def keyDef, v *value, loc diag.Location, f *Field[float64]) {
	x, text := v.num, v.text
	switch {
	case v.kind == vNumber:
	case def.kind == kindRatio && v.kind == vString && strings.HasSuffix(strings.TrimSpace(v.text), "%"):
		p, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v.text), "%")), 64)
		if err != nil {
			c.add(loc, diag.RuleType, fmt.Sprintf("%s %s is not a percentage", c.spell(def.name), quotedIn(v.text, v.rest)), `write e.g. "10%" or 0.1`)
			return
		}
		x = p / 100
	default:
		want := "a number"
		if def.kind == kindRatio {
			want = `a share such as "10%" or 0.1`
		}
		c.typeError(v, c.spell(def.name), want)
		return
	}
	if def.kind == kindRatio && x > 1 && x <= 100 && v.kind == vNumber {
		c.add(loc, diag.RuleRange, fmt.Sprintf("%s %s must be in (0, 1]", c.spell(def.name), text), fmt.Sprintf(`write "%s%%" or %s`, text, strconv.FormatFloat(x/100, 'g', -1, 64)))
		return
	}
	if c.inRange(def, x, text, loc) {
		*f = Given(x, loc)
	}
}

// inRange reports whether x is within def's bounds, reporting E-RANGE when
// not. NaN is never in range.
func (c *converter) inRange(def keyDef, x float64, text string, loc diag.Location) bool {
	lowOK := x >= def.lo
	open := "["
	if def.loOpen {
		lowOK, open = x > def.lo, "("
	}
	if lowOK && x <= def.hi && !math.IsNaN(x) {
		return true
	}
	c.add(loc, diag.RuleRange, fmt.Sprintf("%s %s must be in %s%s, %s]", c.spell(def.name), text, open, fmtNum(def.lo), fmtNum(def.hi)), rangeFix(def))
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
