// Package gen runs the generator's pipelines as pure functions: a spec
// and its options in, generated Go source, the resilience review and the
// warnings out. Nothing here touches the process: files are read only
// through the [io/fs.FS] or the read function given, nothing is written,
// and there is no package-level state, so generations may run in
// parallel.
//
// The two front doors are symmetric. The OpenAPI pipeline is
//
//	openapi.Load → openapi.Build → resolve.HTTP → golang.EmitModels, golang.EmitClient
//
// and three entry points run it to different depths:
//
//	res, err := gen.OpenAPI(fsys, "openapi.yaml", gen.OpenAPIOptions{Package: "petstore"})
//	warnings, err := gen.Check(fsys, "openapi.yaml", gen.OpenAPIOptions{})   // lint only
//	review, warnings, err := gen.Review(fsys, "openapi.yaml", gen.OpenAPIOptions{})
//
// The proto pipeline, the whole of protoc-gen-resilient, is
//
//	protoir.Files → resolve.RPC → grpcgen.CheckNames, grpcgen.Emit
//
// run by [Proto] from the CodeGeneratorRequest protoc sends to the
// CodeGeneratorResponse it expects back, with the warnings beside it:
//
//	resp, warnings := gen.Proto(req, gen.ProtoOptions{})
//
// For a diff of two versions (package gen/diff), [OpenAPISnapshot] and
// [NewProtoSnapshot] run the same pipelines and keep what they built: the
// services with their resolved policy, and the generated code. Unlike
// generation, they go on past a policy that breaks a rule the generator
// refuses (E-RETRY-UNSAFE, E-TIMEOUT-BELOW-P99...), whose resolved values
// a reviewer must see, and return its errors beside the snapshot.
//
// Every problem, of the front ends, the policy layer and the back ends
// alike, is a [diag.Diagnostic] ("file:line:col: E-RULE: what (where);
// fix") of a rule of the catalogue ([diag.Rules]). Errors of all stages
// come back in one [diag.List] error (in the response's error field for
// [Proto]), sorted by position; [diag.From] takes it apart again, and a
// rule's [diag.RuleDoc] tells input that cannot be used at all from a
// loadable spec that breaks a rule.
package gen
