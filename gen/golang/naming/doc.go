// Package naming turns names written in specs (operationIds, schema and
// property names, enum values, paths) into Go identifiers: [Exported] for
// types, methods, fields and constants, [Unexported] for arguments and
// locals, [FromPath] for operations without an operationId.
//
// Words are split at non-alphanumeric characters and at camelCase
// boundaries, capitalized, and common initialisms are upper-cased
// ("user_id" → "UserID", "Create-Order" → "CreateOrder"). Every function
// is pure and deterministic.
package naming
