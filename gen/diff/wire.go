package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
)

// direction says which way a payload travels, which decides whether a
// change breaks the client: it must keep sending what the server accepts
// and keep understanding what the server answers.
type direction int

const (
	request direction = iota
	response
)

// wire compares the payload types of one operation pair.
type wire struct {
	r        *Report
	old, new *ir.Service
	op       string
	// named holds the changes found in a pair of named types in a
	// direction, their subjects relative to the type, so that each pair
	// is compared once and its changes reported at every use; a pair
	// being compared maps to nil, which ends recursion through cyclic
	// types.
	named map[[3]string][]Change
	// sink, when not nil, collects changes instead of the report.
	sink *[]Change
	// text is set while the value compared is a parameter written as
	// text (not as a media type): any scalar value is then also a
	// string.
	text bool
	// schemaPairs holds the pairs of subschemas compared for the use
	// being compared.
	schemaPairs map[schemaPair]bool
}

func (w *wire) add(rule string, class Class, subject, old, new, msg string) {
	c := Change{Section: SectionWire, Rule: rule, Class: class, Operation: w.op, Subject: subject, Old: old, New: new, Message: msg}
	if w.sink != nil {
		*w.sink = append(*w.sink, c)
		return
	}
	w.r.add(c)
}

// compareWire adds the Wire section.
func compareWire(r *Report, old, new *resolve.Service, pairs []opPair) {
	w := &wire{r: r, old: old.IR, new: new.IR, named: map[[3]string][]Change{}}
	w.servers()
	for _, p := range pairs {
		w.op = p.name
		switch {
		case p.new == nil:
			cls, msg := Breaking, "the operation is gone: calls of it fail"
			w.add(RuleWireOpRemoved, cls, "", "", "", msg)
			continue
		case p.old == nil:
			w.add(RuleWireOpAdded, Compatible, "", "", "", "a new operation")
			continue
		}
		w.operation(p.old.Operation, p.new.Operation)
	}
}

func (w *wire) servers() {
	w.op = ""
	urls := func(s *ir.Service) []string {
		var out []string
		for _, sv := range s.Servers {
			out = append(out, sv.URL)
		}
		return out
	}
	o, n := urls(w.old), urls(w.new)
	for i, u := range o {
		if !slices.Contains(n, u) {
			msg := "a server is gone"
			if i == 0 {
				msg = "the default server is gone: a client built with NewClient(\"\") now calls another URL"
			}
			w.add(RuleWireServerRemoved, Warning, "server", u, "", msg)
		}
	}
	for _, u := range n {
		if !slices.Contains(o, u) {
			w.add(RuleWireServerAdded, Compatible, "server", "", u, "a new server")
		}
	}
}

func (w *wire) operation(o, n *ir.Operation) {
	if !o.Deprecated && n.Deprecated {
		w.add(RuleWireOpDeprecated, Compatible, "", "", "deprecated", "deprecated: plan to stop calling it")
	}
	w.security(o, n)
	if o.RPC != nil && n.RPC != nil {
		// gRPC methods: their messages are compared by the proto diff.
		return
	}
	w.params(o, n)
	w.body(o, n)
	w.responses(o, n)
}

// alternatives returns an operation's security alternatives as text,
// each with its schemes sorted.
func alternatives(op *ir.Operation) []string {
	var out []string
	for _, alt := range op.Security {
		var names []string
		for _, s := range alt.Schemes {
			names = append(names, s.Scheme)
		}
		slices.Sort(names)
		out = append(out, strings.Join(names, "+"))
	}
	slices.Sort(out)
	return out
}

func (w *wire) security(o, n *ir.Operation) {
	oa, na := alternatives(o), alternatives(n)
	if slices.Equal(oa, na) {
		w.scopes(o, n)
		return
	}
	ot, nt := strings.Join(oa, " or "), strings.Join(na, " or ")
	switch {
	case len(na) == 0 || slices.Contains(na, ""):
		w.add(RuleWireSecurity, Compatible, "security", ot, "none needed", "the operation no longer needs credentials")
	case len(oa) == 0 || slices.Contains(oa, ""):
		w.add(RuleWireSecurity, Breaking, "security", "none", nt, "the operation now needs credentials: a client built without them fails with MissingCredentialError")
	default:
		for _, a := range oa {
			if !slices.Contains(na, a) {
				w.add(RuleWireSecurity, Breaking, "security", ot, nt, fmt.Sprintf("the credentials %s are no longer accepted", a))
				return
			}
		}
		w.add(RuleWireSecurity, Compatible, "security", ot, nt, "more credentials are accepted")
	}
}

// scopes compares the OAuth2 or OpenID Connect scopes of the security
// alternatives the two versions of an operation share: a scope now
// needed breaks a client whose token lacks it.
func (w *wire) scopes(o, n *ir.Operation) {
	type key struct{ alt, scheme string }
	collect := func(op *ir.Operation) map[key][]string {
		m := map[key][]string{}
		for _, alt := range op.Security {
			var names []string
			for _, su := range alt.Schemes {
				names = append(names, su.Scheme)
			}
			slices.Sort(names)
			a := strings.Join(names, "+")
			for _, su := range alt.Schemes {
				m[key{a, su.Scheme}] = append(m[key{a, su.Scheme}], su.Scopes...)
			}
		}
		return m
	}
	om, nm := collect(o), collect(n)
	keys := make([]key, 0, len(nm))
	for k := range nm {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int { return strings.Compare(a.alt+" "+a.scheme, b.alt+" "+b.scheme) })
	for _, k := range keys {
		olds, news := om[k], nm[k]
		subject := "security " + k.scheme
		if k.alt != k.scheme {
			subject += " (with " + k.alt + ")"
		}
		for _, sc := range news {
			if !slices.Contains(olds, sc) {
				w.add(RuleWireSecurity, Breaking, subject, strings.Join(olds, " "), strings.Join(news, " "), fmt.Sprintf("the scope %s is now needed: a token without it is refused", sc))
			}
		}
		for _, sc := range olds {
			if !slices.Contains(news, sc) {
				w.add(RuleWireSecurity, Compatible, subject, strings.Join(olds, " "), strings.Join(news, " "), fmt.Sprintf("the scope %s is no longer needed", sc))
			}
		}
	}
}

