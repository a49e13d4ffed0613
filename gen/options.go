package gen

import (
	"fmt"

	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// OpenAPIOptions configures [Generate], [Lint] and [ReviewOf]. The zero
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
	// document, so that they do not change with the selection; but an
	// error or a warning inside an operation left out, or inside a
	// component only operations left out reach, is not reported (and an
	// error does not stop generation). A policy file may still name operations left out.
	Include, Exclude []Filter
	// Split says whether the client is written as several files of one
	// package (Result.Files) instead of one (Result.Code): the core (the
	// Client type, its options and policy table, the shared helpers), one
	// file per first tag of the operations and, for operations without a
	// tag, per first segment of their path, each of at most
	// [OperationsPerFile] operations, and the model types in files of at
	// most [ModelsPerFile] types. The zero value, SplitOff, writes one file;
	// SplitAuto splits a client only when it is large (see
	// [AutoSplitBytes]).
	Split SplitMode
}

// SplitMode says when [Generate] splits the client into several files.
type SplitMode uint8

const (
	// SplitOff writes the client as one file, whatever its size.
	SplitOff SplitMode = iota
	// SplitOn writes the client as several files.
	SplitOn
	// SplitAuto writes the client as several files when its estimated
	// size exceeds [AutoSplitBytes], else as one.
	SplitAuto
)

// AutoSplitBytes is the estimated size of a one-file client above which
// [SplitAuto] splits it: 3 MB, the size of the largest generated file of
// Go's own source tree (cmd/compile/internal/ssa/opGen.go), which editors
// and gopls are tuned to handle. go/parser reads such a file in about
// 0.1 s; the 12.8 MB one file of GitHub's REST client takes 1 s, which an
// editor pays again on every opening, each time gopls reparses it, and
// with every formatting, while `go build` compiles the package whole
// either way. The estimate, taken from the service before anything is
// rendered, is [opBytes] per operation plus [typeBytes] per model type,
// the averages of the clients of GitHub's REST spec, OpenAI's and
// Twilio's (within 5 % of their sizes; Stripe's, whose types are larger,
// is underestimated but well above the threshold). Every golden case and
// every spec of the corpus but OpenAI's, Stripe's and GitHub's
// stays one file.
const AutoSplitBytes = 3 << 20

// The weights of the size estimate of [AutoSplitBytes].
const (
	opBytes   = 7400
	typeBytes = 540
)

// splits reports whether a client of ops operations and types model types
// is written as several files under mode.
func (mode SplitMode) splits(ops, types int) bool {
	switch mode {
	case SplitOn:
		return true
	case SplitAuto:
		return ops*opBytes+types*typeBytes > AutoSplitBytes
	}
	return false
}

// Result is the outcome of a successful [Generate] run.
type Result struct {
	// Code is the generated Go file: the models and the client,
	// gofmt-clean, deterministic for the same input. It is nil when the
	// client is split (see [OpenAPIOptions.Split]).
	Code []byte
	// Files are the generated files when the client is split (see
	// [OpenAPIOptions.Split]), the core first, then sorted by part; nil
	// otherwise.
	Files []File
	// Review is the Markdown resilience review of the service.
	Review string
	// Warnings are the findings that did not stop generation, sorted by
	// position.
	Warnings []diag.Diagnostic
	// Dependency is the dependency name the policy was resolved under.
	Dependency string
}

// File is one file of a split client (see [OpenAPIOptions.Split]).
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

// OperationsPerFile is the most operations a file of a split client
// holds; a tag with more continues in further files. At about 7 KB of
// generated code per operation, a file stays near 2 MB.
const OperationsPerFile = 300

// String returns the mode as [SplitMode.Set] reads it: "off", "on" or
// "auto".
func (mode SplitMode) String() string {
	switch mode {
	case SplitOn:
		return "on"
	case SplitAuto:
		return "auto"
	}
	return "off"
}

// Set reads a mode as a command-line flag gives it: "auto", "on" (or
// "true", which a flag written alone gives), "off" (or "false").
func (mode *SplitMode) Set(s string) error {
	switch s {
	case "auto":
		*mode = SplitAuto
	case "on", "true":
		*mode = SplitOn
	case "off", "false":
		*mode = SplitOff
	default:
		return fmt.Errorf("split mode %q: want auto, on or off", s)
	}
	return nil
}

// IsBoolFlag lets a command-line flag of a SplitMode be written alone
// ("-split", meaning on), as the flag package allows for booleans.
func (mode *SplitMode) IsBoolFlag() bool { return true }
