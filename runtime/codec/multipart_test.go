package codec

import (
	"fmt"
	"net/http"
	"testing"
)

func TestPartHeader(t *testing.T) {
	tests := []struct {
		name  string
		pairs []string
		want  http.Header
	}{
		{name: "none", want: nil},
		{name: "all empty", pairs: []string{"X-Checksum", "", "X-Label", ""}, want: nil},
		{name: "some", pairs: []string{"X-Checksum", "4e1f", "X-Label", ""}, want: http.Header{"X-Checksum": {"4e1f"}}},
		{name: "canonical names", pairs: []string{"x-checksum", "a", "x-label", "b"}, want: http.Header{"X-Checksum": {"a"}, "X-Label": {"b"}}},
		{name: "a name without a value", pairs: []string{"X-Checksum", "a", "X-Label"}, want: http.Header{"X-Checksum": {"a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PartHeader(tt.pairs...); fmt.Sprint(got) != fmt.Sprint(tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("PartHeader(%q) = %v, want %v", tt.pairs, got, tt.want)
			}
		})
	}
}
