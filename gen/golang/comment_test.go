package golang

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDocLines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "  \n ", nil},
		{"comment terminator stays inside a line comment", "ends */ here", []string{"ends */ here"}},
		{"control characters and tabs", "a\tb\x00c\x1b[0m\r\nd", []string{"a bc[0m", "d"}},
		{"paragraphs collapse blank runs", "one\n\n\n\ntwo\n", []string{"one", "", "two"}},
		{"wrap at words", strings.Repeat("word ", 20), []string{
			strings.TrimSpace(strings.Repeat("word ", 15)),
			strings.TrimSpace(strings.Repeat("word ", 5)),
		}},
		{"long word kept whole", strings.Repeat("x", 90), []string{strings.Repeat("x", 90)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, docLines(tt.in)); diff != "" {
				t.Errorf("docLines(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}
