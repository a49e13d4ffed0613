// Package golden holds the generators' golden cases: inputs and the exact
// generated output expected from them, compared byte for byte by the tests
// of this package. Run "go test ./golden -update" to rewrite the expected
// output after an intended change, and review the diff.
//
// Each case is a folder, and a package of this module, so that go build
// and go vet check the expected output as they check any code:
//
//	openapi/<case>/  openapi.yaml, optional policy.yaml (input);
//	                 client.gen.go, review.md (expected output)
//	proto/<case>/    *.proto, optional policy.yaml (input);
//	                 *_resilient.pb.go, review.md (expected output), beside
//	                 protoc-gen-go's and protoc-gen-go-grpc's output
//
// Every case has a doc.go whose package comment says what the case proves;
// some have hand-written tests of the expected client (shapes and features
// for HTTP, behaviour for gRPC), which run with the rest of the suite. The
// -update flag rewrites generated files only, never a case's doc.go or
// tests. An OpenAPI case is found by its folder; a proto case is also
// listed in protoCases (proto_test.go) with its files and plugin
// parameters.
//
// The tests that run the real protoc and build the shared proto corpus
// belong to the slow tier (see internal/testtier).
package golden