func paramKey(p *ir.Param) string { return p.In.String() + " parameter " + p.Name }

func (w *wire) params(o, n *ir.Operation) {
	old := map[string]*ir.Param{}
	for _, p := range o.Params {
		old[paramKey(p)] = p
	}
	seen := map[string]bool{}
	for _, np := range n.Params {
		k := paramKey(np)
		seen[k] = true
		op, ok := old[k]
		if !ok && np.In == ir.InPath {
			// A renamed path parameter keeps its place in the template.
			op = pathParamAt(o, n, np)
			ok = op != nil
			if ok {
				seen[paramKey(op)] = true
			}
		}
		if !ok {
			if np.Required {
				w.add(RuleWireParamAdded, Breaking, k, "", "required", "a new required parameter: requests without it are rejected")
			} else {
				w.add(RuleWireParamAdded, Compatible, k, "", "optional", "a new optional parameter")
			}
			continue
		}
		w.param(k, op, np)
	}
	for _, op := range o.Params {
		if k := paramKey(op); !seen[k] {
			w.add(RuleWireParamRemoved, Warning, k, "", "", "the parameter is gone: the server ignores it, or rejects requests that send it")
		}
	}
}

// param compares two versions of the parameter k.
func (w *wire) param(k string, op, np *ir.Param) {
	switch {
	case !op.Required && np.Required:
		w.add(RuleWireParamRequired, Breaking, k, "optional", "required", "the parameter became required: requests without it are rejected")
	case op.Required && !np.Required:
		w.add(RuleWireParamRequired, Compatible, k, "required", "optional", "the parameter became optional")
	}
	if !op.Deprecated && np.Deprecated {
		w.add(RuleWireDeprecated, Compatible, k, "", "deprecated", "plan to stop sending it")
	}
	if op.Style != np.Style || op.Explode != np.Explode || op.ContentType != np.ContentType {
		w.add(RuleWireParamStyle, Breaking, k, styleText(op), styleText(np), "the parameter is serialized differently: the old client's encoding is no longer understood")
	}
	w.text = op.ContentType == "" && np.ContentType == ""
	w.typeRef(request, k, op.Type, np.Type)
	w.text = false
}

// pathParamAt returns the old path parameter at the place of the new
// path parameter np in the template, when the old one's name is not in
// the new operation.
func pathParamAt(o, n *ir.Operation, np *ir.Param) *ir.Param {
	idx := -1
	for i, m := range pathParam.FindAllString(n.Path, -1) {
		if m == "{"+np.Name+"}" {
			idx = i
		}
	}
	olds := pathParam.FindAllString(o.Path, -1)
	if idx < 0 || idx >= len(olds) {
		return nil
	}
	name := strings.Trim(olds[idx], "{}")
	for _, p := range o.Params {
		if p.In == ir.InPath && p.Name == name {
			return p
		}
	}
	return nil
}

func styleText(p *ir.Param) string {
	s := p.Style.String()
	if p.Explode {
		s += ", explode"
	}
	if p.ContentType != "" {
		s += ", " + p.ContentType
	}
	return s
}

func (w *wire) body(o, n *ir.Operation) {
	const subject = "request body"
	switch {
	case o.Body == nil && n.Body == nil:
		return
	case o.Body == nil:
		if n.Body.Required {
			w.add(RuleWireBodyAdded, Breaking, subject, "", "required", "a new required request body: requests without it are rejected")
		} else {
			w.add(RuleWireBodyAdded, Compatible, subject, "", "optional", "a new optional request body")
		}
		return
	case n.Body == nil:
		w.add(RuleWireBodyRemoved, Breaking, subject, "", "", "the request body is gone: the server may reject requests that send one")
		return
	}
	switch {
	case !o.Body.Required && n.Body.Required:
		w.add(RuleWireBodyRequired, Breaking, subject, "optional", "required", "the request body became required")
	case o.Body.Required && !n.Body.Required:
		w.add(RuleWireBodyRequired, Compatible, subject, "required", "optional", "the request body became optional")
	}
	w.contents(request, subject, o.Body.Contents, n.Body.Contents)
}

func (w *wire) contents(dir direction, subject string, o, n []*ir.Content) {
	byType := func(cs []*ir.Content, mt string) *ir.Content {
		for _, c := range cs {
			if c.MediaType == mt {
				return c
			}
		}
		return nil
	}
	renamed := map[*ir.Content]bool{}
	for i, oc := range o {
		nc := byType(n, oc.MediaType)
		if nc == nil && dir == response {
			nc = w.mediaChanged(subject, oc, o, n, renamed)
		}
		if nc == nil {
			msg := "a media type is gone: a client that sends it, or asks for it, is refused"
			if i == 0 {
				// The first content is the one the generated client
				// sends, or decodes first.
				msg = "the media type the generated client uses is gone"
			}
			w.add(RuleWireMediaRemoved, Breaking, subject, oc.MediaType, "", msg)
			continue
		}
		w.typeRef(dir, subject+" "+oc.MediaType, oc.Type, nc.Type)
	}
	for _, nc := range n {
		if byType(o, nc.MediaType) == nil && !renamed[nc] {
			w.add(RuleWireMediaAdded, Compatible, subject, "", nc.MediaType, "a new media type")
		}
	}
}

