package ir

import (
	"slices"
	"strings"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// Service is one API: the operations a client calls and the named types
// their parameters and payloads use.
type Service struct {
	// Name is the service's Go identifier, derived from the document title
	// (or x-go-name on the document's info object).
	Name string
	// Title and Version are the document's info.title and info.version.
	Title   string
	Version string
	// Doc is the document's description.
	Doc string
	// OpenAPI is the version of the OpenAPI specification the document
	// follows, as written ("3.0.3", "3.1.0"; "3.0.3" for a Swagger 2.0
	// document, which is read converted); empty for gRPC services.
	OpenAPI string
	// Source is the entry file the service was read from, as given.
	Source string
	// Servers lists the servers declared by the document, in order.
	Servers []*Server
	// SecuritySchemes are the document's security schemes, sorted by
	// Name.
	SecuritySchemes []*SecurityScheme
	// Operations are sorted by path, then by HTTP method.
	Operations []*Operation
	// Types are the named types, sorted by Name.
	Types []*Type
	// Resilience holds the policy written for the whole document
	// (x-resilience at its root), if any. For a gRPC service it holds the
	// file option, then the service option.
	Resilience []PolicyLayer
	// FullName is a gRPC service's full name ("helloworld.Greeter"), which
	// is also its dependency name; empty for HTTP services.
	FullName string
	// GoPackage is the Go package a gRPC service's client is generated
	// into, the package of protoc-gen-go's output for its file.
	GoPackage GoPackage
	diag.Location
}

// Type returns the named type called name, or nil. Types being sorted by
// Name, it is found by a binary search; a service whose types are not (yet)
// sorted is searched in full.
func (s *Service) Type(name string) *Type {
	if i, ok := slices.BinarySearchFunc(s.Types, name, func(t *Type, name string) int {
		return strings.Compare(t.Name, name)
	}); ok {
		return s.Types[i]
	}
	for _, t := range s.Types {
		if t.Name == name {
			return t
		}
	}
	return nil
}
