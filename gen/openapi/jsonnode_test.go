package openapi

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// sameTree reports the first difference between the tree parseJSONNode
// gives for data and the one yaml.Unmarshal gives, or "".
func sameTree(t testing.TB, data []byte) (parsed bool, diff string) {
	t.Helper()
	got, ok := parseJSONNode(data)
	if !ok {
		return false, ""
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return true, "the YAML parser refuses what parseJSONNode read: " + err.Error()
	}
	if len(doc.Content) != 1 {
		return true, fmt.Sprintf("the YAML parser gives %d documents", len(doc.Content))
	}
	return true, compareNodes("#", got, doc.Content[0])
}

func compareNodes(at string, got, want *yaml.Node) string {
	type view struct {
		Kind                   yaml.Kind
		Style                  yaml.Style
		Tag, Value, Anchor     string
		Line, Column, Children int
		Comments               string
		Alias                  bool
	}
	v := func(n *yaml.Node) view {
		return view{n.Kind, n.Style, n.Tag, n.Value, n.Anchor, n.Line, n.Column, len(n.Content),
			n.HeadComment + n.LineComment + n.FootComment, n.Alias != nil}
	}
	if g, w := v(got), v(want); g != w {
		return fmt.Sprintf("%s: got %+v, want %+v", at, g, w)
	}
	for i := range got.Content {
		if d := compareNodes(fmt.Sprintf("%s/%d", at, i), got.Content[i], want.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

// TestParseJSONNodeCases: the tree is the YAML parser's for JSON of every
// kind, and input the YAML parser reads otherwise is left to it.
func TestParseJSONNodeCases(t *testing.T) {
	for _, tc := range []struct {
		in     string
		parsed bool
	}{
		{`{}`, true},
		{` {"a": 1, "b": -0, "c": 1.5, "d": 1e5, "e": -2E-3, "f": 123456789012345678901234567890, "g": 18446744073709551615}`, true},
		{"{\r\n  \"a\": [true, false, null, \"x\", {}, []],\r\n  \"b\": {\"c\": \"d\"}\n}\n", true},
		{`{"esc": "q\" b\\ s\/ \b\f\n\r\t \u00e9 \u20ac \u0000", "raw": "é €  😀 日本"}`, true},
		{`{"é": {"ü": [1, "ö", {"ß": 2}]}, "x": 3}`, true},
		{`{"a": 1, "a": 2}`, true},
		{`{"deep": [[[[[[[[[[1]]]]]]]]]]}`, true},
		{`[1, 2]`, false},
		{`"a"`, false},
		{"{\t\"a\": 1}", false},
		{`{"a": 1,}`, false},
		{`{"a": 01}`, false},
		{`{"a": 1.}`, false},
		{`{"a": "\ud83d\ude00"}`, false},
		{`{"a": "\x"}`, false},
		{"{\"a\": \"\u0085\"}", false},
		{"{\"a\": \"\u2028\"}", false},
		{"\uFEFF{}", false},
		{"{\"a\": \"\u0080\"}", false},
		{"{\"a\": \"\xff\"}", false},
		{`{"a": 1} x`, false},
		{`{"a" 1}`, false},
		{`{"a": tru}`, false},
		{`{"` + strings.Repeat("k", 2000) + `": 1}`, false},
		{`{"a": "unterminated}`, false},
		{``, false},
	} {
		parsed, diff := sameTree(t, []byte(tc.in))
		if parsed != tc.parsed {
			t.Errorf("%.60q: parsed = %v, want %v", tc.in, parsed, tc.parsed)
		}
		if diff != "" {
			t.Errorf("%.60q: %s", tc.in, diff)
		}
	}
}

// TestParseJSONNodeCorpus: the corpus's specs, written as JSON indented
// and minified, give the YAML parser's tree.
func TestParseJSONNodeCorpus(t *testing.T) {
	specs, _ := filepath.Glob(filepath.Join("..", "testdata", "corpus", "openapi", "*", "*.yaml"))
	if len(specs) == 0 {
		t.Fatal("no spec in ../testdata/corpus/openapi")
	}
	more, _ := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	specs = append(specs, more...)
	for _, spec := range specs {
		data, err := os.ReadFile(spec)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			continue
		}
		indented, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			continue // keys that are not strings
		}
		minified, _ := json.Marshal(v)
		for _, js := range [][]byte{indented, minified} {
			parsed, diff := sameTree(t, js)
			if !parsed {
				t.Errorf("%s: not parsed", spec)
			}
			if diff != "" {
				t.Errorf("%s: %s", spec, diff)
			}
		}
	}
	if p := os.Getenv("RESILIENT_GITHUB_SPEC"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if parsed, diff := sameTree(t, data); !parsed || diff != "" {
			t.Errorf("%s: parsed %v, %s", p, parsed, diff)
		}
	}
}

// FuzzParseJSONNode: whatever parseJSONNode reads, the YAML parser reads
// the same.
func FuzzParseJSONNode(f *testing.F) {
	for _, s := range []string{`{}`, `{"a": [1, -2.5e3, "x\u00e9", {"b": null}]}`, "{\n \"k\": \"v\\n\"\r\n}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, diff := sameTree(t, data); diff != "" {
			t.Fatalf("%q: %s", data, diff)
		}
	})
}
