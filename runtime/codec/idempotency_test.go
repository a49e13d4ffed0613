package codec

import (
	"regexp"
	"testing"
)

func TestNewIdempotencyKey(t *testing.T) {
	uuid4 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		k := NewIdempotencyKey()
		if !uuid4.MatchString(k) {
			t.Fatalf("NewIdempotencyKey() = %q, want a version 4 UUID", k)
		}
		if seen[k] {
			t.Fatalf("NewIdempotencyKey() = %q twice", k)
		}
		seen[k] = true
	}
}
