package openapi

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// operations builds every operation, sorted by path then method.
func (b *builder) operations() []*ir.Operation {
	paths := b.doc.T.Paths
	if paths == nil {
		return nil
	}
	keys := paths.Keys()
	slices.Sort(keys)
	var out []*ir.Operation
	for _, path := range keys {
		item := paths.Value(path)
		if item == nil {
			continue
		}
		itemPtr := pointer("#/paths", path)
		b.checkPathTemplate(path)
		layer := b.resilience(ir.LevelPathItem, item.Extensions, item.Origin, itemPtr)
		ops := item.Operations()
		for _, method := range sortedKeys(ops) {
			if op := b.operation(path, method, item, ops[method], layer); op != nil {
				out = append(out, op)
			}
		}
	}
	return out
}

// operation builds one operation; nil when it cannot be named.
func (b *builder) operation(path, method string, item *openapi3.PathItem, op *openapi3.Operation, layer []ir.PolicyLayer) *ir.Operation {
	method = strings.ToUpper(method)
	ptr := pointer("#/paths", path, strings.ToLower(method))
	o := &ir.Operation{
		ID:          op.OperationID,
		Method:      method,
		Path:        path,
		Summary:     op.Summary,
		Description: op.Description,
		Tags:        op.Tags,
		Deprecated:  op.Deprecated,
		Secured:     secured(b.doc.T.Security, op.Security),
		Idempotency: ir.MethodIdempotency(method),
		Location:    b.doc.locate(op.Origin, ptr),
	}
	o.Name = b.operationName(o, op.Extensions)
	if o.Name == "" {
		return nil
	}
	o.Security = b.security(op.Security)
	o.Resilience = append(slices.Clone(layer), b.resilience(ir.LevelOperation, op.Extensions, op.Origin, ptr)...)
	o.Params = b.params(o, item.Parameters, op.Parameters, ptr)
	b.checkPathVariables(o)
	if op.RequestBody != nil && op.RequestBody.Value != nil && !nothingToSend(op.RequestBody.Value) {
		o.Body = b.requestBody(o, op.RequestBody, ptr+"/requestBody")
	}
	if op.Responses != nil {
		o.Responses = b.responses(o, op.Responses.Map(), ptr+"/responses")
	}
	return o
}

// operationName names an operation from x-go-name, its operationId, or its
// method and path, and claims the name.
func (b *builder) operationName(o *ir.Operation, ext map[string]any) string {
	var name, owner string
	switch {
	case hasGoName(b, ext) || o.ID != "":
		name = b.goName(ext, o.ID, "Op", o.Location, fmt.Sprintf("operationId %q", o.ID))
		owner = fmt.Sprintf("operationId %q (%s %s)", o.ID, o.Method, o.Path)
		if o.ID == "" {
			owner = fmt.Sprintf("x-go-name of %s %s", o.Method, o.Path)
		}
	default:
		var ok bool
		name, ok = naming.FromPath(o.Method, o.Path)
		owner = fmt.Sprintf("%s %s (no operationId)", o.Method, o.Path)
		msg := fmt.Sprintf("operation %s %s has no operationId", o.Method, o.Path)
		switch {
		case !ok:
			b.diags.Errorf(o.Location, diag.RuleNameInvalid, msg+" and no name can be derived from its path", "add an operationId")
			return ""
		case b.opts.Strict:
			b.diags.Errorf(o.Location, diag.RuleNoOpID, msg, "add an operationId or build without strict mode")
		default:
			b.diags.Warnf(o.Location, diag.RuleNoOpIDWarning, msg+"; named "+name, "add an operationId to choose the method name")
		}
	}
	if name == "" {
		return ""
	}
	if prev, ok := b.ops.claim(name, owner); !ok {
		renamed, why := b.ops.rename(name, "Op", prev, owner)
		if prev == reservedOwner {
			why = "the generated Client has a method " + name
		}
		b.diags.Warnf(o.Location, diag.RuleNameRenamed, fmt.Sprintf("the method of %s is named %s: %s", owner, renamed, why),
			"choose another method name with x-go-name on the operation")
		o.Renamed = why
		return renamed
	}
	return name
}

