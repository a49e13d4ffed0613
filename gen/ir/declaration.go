package ir

import "github.com/resilientgo/resilient/policyspec/diag"

// Declaration is a package-level Go name that generated code declares,
// with what declares it ("message helloworld.HelloRequest", "the client
// interface of protoc-gen-go-grpc of service helloworld.Greeter") and the
// location of that source, for diagnostics about names declared twice.
type Declaration struct {
	// Name is the Go identifier.
	Name string
	// What says what declares it, for a message.
	What string
	diag.Location
}
