package gen

import (
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// OpenAPIOptions configures [OpenAPI], [Check] and [Review]. The zero
// value is ready to use.
type OpenAPIOptions struct {
	// Package is the Go package name of the generated file. Empty derives
	// it from the spec's file name without its extension with
	// [PackageName] ("pet-store.yaml" → "petstore").
	Package string
	// Source is how the generated file's header names the spec
	// ("// source: api/openapi.yaml"): a path relative to the user's
	// project, never an absolute one. Empty uses the spec name as given.
	Source string
	// Dir is how diagnostics name the root of the file system the spec is
	// read from (see [openapi.LoadOptions]). Empty shows paths relative
	// to it.
	Dir string

	// Policy is the decoded policy file. When nil and PolicyData is set,
	// PolicyData is decoded; when both are unset there is no policy file
	// and the built-in defaults apply below the spec's x-resilience.
	Policy *policyspec.File
	// PolicyName is the policy file's name as diagnostics show it.
	PolicyName string
	// PolicyData is the policy file's content (YAML), used when Policy is
	// nil.
	PolicyData []byte

	// Dependency is the name the policy file knows the spec's service by,
	// and the name of its breaker, bulkhead and retry budget. Empty
	// derives it with [DependencyName] from the document's info.title, or
	// from the spec's file name when there is no title.
	Dependency string
	// Strict refuses sloppy input: the warnings [diag.Rule.Strict] names
	// (validation findings that leave the client correct, operations
	// without operationId, fixed queries and fragments in path
	// templates, invalid media types beside valid ones) become errors,
	// for spec authors who want a clean document.
	Strict bool
	// IgnoreGoNames disregards the document's x-go-name values, for a
	// document whose names were written for another generator's package
	// layout and clash in one Go package.
	IgnoreGoNames bool
	// DocumentURL is the URL the document is served from, against which
	// relative server URLs are resolved; empty leaves them relative (a
	// W-SERVER warning, and no default server).
	DocumentURL string
	// ReviewMode selects the rows of the review table; the zero value is
	// one row per operation.
	ReviewMode policyspec.ReviewMode

	// Include, when not empty, limits the client to the operations one of
	// its filters selects; Exclude then removes those one of its filters
	// selects. The client keeps only the model types the remaining
	// operations reach. The whole document is still loaded and checked,
	// and the names of operations and types are those of the whole
	// document, so that they do not change with the selection. A policy
	// file may still name operations left out.
	Include, Exclude []Filter
	// Split writes the client as several files of one package
	// (Result.Files) instead of one (Result.Code): the core (the Client
	// type, its options and policy table, the shared helpers and the
	// operations without a tag), one file per first tag of the other
	// operations, and the model types in files of at most
	// [ModelsPerFile] types.
	Split bool
}

// Result is the outcome of a successful [OpenAPI] run.
type Result struct {
	// Code is the generated Go file: the models and the client,
	// gofmt-clean, deterministic for the same input. It is nil with
	// [OpenAPIOptions.Split].
	Code []byte
	// Files are the generated files with [OpenAPIOptions.Split], the
	// core first, then sorted by part.
	Files []File
	// Review is the Markdown resilience review of the service.
	Review string
	// Warnings are the findings that did not stop generation, sorted by
	// position.
	Warnings []diag.Diagnostic
	// Dependency is the dependency name the policy was resolved under.
	Dependency string
}

// File is one file of a client generated with [OpenAPIOptions.Split].
type File struct {
	// Part tells the file from the others of the package: "" for the
	// core; the first tag of its operations in lower snake case
	// ("issues", "users_user"); "models", "models_2"... for the model
	// types, sorted by name. Operations whose tags give the same part
	// share its file. A command names the file of part P after the core's:
	// client.gen.go, client_P.gen.go.
	Part string
	// Code is the file, gofmt-clean.
	Code []byte
}

// ModelsPerFile is the most model types a file of a split client holds.
const ModelsPerFile = 500