// params merges path item and operation parameters (the operation's win)
// and orders them: path parameters in template order, then query, header
// and cookie parameters in document order.
func (b *builder) params(o *ir.Operation, itemParams, opParams openapi3.Parameters, opPtr string) []*ir.Param {
	var merged []paramEntry
	merged = mergeParams(merged, itemParams, opPtr[:strings.LastIndex(opPtr, "/")])
	merged = mergeParams(merged, opParams, opPtr)

	rawPath, rawQuery, _ := ir.CutQuery(o.Path)
	// The variables of the template's query ("?lat={lat}") take the
	// parameter of their name, whatever its in:, the one in: query first,
	// and send it in the query under the pair's key.
	_, vars, _ := ir.TemplateQuery(rawQuery)
	queryKey, missing := bindQueryVars(merged, vars)
	idents := newNamespace()
	var out []*ir.Param
	for _, i := range paramOrder(merged, queryKey, pathParamOrder(rawPath)) {
		out = append(out, b.param(o, merged[i].ref, merged[i].ptr, queryKey[i], idents))
	}
	for _, v := range missing {
		out = append(out, b.templateQueryParam(o, v, opPtr, idents))
	}
	return out
}

// paramEntry is a parameter and its place in the document.
type paramEntry struct {
	ref *openapi3.ParameterRef
	ptr string
}

// mergeParams returns merged with params, written at base, added: one of
// the name and place (in:) of a parameter already there replaces it.
func mergeParams(merged []paramEntry, params openapi3.Parameters, base string) []paramEntry {
	for i, pr := range params {
		if pr == nil || pr.Value == nil {
			continue
		}
		e := paramEntry{pr, fmt.Sprintf("%s/parameters/%d", base, i)}
		if j := slices.IndexFunc(merged, func(x paramEntry) bool {
			return x.ref.Value.Name == pr.Value.Name && x.ref.Value.In == pr.Value.In
		}); j >= 0 {
			merged[j] = e
			continue
		}
		merged = append(merged, e)
	}
	return merged
}

// bindQueryVars gives each variable of the template's query the
// parameter of merged of its name, the one in: query first, and returns,
// by parameter, the query key it is sent under ("" for none), and the
// variables no parameter took.
func bindQueryVars(merged []paramEntry, vars []ir.QueryVar) (queryKey []string, missing []ir.QueryVar) {
	queryKey = make([]string, len(merged))
	for _, v := range vars {
		best := -1
		for i, e := range merged {
			if e.ref.Value.Name == v.Var && queryKey[i] == "" && (best < 0 || inRank(e.ref.Value.In) < inRank(merged[best].ref.Value.In)) {
				best = i
			}
		}
		if best < 0 {
			missing = append(missing, v)
			continue
		}
		queryKey[best] = v.Key
	}
	return queryKey, missing
}

// paramOrder returns the indexes of merged in the order of the
// parameters: path parameters in the order of the template's variables,
// then query (those bound to a query key included), header and cookie
// parameters, each in document order.
func paramOrder(merged []paramEntry, queryKey, template []string) []int {
	in := func(i int) string {
		if queryKey[i] != "" {
			return openapi3.ParameterInQuery
		}
		return merged[i].ref.Value.In
	}
	order := make([]int, len(merged))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		gx, gy := inRank(in(x)), inRank(in(y))
		ix, iy := 0, 0
		if gx == 0 {
			ix, iy = slices.Index(template, merged[x].ref.Value.Name), slices.Index(template, merged[y].ref.Value.Name)
		}
		return cmp.Or(cmp.Compare(gx, gy), cmp.Compare(ix, iy))
	})
	return order
}

// inRank orders the places of parameters: path, query, header, cookie.
func inRank(in string) int {
	switch in {
	case openapi3.ParameterInPath:
		return 0
	case openapi3.ParameterInQuery:
		return 1
	case openapi3.ParameterInHeader:
		return 2
	}
	return 3
}

// templateQueryParam declares the optional string query parameter that a
// variable of the template's query names when the operation declares no
// parameter of that name, with a warning.
func (b *builder) templateQueryParam(o *ir.Operation, v ir.QueryVar, opPtr string, idents *namespace) *ir.Param {
	p := &ir.Param{
		Name:     v.Key,
		Ident:    idents.derive(exportedOr(v.Var, "Param"), opPtr+"/"+v.Var),
		In:       ir.InQuery,
		Type:     &ir.TypeRef{Kind: ir.KindString},
		Style:    ir.StyleForm,
		Explode:  true,
		Location: o.Location,
	}
	b.diags.Warnf(o.Location, rulePathQuery,
		fmt.Sprintf("operation %s %s declares no parameter %q for its query variable {%s}; the client gives it an optional string query parameter %s, sent as %s=<value> when set", o.Method, o.Path, v.Var, v.Var, p.Ident, v.Key),
		fmt.Sprintf("declare the parameter with name: %s, in: query", v.Var))
	return p
}

