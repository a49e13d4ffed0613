package openapi

import (
	"cmp"
	"mime"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
)

// requestBody builds an operation's request body. Inline schemas are named
// after the operation ("CreatePetRequest") or the referenced component.
func (b *builder) requestBody(o *ir.Operation, rr *openapi3.RequestBodyRef, ptr string) *ir.RequestBody {
	rb := rr.Value
	hint := o.Name + "Request"
	if rr.Ref != "" {
		hint = exportedOr(refName(rr.Ref), hint)
	}
	body := &ir.RequestBody{
		Required: rb.Required,
		Doc:      rb.Description,
		Contents: b.contents(rb.Content, hint, ptr),
		Location: b.doc.locate(rb.Origin, ptr),
	}
	body.Contents = b.checkMediaTypes(body.Contents)
	return body
}

// nothingToSend reports whether an optional request body can hold
// nothing: every media type is a form (urlencoded or multipart) whose
// schema is an object without properties that allows no other
// (additionalProperties: false), as Stripe writes the bodies of its GET
// and DELETE operations. The operation then has no body: a client would
// only ever send an empty one.
func nothingToSend(rb *openapi3.RequestBody) bool {
	if rb.Required || len(rb.Content) == 0 {
		return false
	}
	for mt, media := range rb.Content {
		if k := contentKind(mt); k != ir.ContentForm && k != ir.ContentMultipart {
			return false
		}
		if media == nil || media.Schema == nil || media.Schema.Value == nil || !isEmptyObject(media.Schema.Value) {
			return false
		}
	}
	return true
}

// isEmptyObject reports whether the schema s is an object without
// properties or subschemas that allows no other properties
// (additionalProperties: false).
func isEmptyObject(s *openapi3.Schema) bool {
	if s.Type != nil && !s.Type.Is(openapi3.TypeObject) || len(s.Properties) > 0 || len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 {
		return false
	}
	ap := s.AdditionalProperties
	return ap.Schema == nil && ap.Has != nil && !*ap.Has
}

// responses builds an operation's responses, sorted by status.
func (b *builder) responses(o *ir.Operation, m map[string]*openapi3.ResponseRef, ptr string) []*ir.Response {
	statuses := sortedKeys(m)
	slices.SortFunc(statuses, func(x, y string) int { return cmp.Compare(statusRank(x), statusRank(y)) })
	successes := 0
	for _, s := range statuses {
		if (&ir.Response{Status: s}).IsSuccess() {
			successes++
		}
	}
	var out []*ir.Response
	for _, status := range statuses {
		rr := m[status]
		if rr == nil || rr.Value == nil {
			continue
		}
		r := &ir.Response{Status: status, Location: b.doc.locate(rr.Value.Origin, pointer(ptr, status))}
		if rr.Value.Description != nil {
			r.Doc = *rr.Value.Description
		}
		hint := o.Name + naming.Part(status) + "Response"
		if r.IsSuccess() && successes == 1 {
			hint = o.Name + "Response"
		}
		if rr.Ref != "" {
			hint = exportedOr(refName(rr.Ref), hint)
			if !strings.HasSuffix(hint, "Response") {
				hint += "Response"
			}
		}
		respPtr := pointer(ptr, status)
		r.Contents = b.contents(rr.Value.Content, hint, respPtr)
		if r.IsSuccess() {
			r.Contents = b.checkMediaTypes(r.Contents)
		}
		r.Headers = b.headers(rr.Value.Headers, hint, respPtr)
		out = append(out, r)
	}
	return out
}

// statusRank orders statuses: codes ascending, then ranges, then default.
func statusRank(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	if len(s) == 3 && s[0] >= '1' && s[0] <= '5' {
		return 1000 + int(s[0]-'0')
	}
	return 2000
}

// contents builds the media types of a body, JSON first, then by name.
func (b *builder) contents(c openapi3.Content, hint, ptr string) []*ir.Content {
	var out []*ir.Content
	for _, mt := range jsonFirst(sortedKeys(c)) {
		out = append(out, b.content(mt, c[mt], hint, pointer(ptr, "content", mt)))
	}
	return out
}

// jsonFirst moves the JSON media types of types before the others,
// keeping their order otherwise, and returns types.
func jsonFirst(types []string) []string {
	slices.SortStableFunc(types, func(x, y string) int {
		jx, jy := contentKind(x) == ir.ContentJSON, contentKind(y) == ir.ContentJSON
		if jx != jy {
			if jx {
				return -1
			}
			return 1
		}
		return 0
	})
	return types
}

// content builds the media type mt of a body, which media describes
// (nil for nothing), at ptr: its type as its kind reads it, and the
// encoding of a form or multipart body.
func (b *builder) content(mt string, media *openapi3.MediaType, hint, ptr string) *ir.Content {
	ct := &ir.Content{MediaType: mt, Kind: contentKind(mt)}
	if media != nil {
		ct.Location = b.doc.locate(media.Origin, ptr)
	}
	switch ct.Kind {
	case ir.ContentBinary:
		ct.Type = binaryType(mediaSchema(media))
	case ir.ContentText:
		ct.Type = textType(mediaSchema(media))
	case ir.ContentEventStream, ir.ContentJSONLines, ir.ContentJSONSeq:
		ct.Type = b.itemType(ct.Kind, media, hint, ptr)
	default:
		var schema *openapi3.SchemaRef
		if media != nil {
			schema = media.Schema
		}
		ct.Type = b.typeOf(schema, hint, ptr+"/schema")
		if media != nil && (ct.Kind == ir.ContentForm || ct.Kind == ir.ContentMultipart) {
			ct.Encoding = b.encodings(media.Encoding, hint, ptr)
		}
	}
	return ct
}

