package openapi

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
)

// convertSwagger decodes a Swagger 2.0 document, the entry file's data
// as the loader is given it, and converts it to
// OpenAPI 3 with the loader, so that $refs to other files resolve
// relative to the entry file.
//
// Parameters and responses referenced from other files are read here
// first, in Swagger 2.0 shape: the converter would otherwise load them as
// OpenAPI 3 objects and drop their Swagger-only fields ("type",
// "collectionFormat"), leaving parameters without a schema.
func convertSwagger(src *source, entry *file, data []byte, loader *openapi3.Loader, location *url.URL) (*openapi3.T, error) {
	var doc2 openapi2.T
	if err := openapi2.UnmarshalFromData(data, &doc2); err != nil {
		return nil, err
	}
	refs := externalRefs{src: src, entry: entry}
	for _, item := range doc2.Paths {
		if err := refs.params(item.Parameters); err != nil {
			return nil, err
		}
		for _, op := range item.Operations() {
			if err := refs.operation(op); err != nil {
				return nil, err
			}
		}
	}
	return openapi2conv.ToV3WithLoader(&doc2, loader, location)
}

// externalRefs reads the objects that $refs of the entry file name in
// other files, in Swagger 2.0 shape, and puts them in place of the $refs.
type externalRefs struct {
	src   *source
	entry *file
}

// inline decodes into the object ref names when it is in another file,
// and reports whether it is.
func (x externalRefs) inline(ref string, into any) (bool, error) {
	if ref == "" || strings.HasPrefix(ref, "#") {
		return false, nil
	}
	return true, x.src.decodeRef(x.entry, ref, into)
}

// operation replaces the external $refs of the parameters and responses
// of op.
func (x externalRefs) operation(op *openapi2.Operation) error {
	if err := x.params(op.Parameters); err != nil {
		return err
	}
	if op.Responses == nil {
		return nil
	}
	for code, r := range op.Responses.Map() {
		var resolved openapi2.Response
		if ok, err := x.inline(r.Ref, &resolved); err != nil {
			return err
		} else if ok {
			op.Responses.Set(code, &resolved)
		}
	}
	return nil
}

// params replaces the external $refs of params.
func (x externalRefs) params(params openapi2.Parameters) error {
	for i, p := range params {
		if p == nil {
			continue
		}
		var resolved openapi2.Parameter
		if ok, err := x.inline(p.Ref, &resolved); err != nil {
			return err
		} else if ok {
			params[i] = &resolved
		}
	}
	return nil
}

// decodeRef decodes the node an external $ref written in from points to.
func (s *source) decodeRef(from *file, ref string, into any) error {
	u, err := url.Parse(ref)
	if err != nil {
		return err
	}
	rel, ok := s.rel(path.Join(path.Dir(from.display), u.Path))
	if !ok {
		return fmt.Errorf("$ref %q leaves the spec's folder", ref)
	}
	f := s.open(rel)
	if f.root == nil {
		return fmt.Errorf("$ref %q: %v", ref, f.err)
	}
	node, found := lookup(f.root, u.Fragment)
	if !found {
		return fmt.Errorf("$ref %q does not resolve", ref)
	}
	var v any
	if err := node.Decode(&v); err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}
