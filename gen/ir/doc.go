// Package ir is the generator's intermediate representation: one
// [Service] per input document, holding its [Operation] values (method,
// path template, typed [Param] values, [RequestBody], [Response] values,
// [Idempotency] and the decoded resilience policy of each level, as
// [PolicyLayer] values, its [SecurityRequirement] alternatives) and the
// named [Type] values its payloads use, with the document's [Server] and
// [SecurityScheme] values.
//
// Front ends (OpenAPI, proto) build a Service; back ends emit code from it
// and never see the source document. Every node carries a [diag.Location],
// the location of package diag's diagnostics, so that a back end can still
// point its diagnostics at the input.
//
// Names in the IR (Operation.Name, Type.Name, Field.Name, Param.Ident,
// EnumValue.Name, Variant.Name) are already valid, exported Go identifiers,
// unique in their scope. Slices are in a deterministic order: operations
// by path then method, types by name, fields in source order, responses by
// status. The IR is plain data: values are safe to read concurrently and
// are never mutated by back ends.
package ir
