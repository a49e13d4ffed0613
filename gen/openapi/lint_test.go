package openapi

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWireNameRules: header and cookie names, and the media types the
// client sends, are refused when they could not be sent as written; an
// invalid media type beside a valid one is left out.
func TestWireNameRules(t *testing.T) {
	got := buildOnly(t, head+`paths:
  /a:
    post:
      operationId: postA
      parameters:
        - {name: "X-Evil\r\nInjected", in: header, schema: {type: string}}
        - {name: "X:Y", in: header, schema: {type: string}}
        - {name: "a;b", in: cookie, schema: {type: string}}
        - {name: "X-Fine_1", in: header, schema: {type: string}}
        - {name: "sid", in: cookie, schema: {type: string}}
        - {name: "q;r", in: query, schema: {type: string}}
      requestBody:
        content:
          "text/plain\r\nX-Injected: 1": {schema: {type: string}}
          "application/json; charset=utf-8": {schema: {type: string}}
      responses:
        "200":
          description: ok
          content:
            "application/json; charset": {schema: {type: string}}
        "404":
          description: not found
          content:
            "text/x:y": {schema: {type: string}}
`)
	want := []string{
		`specs/api.yaml:18:11: W-MEDIA-TYPE: media type "text/plain\r\nX-Injected: 1" is not a valid media type; the client leaves it out and uses "application/json; charset=utf-8" (#/paths/~1a/post/requestBody/content/text~1plain…); write type/subtype with optional "; name=value" parameters, such as "application/json; charset=utf-8"`,
		`specs/api.yaml:10:12: E-HEADER-NAME: header parameter name "X-Evil\r\nInjected" is not an HTTP token; sent as written it would break the request (#/paths/~1a/post/parameters/0); use only letters, digits and !#$%&'*+-.^_` + "`" + `|~ in the name`,
		`specs/api.yaml:11:12: E-HEADER-NAME: header parameter name "X:Y" is not an HTTP token; sent as written it would break the request (#/paths/~1a/post/parameters/1); use only letters, digits and !#$%&'*+-.^_` + "`" + `|~ in the name`,
		`specs/api.yaml:12:12: E-HEADER-NAME: cookie parameter name "a;b" is not an HTTP token; sent as written it would break the request (#/paths/~1a/post/parameters/2); use only letters, digits and !#$%&'*+-.^_` + "`" + `|~ in the name`,
		`specs/api.yaml:24:13: E-MEDIA-TYPE: media type "application/json; charset" is not a valid media type; the client would send it as written in a header (#/paths/~1a/post/responses/200/content/application~1json; charset); write type/subtype with optional "; name=value" parameters, such as "application/json; charset=utf-8"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
	}
}

// TestEnumRange: an integer enum with a value beyond 32 bits becomes an
// int64, with a warning, instead of constants that do not compile.
func TestEnumRange(t *testing.T) {
	got := buildOnly(t, head+`paths: {}
components:
  schemas:
    Small: {type: integer, format: int32, enum: [1, 2147483647, -2147483648]}
    Big: {type: integer, format: int32, enum: [1, 3000000000]}
    Plain: {type: integer, enum: [-5000000000]}
    Wide: {type: integer, format: int64, enum: [9000000000000000000]}
`)
	want := []string{
		`specs/api.yaml:9:5: W-ENUM-RANGE: enum Big has format int32 but the value 3000000000 does not fit in 32 bits; its Go type is int64 (#/components/schemas/Big); declare format: int64, or remove the value`,
		`specs/api.yaml:10:5: W-ENUM-RANGE: enum Plain has no format (Go int, 32 bits on some platforms) but the value -5000000000 does not fit in 32 bits; its Go type is int64 (#/components/schemas/Plain); declare format: int64, or remove the value`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
	}
}

// TestConfusableOperationIDs: operationIds that differ only in letters
// of another script that look Latin are named together in a warning.
func TestConfusableOperationIDs(t *testing.T) {
	got := buildOnly(t, head+`paths:
  /a:
    get:
      operationId: getUser
      responses: {"204": {description: ok}}
  /b:
    get:
      operationId: getUsеr
      responses: {"204": {description: ok}}
  /c:
    get:
      operationId: gеtUsеr
      responses: {"204": {description: ok}}
  /d:
    get:
      operationId: getUsers
      responses: {"204": {description: ok}}
`)
	want := []string{
		`specs/api.yaml:11:5: W-OPID-CONFUSABLE: operationId "getUsеr" (GET /b) looks like operationId "getUser" (GET /a): they differ only in look-alike letters ("е" is U+0435) (#/paths/~1b/get); rename one of them with letters that look different`,
		`specs/api.yaml:15:5: W-OPID-CONFUSABLE: operationId "gеtUsеr" (GET /c) looks like operationId "getUser" (GET /a): they differ only in look-alike letters ("е" is U+0435) (#/paths/~1c/get); rename one of them with letters that look different`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
	}
}

// TestEmptyMediaType: an entry of content under the empty media type is
// left out with a located warning, whether a valid entry stands beside it
// or not, instead of failing the operation.
func TestEmptyMediaType(t *testing.T) {
	got := buildOnly(t, head+`paths:
  /a:
    delete:
      operationId: deleteA
      requestBody:
        content:
          "": {schema: {type: object, properties: {hash: {type: string}}}}
      responses: {"204": {description: ok}}
  /b:
    post:
      operationId: postB
      requestBody:
        content:
          "": {schema: {type: string}}
          application/json: {schema: {type: string}}
      responses: {"204": {description: ok}}
`)
	want := []string{
		`specs/api.yaml:11:11: W-MEDIA-TYPE: media type "" is empty; the client leaves its entry out, and with no other entry there is no body (#/paths/~1a/delete/requestBody/content/); name the media type of the entry, such as "application/json"`,
		`specs/api.yaml:18:11: W-MEDIA-TYPE: media type "" is empty; the client leaves its entry out and uses "application/json" (#/paths/~1b/post/requestBody/content/); name the media type of the entry, such as "application/json"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
	}
}
