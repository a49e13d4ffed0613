// Package annotations holds the resilience annotations that specs carry:
// the protobuf options of resilient/v1/resilient.proto (method, service and
// file options, with their generated Go code) and the JSON Schema of the
// OpenAPI extension x-resilience. Both use the vocabulary of the policy
// object described in package policyspec.
package annotations