// param builds one parameter.
//
// A parameter that a variable of the template's query names (queryKey
// not empty) is sent in the query under queryKey. Declared in: path (or
// header, or cookie), it keeps whether it is required, and is sent as the
// template's text would be: style form, not exploded ("a,b" for a list).
func (b *builder) param(o *ir.Operation, pr *openapi3.ParameterRef, ptr, queryKey string, idents *namespace) *ir.Param {
	p := pr.Value
	ident := exportedOr(p.Name, "Param")
	if v, _ := b.xGoName(p.Extensions); v != nil && naming.IsValid(fmt.Sprint(v)) {
		ident = fmt.Sprint(v)
	}
	if _, taken := idents.owners[ident]; taken {
		ident = naming.Part(p.In) + ident
	}
	out := &ir.Param{
		Name:          p.Name,
		Ident:         idents.derive(ident, ptr),
		In:            paramIn(p.In),
		Required:      p.Required || p.In == openapi3.ParameterInPath,
		AllowReserved: p.AllowReserved,
		Doc:           p.Description,
		Deprecated:    p.Deprecated,
		Location:      b.doc.locate(p.Origin, ptr),
	}
	hint := o.Name + ident
	if pr.Ref != "" {
		hint = exportedOr(refName(pr.Ref), hint)
	}
	switch {
	case p.Schema != nil:
		out.Type = b.typeOf(p.Schema, hint, ptr+"/schema")
	case len(p.Content) > 0:
		mt := sortedKeys(p.Content)[0]
		out.ContentType = mt
		out.Type = b.typeOf(p.Content[mt].Schema, hint, pointer(ptr, "content", mt, "schema"))
	default:
		out.Type = &ir.TypeRef{Kind: ir.KindString}
	}
	if sm, err := p.SerializationMethod(); err == nil {
		out.Style, out.Explode = paramStyle(sm.Style), sm.Explode
	}
	if queryKey != "" {
		out.Name = queryKey
		if out.In != ir.InQuery {
			out.In, out.Style, out.Explode = ir.InQuery, ir.StyleForm, false
		}
	}
	b.checkWireName(out)
	return out
}

func paramIn(in string) ir.In {
	switch in {
	case openapi3.ParameterInPath:
		return ir.InPath
	case openapi3.ParameterInQuery:
		return ir.InQuery
	case openapi3.ParameterInHeader:
		return ir.InHeader
	}
	return ir.InCookie
}

func paramStyle(s string) ir.Style {
	switch s {
	case openapi3.SerializationForm:
		return ir.StyleForm
	case openapi3.SerializationLabel:
		return ir.StyleLabel
	case openapi3.SerializationMatrix:
		return ir.StyleMatrix
	case openapi3.SerializationSpaceDelimited:
		return ir.StyleSpaceDelimited
	case openapi3.SerializationPipeDelimited:
		return ir.StylePipeDelimited
	case openapi3.SerializationDeepObject:
		return ir.StyleDeepObject
	}
	return ir.StyleSimple
}

// pathParamOrder lists the parameter names of a path template in order.
func pathParamOrder(path string) []string {
	var names []string
	for {
		i := strings.IndexByte(path, '{')
		if i < 0 {
			return names
		}
		j := strings.IndexByte(path[i:], '}')
		if j < 0 {
			return names
		}
		names = append(names, path[i+1:i+j])
		path = path[i+j+1:]
	}
}

func hasGoName(b *builder, ext map[string]any) bool {
	_, ok := b.xGoName(ext)
	return ok
}

// secured reports whether an operation's requests carry credentials: by
// its own security requirements when it has them (security: [] turns the
// document's off), else by the document's. A requirement object without
// schemes ({}) alone means anonymous access; beside one that names a
// scheme, some callers send credentials.
func secured(document openapi3.SecurityRequirements, own *openapi3.SecurityRequirements) bool {
	reqs := document
	if own != nil {
		reqs = *own
	}
	for _, r := range reqs {
		if len(r) > 0 {
			return true
		}
	}
	return false
}
