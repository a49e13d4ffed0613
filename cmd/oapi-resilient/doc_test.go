package main

import (
	"testing"

	"github.com/resilientgo/resilient/internal/ruledoc"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// TestRulesDocumented: the command's documentation lists every rule it
// reports, with the catalogue's doc line.
func TestRulesDocumented(t *testing.T) { ruledoc.Test(t, "doc.go", diag.OpenAPI) }
