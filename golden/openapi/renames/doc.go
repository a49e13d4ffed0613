// Package renames is the golden case renames of oapi-resilient: names
// that collide are renamed, deterministically and with a comment on the
// renamed declaration, instead of stopping generation. Schemas named like
// the client's own declarations (Client, Policy, Option) become
// ClientModel, PolicyModel and OptionModel; a schema that another schema's
// name already maps to is numbered (accountRules becomes AccountRules2);
// the operation named like the Client's Dependency method becomes
// DependencyOp, and getItem, whose Go name get-item already has, GetItem2;
// the client's own types named like a schema (DeleteWorkflowError,
// ListItemsParams) take "Call" (DeleteWorkflowCallError,
// ListItemsCallParams), so the schemas keep their names.
//
// openapi.yaml (with policy.yaml when present) is the input; client.gen.go
// and review.md are the expected output, compared byte for byte by go test
// ./golden and rewritten by go test ./golden -update.
package renames
