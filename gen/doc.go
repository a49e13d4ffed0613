// Package gen is the generator's back-end driver, run as pure functions:
// a front end's IR and its diagnostics in, generated Go source, the
// resilience review and the warnings out. Nothing here touches the
// process: files are read only through the front end or the read
// function given, nothing is written, and there is no package-level
// state, so generations may run in parallel.
//
// # Front ends and back ends
//
// A front end reads a source document in its own format and builds the
// IR (package gen/ir); everything after the IR (this package, gen/golang,
// gen/golang/grpcgen) sees only the IR, never the document nor the
// library that parsed it. The seam is [FrontEnd]: Load and Validate give
// the document's diagnostics, Build the IR with its own, and two
// questions that only the document can answer once the IR is built are
// asked in IR terms: which diagnostics concern a selection of operations
// (Scope), and whether a value matches an operation's result schema
// (CheckResult). The driver resolves the policy, selects operations,
// emits and renders, and joins every stage's diagnostics.
//
// The OpenAPI pipeline is
//
//	openapi.NewFrontEnd (openapi.Load, openapi.Build) → gen.Generate: resolve.HTTP → golang.EmitModels, golang.EmitClient
//
// and gen/openapigen, which imports both sides, puts it together at three
// depths:
//
//	res, err := openapigen.OpenAPI(fsys, "openapi.yaml", gen.OpenAPIOptions{Package: "petstore"})
//	warnings, err := openapigen.Check(fsys, "openapi.yaml", gen.OpenAPIOptions{})   // lint only
//	review, warnings, err := openapigen.Review(fsys, "openapi.yaml", gen.OpenAPIOptions{})
//
// so that this package's dependencies hold no kin-openapi package. A test
// (TestBackEndsNeverSeeTheDocument) keeps it so.
//
// The proto pipeline, the whole of protoc-gen-resilient, is
//
//	protoir.Files → svcconfig.Apply → resolve.RPC → svcconfig.Applied.Check, grpcgen.CheckNames, grpcgen.Emit
//
// and gen/protocgen, which imports protogen, runs it from the
// CodeGeneratorRequest protoc sends to the CodeGeneratorResponse it
// expects back, with the warnings beside it:
//
//	resp, warnings := protocgen.Proto(req, protocgen.ProtoOptions{})
//
// so that this package's dependencies hold no protogen package either.
//
// For a diff of two versions (package gen/diff), [SnapshotOf] (openapigen.Snapshot) and
// protocgen.NewProtoSnapshot run the same pipelines and keep what they built: the
// services with their resolved policy, and the generated code. Unlike
// generation, they go on past a policy that breaks a rule the generator
// refuses (E-RETRY-UNSAFE, E-TIMEOUT-BELOW-P99...), whose resolved values
// a reviewer must see, and return its errors beside the snapshot.
//
// Every problem, of the front ends, the policy layer and the back ends
// alike, is a [diag.Diagnostic] ("file:line:col: E-RULE: what (where);
// fix") of a rule of the catalogue ([diag.Rules]). Errors of all stages
// come back in one [diag.List] error (in the response's error field for
// protocgen.Proto), sorted by position; [diag.From] takes it apart again, and a
// rule's [diag.RuleDoc] tells input that cannot be used at all from a
// loadable spec that breaks a rule.
package gen