// sameDecoding returns the content of news that replaces oc of olds in an
// answer, decoded the same way: a media type not in olds, of the same
// type and subtype with other parameters ("application/json;
// charset=utf-8"), else, for JSON, another JSON media type
// ("application/problem+json"), which the generated client decodes
// whatever the Content-Type says; nil when there is none, or more than
// one.
func sameDecoding(oc *ir.Content, olds, news []*ir.Content) *ir.Content {
	essence := func(mt string) string {
		base, _, _ := strings.Cut(mt, ";")
		return strings.ToLower(strings.TrimSpace(base))
	}
	var candidates []*ir.Content
	for _, match := range []func(*ir.Content) bool{
		func(nc *ir.Content) bool { return essence(nc.MediaType) == essence(oc.MediaType) },
		func(nc *ir.Content) bool { return oc.Kind == ir.ContentJSON && nc.Kind == ir.ContentJSON },
	} {
		for _, nc := range news {
			written := slices.ContainsFunc(olds, func(c *ir.Content) bool { return c.MediaType == nc.MediaType })
			if !written && match(nc) {
				candidates = append(candidates, nc)
			}
		}
		if len(candidates) > 0 {
			break
		}
	}
	if len(candidates) != 1 {
		return nil
	}
	return candidates[0]
}

// mediaChanged reports and returns the content of news that replaces oc
// of olds in an answer (see [sameDecoding]), when renamed does not hold
// it yet; it adds it to renamed.
func (w *wire) mediaChanged(subject string, oc *ir.Content, olds, news []*ir.Content, renamed map[*ir.Content]bool) *ir.Content {
	nc := sameDecoding(oc, olds, news)
	if nc == nil || renamed[nc] {
		return nil
	}
	renamed[nc] = true
	cls, msg := mediaChange(oc.MediaType, nc.MediaType)
	w.add(RuleWireMediaChanged, cls, subject, oc.MediaType, nc.MediaType, msg)
	return nc
}

// mediaChange classifies an answer's media type o written as n instead,
// for any client that reads the Content-Type: a parameter gone or
// changed (a charset), or a structured suffix dropped
// (application/problem+json become application/json), breaks a client
// that relies on it; a parameter or suffix added narrows what it reads;
// any other renaming is a warning. The generated client decodes every
// JSON media type alike, and reads the charset.
func mediaChange(o, n string) (Class, string) {
	oe, op := splitMedia(o)
	ne, np := splitMedia(n)
	if oe == ne {
		for k, v := range op {
			nv, ok := np[k]
			switch {
			case !ok:
				return Breaking, "the media type's " + k + " parameter is gone: a client that relies on " + k + "=" + v + " may misread the answer"
			case nv != v:
				return Breaking, "the media type's " + k + " is now " + nv + ": a client that reads it as " + v + " misreads the answer"
			}
		}
		return Compatible, "the answer's media type has a parameter more: what it says was the default"
	}
	switch {
	case len(op) == 0 && len(np) == 0 && suffixOf(oe) != "" && ne == generalMedia(oe):
		return Breaking, "the answer's media type is more general now: a client that checks for " + oe + " no longer finds it"
	case len(op) == 0 && len(np) == 0 && suffixOf(ne) != "" && oe == generalMedia(ne):
		return Compatible, "the answer's media type is more specific now: still " + oe
	}
	return Warning, "the answer's media type is written differently: a client that checks it for " + o + " no longer finds it; the generated client decodes it the same way"
}

// splitMedia returns a media type's essence, lower case, and its
// parameters.
func splitMedia(mt string) (string, map[string]string) {
	base, params, _ := strings.Cut(mt, ";")
	out := map[string]string{}
	for _, p := range strings.Split(params, ";") {
		k, v, ok := strings.Cut(p, "=")
		if ok {
			out[strings.ToLower(strings.TrimSpace(k))] = strings.ToLower(strings.Trim(strings.TrimSpace(v), `"`))
		}
	}
	return strings.ToLower(strings.TrimSpace(base)), out
}

// suffixOf returns the structured syntax suffix of a media type essence
// ("json" of application/problem+json), empty for none.
func suffixOf(essence string) string {
	_, sub, _ := strings.Cut(essence, "/")
	if i := strings.LastIndex(sub, "+"); i >= 0 {
		return sub[i+1:]
	}
	return ""
}

// generalMedia returns the media type a structured suffix names
// (application/json for application/problem+json).
func generalMedia(essence string) string {
	typ, _, _ := strings.Cut(essence, "/")
	return typ + "/" + suffixOf(essence)
}

// headers compares the headers of two versions of the response subject,
// matched by name whatever its case.
func (w *wire) headers(subject string, o, n []*ir.Header) {
	for _, oh := range o {
		found := false
		for _, nh := range n {
			if strings.EqualFold(nh.Name, oh.Name) {
				found = true
				if oh.Required && !nh.Required {
					w.add(RuleWireHeaderRemoved, Breaking, subject+" header "+oh.Name, "required", "optional", "a header the client could rely on may be absent")
				}
				w.typeRef(response, subject+" header "+oh.Name, oh.Type, nh.Type)
			}
		}
		if !found {
			w.add(RuleWireHeaderRemoved, Warning, subject+" header "+oh.Name, "documented", "", "a documented response header is gone")
		}
	}
	for _, nh := range n {
		if !slices.ContainsFunc(o, func(oh *ir.Header) bool { return strings.EqualFold(nh.Name, oh.Name) }) {
			w.add(RuleWireHeaderAdded, Compatible, subject+" header "+nh.Name, "", requiredText(nh.Required), "a new documented response header")
		}
	}
}

func (w *wire) responses(o, n *ir.Operation) {
	old := map[string]*ir.Response{}
	for _, r := range o.Responses {
		old[r.Status] = r
	}
	seen := map[string]bool{}
	for _, nr := range n.Responses {
		seen[nr.Status] = true
		subject := "response " + nr.Status
		or, ok := old[nr.Status]
		if !ok {
			if nr.IsSuccess() {
				w.add(RuleWireResponseAdded, Warning, subject, "", nr.Status, "a new success answer: the old client does not decode it")
			} else {
				w.add(RuleWireResponseAdded, Compatible, subject, "", nr.Status, "a new documented error")
			}
			continue
		}
		w.contents(response, subject, or.Contents, nr.Contents)
		w.headers(subject, or.Headers, nr.Headers)
	}
	for _, or := range o.Responses {
		if seen[or.Status] {
			continue
		}
		if or.IsSuccess() {
			w.add(RuleWireResponseRemoved, Breaking, "response "+or.Status, or.Status, "", "a success answer the client decodes is gone")
		} else {
			w.add(RuleWireResponseRemoved, Warning, "response "+or.Status, or.Status, "", "a documented error is gone")
		}
	}
}

