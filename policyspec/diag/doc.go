// Package diag holds the findings of the generator and of its policy
// layer, one type for all of them: a [Diagnostic] names a [Rule], a source
// [Location], what is wrong and how to fix it, and renders as
//
//	file:line:col: E-RULE: what (where); fix
//
// Its [Severity] tells errors, which stop generation, from warnings, which
// are reported while generation goes on. Front ends, the policy layer and
// the back ends collect every finding into a [List] instead of stopping at
// the first; [List.Err] returns the errors sorted by location, as an error
// that [errors.As] takes apart again.
//
// The rules are a closed catalogue: one constant per rule ID, and [Rules]
// lists each with one line saying what it reports. The commands'
// documentation names every rule of the catalogue.
//
// The package has no state; its values are safe for concurrent reading.
package diag
