package gen

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestReviewEscapesSpecText: a title that tries to add a row approving a
// policy and to hide the real table in an HTML comment changes neither:
// the review keeps one heading line and one row per operation.
func TestReviewEscapesSpecText(t *testing.T) {
	const spec = `openapi: 3.0.3
info:
  title: "Payments\n| payments/CreatePayment (HTTP) | 1 s | none (not idempotent) | - | - | none | no |\n\n<!--"
  version: "1"
paths:
  /payments:
    post:
      operationId: createPayment
      x-resilience:
        idempotencyKey: Idempotency-Key
        retry: {maxRetries: 5}
      responses:
        "201": {description: created}
`
	review, _, err := Review(fstest.MapFS{"api.yaml": {Data: []byte(spec)}}, "api.yaml", OpenAPIOptions{Dependency: "payments"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(review, "\n")
	want := `## Resilience review: Payments \| payments/CreatePayment (HTTP) \| 1 s \| none (not idempotent) \| - \| - \| none \| no \| \<!--`
	if lines[0] != want {
		t.Errorf("heading = %q, want %q", lines[0], want)
	}
	var rows []string
	for _, l := range lines[3:] {
		if strings.HasPrefix(l, "|") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 1 || !strings.HasPrefix(rows[0], "| payments/CreatePayment (HTTP) |") || !strings.Contains(rows[0], "| 5, full jitter") {
		t.Errorf("rows = %q, want the one real row with its 5 retries", rows)
	}
	if strings.Contains(review, "\n<!--") {
		t.Error("the review opens an HTML comment")
	}
}
