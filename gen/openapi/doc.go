// Package openapi is the OpenAPI front end: it loads an OpenAPI 3.0 or 3.1
// document, or a Swagger 2.0 document converted to OpenAPI 3 (YAML or
// JSON, one file or several joined by $ref), and builds the [ir.Service]
// the back ends emit from.
//
// Two stages, each a function of its input:
//
//	doc, warnings, err := openapi.Load(fsys, "api.yaml", openapi.LoadOptions{})
//	svc, warnings, err := openapi.Build(doc, openapi.BuildOptions{})
//
// [FrontEnd] wraps both for the generator's back-end driver (package
// gen's FrontEnd interface), and also answers, in IR terms, the two
// questions only the document can answer once the IR is built: which
// diagnostics concern a selection of operations ([FrontEnd.Scope]) and
// whether a static fallback value matches an operation's result schema
// ([FrontEnd.CheckResult]). Nothing of kin-openapi crosses it.
//
// Files are read only through the [io/fs.FS] given to [Load]: a $ref to a
// URL or to a file outside it is an error, so untrusted specs cannot make
// the generator fetch or read anything else. Only regular files are read,
// each of at most [LoadOptions.MaxFileSize] bytes (see package input).
// [LoadFile] reads a file from disk with its folder, opened as an
// [os.Root], as that boundary, so that no symbolic link leads out of it;
// give [Load] an os.Root's FS for the same.
//
// Every problem is a [diag.Diagnostic] naming file:line:col and a rule;
// errors are returned joined (sorted by position), warnings as a slice.
// What kin-openapi's loader refuses is reported where it is written, in
// whichever file; a few sloppy constructs it would refuse whole, and a
// client can do without (a pattern written as a number, a $ref that
// names an object of another kind than its place holds, where what it
// means is plain), are repaired in the text it is given instead, with a
// warning each.
package openapi
