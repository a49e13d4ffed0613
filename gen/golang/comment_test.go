package golang

import (
	"bytes"
	"go/build/constraint"
	"go/doc/comment"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
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

// TestDocCommentIsComment: whatever the lines hold, DocComment renders
// "//" comment lines that gofmt accepts, none of them a directive.
func TestDocCommentIsComment(t *testing.T) {
	f := jen.NewFile("p")
	f.Add(DocComment(
		"a NUL\x00 and a BOM\ufeff and a line separator\u2028here",
		"//go:build ignore",
		"go:generate rm -rf /",
		"//line evil.go:1",
		"+build ignore",
		"*/ func init() {} /*",
		"\t+build linux",
		"\tcode block with a carriage return\r//go:noinline",
	).Var().Id("x").Int())
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		t.Fatalf("Render: %v", err)
	}
	if !strings.HasPrefix(buf.String(), "package p\n") {
		t.Errorf("the file starts with a build constraint:\n%s", buf.String())
	}
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(l, "//go:") || strings.HasPrefix(l, "//line") || strings.HasPrefix(l, "/*") || strings.HasPrefix(l, "func init") || constraint.IsPlusBuild(l) {
			t.Errorf("line %q", l)
		}
		if strings.ContainsAny(l, "\x00\ufeff\u2028\r") {
			t.Errorf("line %q holds a character that does not print", l)
		}
	}
}

func TestCommentLine(t *testing.T) {
	if got, want := CommentLine("a\nb\r\tc\x00\ufeffd  "), "ab cd"; got != want {
		t.Errorf("CommentLine = %q, want %q", got, want)
	}
}

func TestDefuseBuildLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"+build ignore", `\+build ignore`},
		{"+build", `\+build`},
		{"\t+build linux", "\t\\+build linux"},
		{"  +build\tx", "  \\+build\tx"},
		{"+builds are fun", "+builds are fun"},
		{"see +build ignore", "see +build ignore"},
	}
	for _, tt := range tests {
		if got := defuseBuildLine(tt.in); got != tt.want {
			t.Errorf("defuseBuildLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// slowCanonicalDoc is canonicalDoc without its shortcut for plain lines.
func slowCanonicalDoc(text string) string {
	var p comment.Parser
	var pr comment.Printer
	for range 8 {
		out := string(pr.Comment(p.Parse(text)))
		if out == text {
			break
		}
		text = out
	}
	return text
}

// TestPlainLineIsCanonical: every line plainLine lets through is printed
// unchanged by gofmt's doc comment reformatting, for lines drawn from
// the characters that give doc comments their structure.
func TestPlainLineIsCanonical(t *testing.T) {
	const alphabet = " \t\f\v\u00a0\u2028#-*+[]():.,;09aZ•`'\"/\\_{}<>|!?=~http://x.y "
	runes := []rune(alphabet)
	rng := rand.New(rand.NewPCG(1, 2))
	plain := 0
	for range 200000 {
		n := 1 + rng.IntN(12)
		var b strings.Builder
		for range n {
			b.WriteRune(runes[rng.IntN(len(runes))])
		}
		text := b.String() + "\n"
		if !plainLine(text) {
			continue
		}
		plain++
		if got := slowCanonicalDoc(text); got != text {
			t.Fatalf("plainLine(%q) but gofmt writes %q", text, got)
		}
	}
	if plain < 10000 {
		t.Fatalf("only %d plain lines drawn", plain)
	}
}

func FuzzPlainLine(f *testing.F) {
	for _, s := range []string{"Returns the pet.\n", "# Heading\n", "- item\n", "1. one\n", "[a]: http://x\n", "  code\n", "text \n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if plainLine(text) {
			if got := slowCanonicalDoc(text); got != text {
				t.Fatalf("plainLine(%q) but gofmt writes %q", text, got)
			}
		}
	})
}