// resolved follows aliases of a named type reference: the reference to
// compare and the named type it is (nil for a scalar, array or map).
func resolved(svc *ir.Service, t *ir.TypeRef) (*ir.TypeRef, *ir.Type) {
	for range 32 {
		if t == nil || t.Kind != ir.KindNamed {
			return t, nil
		}
		nt := svc.Type(t.Name)
		if nt == nil {
			return t, nil
		}
		if nt.Kind != ir.TypeAlias || nt.Alias == nil {
			return t, nt
		}
		t = nt.Alias
	}
	return t, nil
}

// shape describes a type for the report ("integer (int32)", "array",
// "object", "string enum").
func shape(t *ir.TypeRef, nt *ir.Type) string {
	if t == nil {
		return "none"
	}
	if nt != nil {
		switch nt.Kind {
		case ir.TypeStruct:
			return "object"
		case ir.TypeEnum:
			return kindText(nt.Enum.Base, "") + " enum"
		case ir.TypeUnion:
			return "union"
		}
	}
	switch t.Kind {
	case ir.KindArray:
		return "array"
	case ir.KindMap:
		return "map"
	}
	return kindText(t.Kind, t.Format)
}

func kindText(k ir.Kind, format string) string {
	var s string
	switch k {
	case ir.KindAny:
		s = "any"
	case ir.KindBool:
		s = "boolean"
	case ir.KindInt, ir.KindInt32, ir.KindInt64, ir.KindUint, ir.KindUint32, ir.KindUint64:
		s = "integer"
	case ir.KindFloat32, ir.KindFloat64:
		s = "number"
	case ir.KindString, ir.KindDateTime, ir.KindDate, ir.KindUUID, ir.KindBytes:
		s = "string"
	case ir.KindBinary:
		s = "binary"
	default:
		s = "unknown"
	}
	if format != "" {
		s += " (" + format + ")"
	}
	return s
}

// typeRef compares two uses of a type in the direction dir, at subject.
func (w *wire) typeRef(dir direction, subject string, o, n *ir.TypeRef) {
	if of, nf := isFalse(w.old, o), isFalse(w.new, n); of || nf {
		if of != nf {
			how := narrows
			if of {
				how = widens
			}
			w.keyword(dir, false, subject, "schema", falseText(of), falseText(nf), how)
		}
		return
	}
	ot, ont := resolved(w.old, o)
	nt, nnt := resolved(w.new, n)
	if os, ns := shape(ot, ont), shape(nt, nnt); os != ns {
		if w.shapeChanged(dir, subject, o, n, os, ns) {
			return
		}
	}
	if ot == nil || nt == nil {
		return
	}
	w.constraints(dir, subject, o, n)
	w.nullable(dir, subject, admitsNull(w.old, o, ot), admitsNull(w.new, n, nt))
	switch {
	case ont != nil && nnt != nil:
		w.namedPair(dir, subject, ont, nnt)
	case (ot.Kind == ir.KindArray || ot.Kind == ir.KindMap) && ot.Elem != nil && nt.Elem != nil:
		w.typeRef(dir, subject+"[]", ot.Elem, nt.Elem)
	}
}

// shapeChanged reports a use of a type whose shape changed from os to
// ns, and returns whether the comparison ends there: it goes on into an
// enum that the value became, or stopped being, without breaking.
func (w *wire) shapeChanged(dir direction, subject string, o, n *ir.TypeRef, os, ns string) bool {
	_, ont := resolved(w.old, o)
	_, nnt := resolved(w.new, n)
	if w.anyTaken(dir, o, n) {
		return true
	}
	if w.freeFormGivenProperties(dir, subject, o, nnt, os, ns) {
		return true
	}
	if dir == request && w.parameterWidened(subject, o, n, os, ns) {
		return true
	}
	if cls, msg, ok := w.unionChange(dir, os, ns, ont, nnt); ok {
		w.add(RuleWireTypeChanged, cls, subject, os, ns, msg)
		return true
	}
	cls, msg := typeChange(dir, os, ns)
	w.add(RuleWireTypeChanged, cls, subject, os, ns, msg)
	if cls == Breaking {
		return true
	}
	if ont == nil || nnt == nil || ont.Kind != ir.TypeEnum && nnt.Kind != ir.TypeEnum {
		w.constraints(dir, subject, o, n)
		return true
	}
	return false
}

// anyTaken reports whether a change of shape from o to n is none on the
// wire because a side takes anything there: a request's value that may
// now be anything, an answer's value that the old client took whatever it
// was.
func (w *wire) anyTaken(dir direction, o, n *ir.TypeRef) bool {
	ot, _ := resolved(w.old, o)
	nt, _ := resolved(w.new, n)
	return dir == request && nt != nil && nt.Kind == ir.KindAny ||
		dir == response && ot != nil && ot.Kind == ir.KindAny
}

// freeFormGivenProperties reports, and returns true for, a free-form
// object (a map of values of any type) that became an object with
// properties: the old client's map takes any object answered, and the
// object it sends is still accepted unless the new one requires a
// property.
func (w *wire) freeFormGivenProperties(dir direction, subject string, o *ir.TypeRef, nnt *ir.Type, os, ns string) bool {
	ot, _ := resolved(w.old, o)
	if os != "map" || ns != "object" || ot == nil || ot.Elem == nil {
		return false
	}
	if et, _ := resolved(w.old, ot.Elem); et == nil || et.Kind != ir.KindAny {
		return false
	}
	switch {
	case dir == response:
		w.add(RuleWireTypeChanged, Compatible, subject, os, ns, "the answer is still an object, which the old client's map of any value takes")
	case slices.ContainsFunc(nnt.Fields, func(f *ir.Field) bool { return f.Required }):
		w.add(RuleWireTypeChanged, Breaking, subject, os, ns, "the object now requires properties the old client's map may lack")
	default:
		w.add(RuleWireTypeChanged, Compatible, subject, os, ns, "the object the old client sends is still one the new accepts: its properties are optional")
	}
	return true
}

