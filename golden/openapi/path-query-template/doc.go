// Package pathquerytemplate is the golden case path-query-template of
// oapi-resilient: a path template with variables after its "?"
// ("/alerts?lat={lat}&lon={lon}", as some published specs write query
// parameters) is sent as the path before the "?" and a query whose values
// come from the parameters of those names, whatever in: they were declared
// with, escaped as query values; fixed pairs are sent as written, and a
// variable without a parameter gets an optional one; generation warns
// W-PATH-QUERY for each. client_test.go checks what a server receives,
// hostile values included, and that the route table matches such
// requests.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package pathquerytemplate