// mediaSchema returns the schema of a media type; nil when it has none.
func mediaSchema(media *openapi3.MediaType) *openapi3.Schema {
	if media == nil || media.Schema == nil {
		return nil
	}
	return media.Schema.Value
}

// binaryType returns the type of a body sent and read as bytes, whose
// schema s (nil for none) its type carries whole.
func binaryType(s *openapi3.Schema) *ir.TypeRef {
	t := &ir.TypeRef{Kind: ir.KindBinary}
	if s != nil {
		t.Constraints = withUnmodeled(nil, textUnmodeled(s, true))
	}
	return t
}

// textType returns the type of a body sent and read as text, a string
// checked as the value its schema s (nil for none) writes.
func textType(s *openapi3.Schema) *ir.TypeRef {
	t := &ir.TypeRef{Kind: ir.KindString}
	if s != nil {
		t.Constraints, t.Default = constraintsOf(s, schemaFamilies(s)), defaultOf(s)
		t.Constraints = withUnmodeled(t.Constraints, textUnmodeled(s, false))
	}
	return t
}

// itemType returns the type of one item of a stream: the itemSchema
// (OpenAPI 3.2), else the items of an array schema, else the schema. An
// event without a schema is text; a JSON item without one is any JSON.
func (b *builder) itemType(kind ir.ContentKind, media *openapi3.MediaType, hint, ptr string) *ir.TypeRef {
	switch {
	case media != nil && media.ItemSchema != nil:
		return b.typeOf(media.ItemSchema, hint, ptr+"/itemSchema")
	case media == nil || media.Schema == nil || media.Schema.Value == nil:
		if kind == ir.ContentEventStream {
			return &ir.TypeRef{Kind: ir.KindString}
		}
		return &ir.TypeRef{Kind: ir.KindAny}
	case media.Schema.Ref == "" && media.Schema.Value.Type.Is(openapi3.TypeArray) && media.Schema.Value.Items != nil:
		return b.typeOf(media.Schema.Value.Items, hint+"Item", ptr+"/schema/items")
	}
	return b.typeOf(media.Schema, hint, ptr+"/schema")
}

// encodings builds the encoding object of a form or multipart body.
func (b *builder) encodings(m map[string]*openapi3.Encoding, hint, ptr string) []*ir.Encoding {
	var out []*ir.Encoding
	for _, name := range sortedKeys(m) {
		e := m[name]
		if e == nil {
			continue
		}
		eptr := pointer(ptr, "encoding", name)
		enc := &ir.Encoding{Property: name, ContentType: e.ContentType, Style: ir.StyleForm, Explode: true,
			Location: b.doc.locate(e.Origin, eptr)}
		if sm := e.SerializationMethod(); sm != nil {
			enc.Style, enc.Explode = paramStyle(sm.Style), sm.Explode
		}
		enc.Headers = b.headers(e.Headers, hint+exportedOr(name, "Part"), eptr)
		out = append(out, enc)
	}
	return out
}

// headers builds a response's documented headers, sorted by name.
func (b *builder) headers(h openapi3.Headers, hint, ptr string) []*ir.Header {
	idents := newNamespace()
	var out []*ir.Header
	for _, name := range sortedKeys(h) {
		hr := h[name]
		if hr == nil || hr.Value == nil {
			continue
		}
		hptr := pointer(ptr, "headers", name)
		ident := idents.derive(exportedOr(name, "Header"), hptr)
		out = append(out, &ir.Header{
			Name:     name,
			Ident:    ident,
			Required: hr.Value.Required,
			Type:     b.typeOf(hr.Value.Schema, hint+ident, hptr+"/schema"),
			Doc:      hr.Value.Description,
			Location: b.doc.locate(hr.Value.Origin, hptr),
		})
	}
	return out
}

// contentKind classifies a media type.
func contentKind(mediaType string) ir.ContentKind {
	base, _, err := mime.ParseMediaType(mediaType)
	if err != nil {
		base = strings.ToLower(strings.TrimSpace(mediaType))
	}
	switch {
	case base == "application/json" || strings.HasSuffix(base, "+json") || base == "text/json":
		return ir.ContentJSON
	case base == "application/x-www-form-urlencoded":
		return ir.ContentForm
	case base == "text/event-stream":
		return ir.ContentEventStream
	case base == "application/x-ndjson" || base == "application/jsonl" || base == "application/x-jsonlines" ||
		base == "application/jsonlines" || base == "application/x-json-stream":
		return ir.ContentJSONLines
	case base == "application/json-seq":
		return ir.ContentJSONSeq
	case strings.HasPrefix(base, "multipart/"):
		return ir.ContentMultipart
	case strings.HasPrefix(base, "text/"):
		return ir.ContentText
	}
	return ir.ContentBinary
}