// parameterWidened reports, and returns true for, a parameter whose
// value of shape os is still valid as a value of shape ns: written as
// text, a scalar is a string; one value is a list of one.
func (w *wire) parameterWidened(subject string, o, n *ir.TypeRef, os, ns string) bool {
	_, ont := resolved(w.old, o)
	nt, _ := resolved(w.new, n)
	if w.text && ns == "string" && w.textual(os, ont) {
		w.add(RuleWireTypeChanged, Compatible, subject, os, ns, "the parameter takes any text now: the old values are still strings")
		w.constraints(request, subject, o, n)
		return true
	}
	if w.parameterNarrowed(subject, o, n, ns) {
		return true
	}
	if !strings.Contains(subject, " parameter ") || nt == nil || nt.Kind != ir.KindArray || nt.Elem == nil {
		return false
	}
	et, ent := resolved(w.new, nt.Elem)
	if es := shape(et, ent); es != os && !(w.text && es == "string" && w.textual(os, ont)) {
		return false
	}
	w.add(RuleWireTypeChanged, Compatible, subject, os, ns, "the parameter takes a list now: one value is a list of one")
	// The list's own keywords are new; its items' follow the value's.
	w.constraints(request, subject, &ir.TypeRef{}, n)
	w.constraints(request, subject+"[]", o, nt.Elem)
	return true
}

// parameterNarrowed reports, and returns true for, a parameter that
// took a list and takes one value of its items' shape now (ns): a list
// of one is that value, written alike; a list of more may be refused,
// which is a warning.
func (w *wire) parameterNarrowed(subject string, o, n *ir.TypeRef, ns string) bool {
	ot, _ := resolved(w.old, o)
	nt, _ := resolved(w.new, n)
	if !strings.Contains(subject, " parameter ") || ot == nil || nt == nil || ot.Kind != ir.KindArray || ot.Elem == nil {
		return false
	}
	et, ent := resolved(w.old, ot.Elem)
	if es := shape(et, ent); es != ns && !(w.text && ns == "string" && w.textual(es, ent)) {
		return false
	}
	w.add(RuleWireTypeChanged, Warning, subject, "array", ns, "the parameter takes one value now: a list of one is that value, a list of more may be refused")
	w.constraints(request, subject, ot.Elem, n)
	w.nullable(request, subject, admitsNull(w.old, o, ot), admitsNull(w.new, n, nt))
	return true
}

// admitsNull reports whether null is valid in the use t of a type,
// resolved to rt: the IR's type, or a union's variant that names no
// type, says so, and no oneOf that null matches more than once refuses
// it.
func admitsNull(svc *ir.Service, t, rt *ir.TypeRef) bool {
	if rt == nil {
		return false
	}
	c, _ := useOf(svc, t)
	if c == nil || c.Unmodeled == nil {
		return rt.Nullable
	}
	return (rt.Nullable || c.Unmodeled.NullUntyped) && !c.Unmodeled.NullTwice
}

// nullable compares whether null is valid (on, nn) in two uses of a
// type.
func (w *wire) nullable(dir direction, subject string, on, nn bool) {
	if on == nn {
		return
	}
	switch {
	case dir == response && nn:
		w.add(RuleWireNullable, Breaking, subject, "not nullable", "nullable", "the answer may now be null where the old client expects a value")
	case dir == request && !nn:
		w.add(RuleWireNullable, Breaking, subject, "nullable", "not nullable", "null is no longer accepted")
	default:
		w.add(RuleWireNullable, Compatible, subject, nullText(on), nullText(nn), "")
	}
}

// namedPair compares two named types in direction dir once, and adds
// their changes at subject each time they are used.
func (w *wire) namedPair(dir direction, subject string, ont, nnt *ir.Type) {
	key := [3]string{ont.Name, nnt.Name, fmt.Sprint(dir, w.text)}
	changes, done := w.named[key]
	if !done {
		w.named[key] = nil
		sink := w.sink
		changes = []Change{}
		w.sink = &changes
		switch ont.Kind {
		case ir.TypeStruct:
			w.fields(dir, "", ont, nnt)
		case ir.TypeEnum:
			w.enum(dir, "", ont, nnt)
		case ir.TypeUnion:
			w.union(dir, "", ont, nnt)
		}
		w.sink = sink
		w.named[key] = changes
	}
	for _, c := range changes {
		c.Operation = w.op
		c.Subject = subject + c.Subject
		if w.sink != nil {
			*w.sink = append(*w.sink, c)
		} else {
			w.r.add(c)
		}
	}
}

// textual reports whether a value of shape s (the named type nt when
// not nil) is a scalar, or a union of scalars, which a parameter writes as
// text.
func (w *wire) textual(s string, nt *ir.Type) bool {
	if nt != nil && nt.Kind == ir.TypeUnion {
		for _, v := range nt.Union.Variants {
			rt, vt := resolved(w.old, v.Type)
			if !scalarShape(shape(rt, vt)) {
				return false
			}
		}
		return len(nt.Union.Variants) > 0
	}
	return scalarShape(s)
}

// scalarShape reports whether a shape is a boolean, number or string,
// of any format, or an enum of them.
func scalarShape(s string) bool {
	s, _, _ = strings.Cut(s, " (")
	switch strings.TrimSuffix(s, " enum") {
	case "boolean", "integer", "number", "string":
		return true
	}
	return false
}

