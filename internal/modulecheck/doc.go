// Package modulecheck holds the slow-tier test that a module depending on
// github.com/resilientgo/resilient inherits only what the library needs:
// none of the examples' dependencies (Toxiproxy and what it pulls in). It
// has no code of its own.
package modulecheck
