// Package api is the golden case api of oapi-resilient: one spec using
// everything a real API client needs, generated with no warning. Each
// documented answer has its own typed result (201 Job and 202 Ticket, a
// 304 for a conditional GET, 204 without a body) with its status, header
// and typed documented headers; formats have real types (uuid.UUID,
// codec.Date, time.Time, unsigned and sized integers, base64 bytes)
// and an optional nullable property tells absent from null; form and
// multipart bodies take the struct of their schema (a form nesting
// objects, maps, arrays of objects and a union as Stripe's, in deepObject
// brackets; multipart parts with their encoding's content type and
// declared headers), binary bodies an io.Reader; server-sent events and
// NDJSON come back as typed streams and a download as an io.ReadCloser,
// their documented headers typed beside them, and the route table marks
// them streamed; credentials of every kind go on the operations that
// require them, and the servers have variables.
// api_test.go shows each feature against an httptest server, spans
// recorded by an in-memory exporter included.
//
// openapi.yaml is the input; client.gen.go and review.md are the expected
// output, compared byte for byte by go test ./golden and rewritten by go
// test ./golden -update.
package api