// unionChange classifies a value that became one of the variants of the
// union it was (or the reverse, a union of which one variant is what it
// was); ok is false for any other change.
func (w *wire) unionChange(dir direction, os, ns string, ont, nnt *ir.Type) (Class, string, bool) {
	switch {
	case variantsOfShape(w.old, ont, ns) > 0 && dir == response:
		return Compatible, "the answer is now always one of the union's variants", true
	case variantsOfShape(w.old, ont, ns) > 0:
		return Breaking, "only one of the union's variants is accepted now", true
	case dir == request && w.ambiguous(os, ont, nnt):
		return Breaking, "the value must now match exactly one of the union's variants, and several may accept the old one: the old client's values may match more than one", true
	case variantsOfShape(w.new, nnt, os) > 0 && dir == request:
		return Compatible, "the value may now also be another variant of a union", true
	case variantsOfShape(w.new, nnt, os) > 0:
		return Breaking, "the answer may now be another variant of a union: the old client cannot decode it", true
	}
	return "", "", false
}

// variantsOfShape counts the variants of shape s of u, 0 when u is not
// a union.
func variantsOfShape(svc *ir.Service, u *ir.Type, s string) int {
	if u == nil || u.Kind != ir.TypeUnion {
		return 0
	}
	n := 0
	for _, v := range u.Union.Variants {
		if rt, nt := resolved(svc, v.Type); shape(rt, nt) == s {
			n++
		}
	}
	return n
}

// ambiguous reports whether a value of shape os (the named type ont
// when not nil) may match more than one variant of the oneOf nnt: two
// variants of its shape, needing none but the old struct's properties,
// or enums sharing a value (of the old enum's, when it was one).
func (w *wire) ambiguous(os string, ont, nnt *ir.Type) bool {
	if nnt == nil || nnt.Kind != ir.TypeUnion || !nnt.Union.OneOf {
		return false
	}
	n := 0
	var enums []*ir.Type
	for _, v := range nnt.Union.Variants {
		rt, vt := resolved(w.new, v.Type)
		switch {
		case shape(rt, vt) != os:
		case ont != nil && ont.Kind == ir.TypeStruct && vt != nil && vt.Kind == ir.TypeStruct && !needsOnly(vt, ont):
		case vt != nil && vt.Kind == ir.TypeEnum:
			enums = append(enums, vt)
		default:
			n++
		}
	}
	return n > 1 || shareValue(enums, ont)
}

// shareValue reports whether two of the enums have a value in common, of
// the values of old when it is an enum.
func shareValue(enums []*ir.Type, old *ir.Type) bool {
	seen := map[string]bool{}
	for _, e := range enums {
		for _, v := range distinct(e) {
			if old != nil && old.Kind == ir.TypeEnum && !slices.Contains(distinct(old), v) {
				continue
			}
			if seen[v] {
				return true
			}
			seen[v] = true
		}
	}
	return false
}

// needsOnly reports whether every property the struct v requires is a
// property of the struct old.
func needsOnly(v, old *ir.Type) bool {
	for _, f := range v.Fields {
		if f.Required && !slices.ContainsFunc(old.Fields, func(of *ir.Field) bool { return of.JSONName == f.JSONName }) {
			return false
		}
	}
	return true
}

// typeChange classifies a change of shape from o to n in direction dir:
// a value made an enum of the same base, or the reverse, narrows or
// widens what may travel, and so does a format changed on the same base
// (see [formatChange]); anything else breaks.
func typeChange(dir direction, o, n string) (Class, string) {
	base := func(s string) string {
		s, _, _ = strings.Cut(s, " (")
		return strings.TrimSuffix(s, " enum")
	}
	switch {
	case base(o) == "integer" && base(n) == "number" && dir == request:
		return Compatible, "any number is accepted now: integers still are"
	case base(o) == "number" && base(n) == "integer" && dir == response:
		return Compatible, "the answer is now always an integer, which is a number"
	case base(o) != base(n):
		return Breaking, "the type changed: the old client's values no longer match"
	case strings.HasSuffix(n, " enum") && !strings.HasSuffix(o, " enum"):
		if dir == request {
			return Breaking, "the value is now an enum: values outside it are refused"
		}
		return Compatible, "the answer is now one of an enum's values"
	case strings.HasSuffix(o, " enum") && !strings.HasSuffix(n, " enum"):
		if dir == request {
			return Compatible, "the value is no longer restricted to an enum"
		}
		return Breaking, "the answer is no longer restricted to an enum: it may hold values the old client was told it would not get"
	}
	format := func(s string) string {
		_, f, _ := strings.Cut(s, " (")
		return strings.TrimSuffix(f, ")")
	}
	return formatChange(dir, format(o), format(n))
}

// formatChange classifies a format of the same type changed from o to n
// (empty for none) in direction dir: a format set narrows what may
// travel, one removed or made wider (float to double, int32 to int64)
// widens it; a request breaks when narrowed, an answer when widened,
// and both when the format is another.
func formatChange(dir direction, o, n string) (Class, string) {
	wider := map[string][]string{"float": {"double"}, "int32": {"int64", "bigint"}, "int64": {"bigint"}}
	how := reshapes
	switch {
	case o == "" || slices.Contains(wider[n], o):
		how = narrows
	case n == "" || slices.Contains(wider[o], n):
		how = widens
	}
	switch {
	case how == reshapes:
		return Breaking, "the format changed: the values of one are not those of the other"
	case dir == request && how == narrows:
		return Breaking, "the format is stricter: values the old client sends may be refused"
	case dir == request:
		return Compatible, "the format is looser: what the old client sends is still accepted"
	case how == widens:
		return Breaking, "the format is looser: answers may hold values the old client was told it would not get"
	}
	return Compatible, "the format is stricter: answers stay within what the old client expects"
}

func nullText(b bool) string {
	if b {
		return "nullable"
	}
	return "not nullable"
}

