// Package golang emits Go source from the IR with jennifer: [EmitModels]
// writes the model types of an [ir.Service] (structs, enums, unions and
// named aliases) into a [jen.File] made by [NewFile].
//
// Emission is "compute, then emit": a small view of the service decides
// Go types, pointers and tags first; then one emit function per construct
// writes it. Output is deterministic and gofmt-clean (jennifer formats
// it), and imports go through jen.Qual only.
package golang
