// Package forms is the golden case forms of oapi-resilient: a form body
// nesting every shape a schema can (arrays of arrays, maps of arrays of
// a recursive struct, nullable elements and properties, raw and base64
// bytes, a free-form value, a union, an object declared style form
// without explode), all typed, encoded without reflection in deepObject
// brackets, and its locals kept apart from path and query parameters
// named like them (v, vv). forms_test.go sends it to an httptest server
// and checks every pair.
//
// openapi.yaml is the input; client.gen.go and review.md are the expected
// output, compared byte for byte by go test ./golden and rewritten by go
// test ./golden -update.
package forms
