// Package golden holds the generators' golden cases: inputs and the exact
// generated output expected from them, compared byte for byte by the tests
// of this package. Run "go test ./golden -update" to rewrite the expected
// output after an intended change, and review the diff.
package golden
