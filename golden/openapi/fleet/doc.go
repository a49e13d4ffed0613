// Package fleet is the golden case fleet of oapi-resilient: a document
// fleet block puts the breaker and the retry budget in Redis, shared by the
// replicas: the policy literal carries the store and the prefix, the
// client gains a WithFleet option that takes a redis.UniversalClient, and
// the review says "fleet (redis)".
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package fleet
