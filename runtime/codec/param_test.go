package codec

import (
	"encoding/json"
	"testing"
)

// rawParam is a union as generated clients declare them: raw JSON.
type rawParam json.RawMessage

func (r rawParam) MarshalJSON() ([]byte, error) {
	if r == nil {
		return []byte("null"), nil
	}
	return r, nil
}

func TestParamText(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`"main.yml"`, "main.yml", true},
		{`"a \"quoted\" \u00e9"`, `a "quoted" é`, true},
		{`""`, "", true},
		{`42`, "42", true},
		{` -1.5e3 `, "-1.5e3", true},
		{`true`, "true", true},
		{`false`, "false", true},
		{`null`, "", false},
		{``, "", false},
		{`{"a":1}`, "", false},
		{`[1,2]`, "", false},
		{`"unterminated`, "", false},
		{`01x`, "", false},
	}
	for _, tt := range tests {
		var v rawParam
		if tt.in != "" {
			v = rawParam(tt.in)
		}
		got, err := ParamText(v)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParamText(%s) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// FuzzParamText: any JSON text gives a value or an error, never a panic,
// and a JSON string comes back as the string it encodes.
func FuzzParamText(f *testing.F) {
	for _, s := range []string{`"x"`, `1`, `true`, `null`, `{}`, `"\ud800"`, "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParamText(rawParam(s))
		var want string
		if s[0:min(len(s), 1)] == `"` && json.Unmarshal([]byte(s), &want) == nil && (err != nil || got != want) {
			t.Errorf("ParamText(%q) = %q, %v; want %q", s, got, err, want)
		}
	})
}