func (w *wire) fields(dir direction, subject string, o, n *ir.Type) {
	old := map[string]*ir.Field{}
	for _, f := range o.Fields {
		old[f.JSONName] = f
	}
	seen := map[string]bool{}
	for _, nf := range n.Fields {
		seen[nf.JSONName] = true
		s := subject + ": property " + nf.JSONName
		of, ok := old[nf.JSONName]
		if !ok {
			switch {
			case dir == request && nf.Required && !(nf.ReadOnly && exempts(w.new)):
				w.add(RuleWirePropAdded, Breaking, s, "", "required", "a new required property: requests without it are rejected")
			default:
				w.add(RuleWirePropAdded, Compatible, s, "", requiredText(nf.Required), "a new property")
			}
			continue
		}
		w.field(dir, s, of, nf)
	}
	for _, of := range o.Fields {
		if seen[of.JSONName] {
			continue
		}
		s := subject + ": property " + of.JSONName
		switch {
		case dir == response && of.WriteOnly:
			w.add(RuleWirePropRemoved, Compatible, s, requiredText(of.Required), "", "a write-only property is gone: answers did not hold it")
		case dir == response && of.Required:
			w.add(RuleWirePropRemoved, Breaking, s, "required", "", "a required property of the answer is gone")
		case dir == response:
			w.add(RuleWirePropRemoved, Warning, s, "optional", "", "a property of the answer is gone: callers reading it get its zero value")
		default:
			w.add(RuleWirePropRemoved, Warning, s, requiredText(of.Required), "", "a property of the request is gone: the server ignores it, or rejects requests that send it")
		}
	}
}

// field compares two versions of the property at subject s: whether it
// is required, read-only or write-only, deprecated, and its type.
func (w *wire) field(dir direction, s string, of, nf *ir.Field) {
	w.requiredness(dir, s, of, nf)
	w.access(dir, s, of, nf)
	if !of.Deprecated && nf.Deprecated {
		w.add(RuleWireDeprecated, Compatible, s, "", "deprecated", "plan to stop using it")
	}
	if why := untravelled(dir, of, nf); why != "" {
		w.untravelledType(dir, s, why, of.Type, nf.Type)
		return
	}
	w.typeRef(dir, s, of.Type, nf.Type)
}

// requiredness compares whether two versions of a property are
// required: a request breaks when it must now send the property, an
// answer when it may now lack it, unless readOnly or writeOnly exempts
// the property that way (see [exempts]).
func (w *wire) requiredness(dir direction, s string, of, nf *ir.Field) {
	switch {
	case dir == request && !of.Required && nf.Required && !(nf.ReadOnly && exempts(w.new)):
		w.add(RuleWirePropRequired, Breaking, s, "optional", "required", "the property became required: requests without it are rejected")
	case dir == response && of.Required && !nf.Required && !(nf.WriteOnly && exempts(w.new)):
		w.add(RuleWirePropRequired, Breaking, s, "required", "optional", "the property became optional: an answer may now lack it")
	case of.Required != nf.Required:
		w.add(RuleWirePropRequired, Compatible, s, requiredText(of.Required), requiredText(nf.Required), "")
	}
}

// untravelled returns why the value of a property does not travel in
// the direction dir in either version (read-only in requests,
// write-only in answers); empty when it does.
func untravelled(dir direction, of, nf *ir.Field) string {
	switch {
	case dir == request && of.ReadOnly && nf.ReadOnly:
		return "the property is read-only: clients do not send it"
	case dir == response && of.WriteOnly && nf.WriteOnly:
		return "the property is write-only: answers do not hold it"
	}
	return ""
}

// untravelledType compares the types of a property whose value does not
// travel in the direction dir, for the reason why: what changed in it
// breaks nothing, so each breaking change or warning is reported as
// compatible, with why before its message.
func (w *wire) untravelledType(dir direction, s, why string, o, n *ir.TypeRef) {
	var found []Change
	sink := w.sink
	w.sink = &found
	w.typeRef(dir, s, o, n)
	w.sink = sink
	for _, c := range found {
		if c.Class == Breaking || c.Class == Warning {
			c.Class, c.Message = Compatible, strings.TrimSuffix(why+"; "+c.Message, "; ")
		}
		w.add(c.Rule, c.Class, c.Subject, c.Old, c.New, c.Message)
	}
}

// exempts reports whether a document's readOnly exempts a required
// property from requests, and its writeOnly from answers: OpenAPI 3.0
// says so; from 3.1 on, both are JSON Schema annotations, and required
// holds both ways.
func exempts(svc *ir.Service) bool {
	return !strings.HasPrefix(svc.OpenAPI, "3.") || strings.HasPrefix(svc.OpenAPI, "3.0")
}

// access compares the readOnly and writeOnly flags of a property: a
// required property of a request that is no longer read-only must now be
// sent, a required property of an answer that became write-only is no
// longer answered (OpenAPI 3.0, see [exempts]).
func (w *wire) access(dir direction, subject string, o, n *ir.Field) {
	ot, nt := accessText(o), accessText(n)
	if ot == nt {
		return
	}
	switch {
	case dir == request && o.Required && n.Required && o.ReadOnly && !n.ReadOnly && exempts(w.old):
		w.add(RuleWireReadOnly, Breaking, subject, ot, nt, "a required property is no longer read-only: requests without it are rejected")
	case dir == response && o.Required && n.Required && !o.WriteOnly && n.WriteOnly && exempts(w.new):
		w.add(RuleWireReadOnly, Breaking, subject, ot, nt, "a required property of the answer became write-only: answers lack it")
	default:
		w.add(RuleWireReadOnly, Compatible, subject, ot, nt, "")
	}
}

func accessText(f *ir.Field) string {
	switch {
	case f.ReadOnly && f.WriteOnly:
		return "read-only, write-only"
	case f.ReadOnly:
		return "read-only"
	case f.WriteOnly:
		return "write-only"
	}
	return ""
}

func requiredText(b bool) string {
	if b {
		return "required"
	}
	return "optional"
}

