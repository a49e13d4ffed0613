// Package diag holds the generator's diagnostics: a [Diagnostic] names a
// rule, a source [ir.Location], what is wrong and how to fix it, and
// renders as
//
//	file:line:col: E-RULE: what (where); fix
//
// Front ends collect every finding into a [List] instead of stopping at
// the first; [List.Err] joins the errors, sorted by location.
package diag