// distinct returns the values of an enum as text, each once.
func distinct(t *ir.Type) []string {
	var out []string
	for _, v := range t.Enum.Values {
		// A value written twice is one value.
		if s := fmt.Sprint(v.Value); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func (w *wire) enum(dir direction, subject string, o, n *ir.Type) {
	ov, nv := distinct(o), distinct(n)
	// replaced: no value the old client knows is answered any more (a
	// const changed, a one-value enum being one).
	replaced := len(nv) > 0 && !slices.ContainsFunc(ov, func(v string) bool { return slices.Contains(nv, v) })
	for _, v := range ov {
		if !slices.Contains(nv, v) {
			switch {
			case dir == request:
				w.add(RuleWireEnumRemoved, Breaking, subject, v, "", "an enum value the client may send is no longer accepted")
			case replaced:
				w.add(RuleWireEnumRemoved, Breaking, subject, v, "", "no value the old client knows is answered any more: every answer holds one it does not expect")
			default:
				w.add(RuleWireEnumRemoved, Compatible, subject, v, "", "an enum value is no longer answered")
			}
		}
	}
	for _, v := range nv {
		if !slices.Contains(ov, v) {
			if dir == response {
				w.add(RuleWireEnumAdded, Warning, subject, "", v, "a new enum value in answers: code that switches over the known values misses it")
			} else {
				w.add(RuleWireEnumAdded, Compatible, subject, "", v, "a new enum value is accepted")
			}
		}
	}
}

func (w *wire) union(dir direction, subject string, o, n *ir.Type) {
	pairs, removed, added := w.matchVariants(o, n)
	for _, p := range pairs {
		w.typeRef(dir, subject+" variant "+w.variantName(w.new, p[1]), p[0].Type, p[1].Type)
	}
	for _, v := range added {
		k := w.variantName(w.new, v)
		if dir == response {
			w.add(RuleWireTypeChanged, Breaking, subject, "", "variant "+k, "a new variant of the union in answers: the old client cannot decode it")
		} else {
			w.add(RuleWireTypeChanged, Compatible, subject, "", "variant "+k, "a new variant of the union is accepted")
		}
	}
	for _, v := range removed {
		k := w.variantName(w.old, v)
		if dir == request {
			w.add(RuleWireTypeChanged, Breaking, subject, "variant "+k, "", "a variant of the union is no longer accepted")
		} else {
			w.add(RuleWireTypeChanged, Compatible, subject, "variant "+k, "", "a variant of the union is no longer answered")
		}
	}
}

// variantName names a variant in the report: the named type it refers
// to, else its shape.
func (w *wire) variantName(svc *ir.Service, v *ir.Variant) string {
	if v.Type != nil && v.Type.Kind == ir.KindNamed {
		return v.Type.Name
	}
	rt, nt := resolved(svc, v.Type)
	return shape(rt, nt)
}

// variantPrint is what tells a variant apart from the others whatever
// its generated name (an inline variant's name is its position): its
// discriminator values, else the properties of an object with the
// values of those that are one-value enums (a "type": "x" marker), else
// its shape, with the print of its elements for a list or map.
func variantPrint(svc *ir.Service, v *ir.Variant) string {
	if len(v.Tags) > 0 {
		return "tags " + strings.Join(v.Tags, "|")
	}
	rt, nt := resolved(svc, v.Type)
	if rt != nil && (rt.Kind == ir.KindArray || rt.Kind == ir.KindMap) && rt.Elem != nil {
		// A list or map is told apart by what it holds.
		return shape(rt, nt) + " of " + variantPrint(svc, &ir.Variant{Type: rt.Elem})
	}
	if nt == nil || nt.Kind != ir.TypeStruct {
		return shape(rt, nt)
	}
	var parts []string
	for _, f := range nt.Fields {
		part := f.JSONName
		if _, ft := resolved(svc, f.Type); ft != nil && ft.Kind == ir.TypeEnum && len(ft.Enum.Values) == 1 {
			part += "=" + fmt.Sprint(ft.Enum.Values[0].Value)
		}
		parts = append(parts, part)
	}
	slices.Sort(parts)
	return "object " + strings.Join(parts, ",")
}

// matchVariants pairs the variants of two versions of a union, each
// round among those left and by a key unique in both: their print, their
// one-value enum markers, the named type they refer to, their shape; then
// the alike ones by their print, in their order; the rest were removed or
// added.
func (w *wire) matchVariants(o, n *ir.Type) (pairs [][2]*ir.Variant, removed, added []*ir.Variant) {
	oldLeft := slices.Clone(o.Union.Variants)
	newLeft := slices.Clone(n.Union.Variants)
	match := func(key func(*ir.Service, *ir.Variant) string, unique bool) {
		count := func(svc *ir.Service, vs []*ir.Variant) map[string]int {
			m := map[string]int{}
			for _, v := range vs {
				m[key(svc, v)]++
			}
			return m
		}
		oc, nc := count(w.old, oldLeft), count(w.new, newLeft)
		var keepNew []*ir.Variant
		for _, nv := range newLeft {
			k := key(w.new, nv)
			if k == "" || unique && (oc[k] != 1 || nc[k] != 1) {
				keepNew = append(keepNew, nv)
				continue
			}
			i := slices.IndexFunc(oldLeft, func(ov *ir.Variant) bool { return key(w.old, ov) == k })
			if i < 0 {
				keepNew = append(keepNew, nv)
				continue
			}
			pairs = append(pairs, [2]*ir.Variant{oldLeft[i], nv})
			oldLeft = slices.Delete(oldLeft, i, i+1)
		}
		newLeft = keepNew
	}
	match(variantPrint, true)
	// The one-value enum markers alone: a variant whose other properties
	// changed.
	match(func(svc *ir.Service, v *ir.Variant) string {
		var markers []string
		for _, part := range strings.Split(strings.TrimPrefix(variantPrint(svc, v), "object "), ",") {
			if strings.Contains(part, "=") {
				markers = append(markers, part)
			}
		}
		return strings.Join(markers, ",")
	}, true)
	match(func(svc *ir.Service, v *ir.Variant) string {
		if v.Type != nil && v.Type.Kind == ir.KindNamed {
			return "type " + v.Type.Name
		}
		return ""
	}, true)
	match(func(svc *ir.Service, v *ir.Variant) string {
		rt, nt := resolved(svc, v.Type)
		return shape(rt, nt)
	}, true)
	// Variants alike in both (two that only require a property each):
	// in their order.
	match(variantPrint, false)
	return pairs, oldLeft, newLeft
}
