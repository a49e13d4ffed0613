package codec

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestAddFormJSON(t *testing.T) {
	tests := []struct {
		name, json string
		want       url.Values
		wantErr    bool
	}{
		{name: "string", json: `"Lyon"`, want: url.Values{"k": {"Lyon"}}},
		{name: "empty string", json: `""`, want: url.Values{"k": {""}}},
		{name: "null", json: `null`, want: url.Values{"k": {""}}},
		{name: "number as written", json: `12.50`, want: url.Values{"k": {"12.50"}}},
		{name: "big integer", json: `12345678901234567890`, want: url.Values{"k": {"12345678901234567890"}}},
		{name: "boolean", json: `true`, want: url.Values{"k": {"true"}}},
		{name: "object", json: `{"city":"Lyon","zip":69001}`, want: url.Values{"k[city]": {"Lyon"}, "k[zip]": {"69001"}}},
		{name: "nested", json: `{"a":{"b":{"c":"d"}}}`, want: url.Values{"k[a][b][c]": {"d"}}},
		{name: "array of primitives", json: `["x","y"]`, want: url.Values{"k[]": {"x", "y"}}},
		{name: "array of objects", json: `[{"price":"p1"},{"price":"p2","qty":2}]`,
			want: url.Values{"k[0][price]": {"p1"}, "k[1][price]": {"p2"}, "k[1][qty]": {"2"}}},
		{name: "mixed array indexed", json: `["x",{"a":1}]`, want: url.Values{"k[0]": {"x"}, "k[1][a]": {"1"}}},
		{name: "empty object", json: `{}`, want: url.Values{}},
		{name: "empty array", json: `[]`, want: url.Values{}},
		{name: "truncated", json: `{"city":`, wantErr: true},
		{name: "two values", json: `1 2`, wantErr: true},
		{name: "not JSON", json: `city`, wantErr: true},
		{name: "too deep", json: strings.Repeat("[", maxFormDepth+2) + strings.Repeat("]", maxFormDepth+2), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			form := url.Values{}
			err := AddFormJSON(form, "k", json.RawMessage(tt.json))
			if (err != nil) != tt.wantErr {
				t.Fatalf("AddFormJSON(%s) error = %v, want error %v", tt.json, err, tt.wantErr)
			}
			if tt.wantErr {
				if len(form) != 0 {
					t.Errorf("AddFormJSON(%s) failed but added %v", tt.json, form)
				}
				return
			}
			if fmt.Sprint(form) != fmt.Sprint(tt.want) {
				t.Errorf("AddFormJSON(%s) = %v, want %v", tt.json, form, tt.want)
			}
		})
	}
}

func FuzzAddFormJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":null}]}`, `"x"`, `[`, `{"a":}`, `[[[]]]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		form := url.Values{}
		err := AddFormJSON(form, "k", json.RawMessage(s))
		if err != nil && len(form) != 0 {
			t.Errorf("AddFormJSON(%q) failed but added %v", s, form)
		}
		if err == nil && !json.Valid([]byte(s)) {
			t.Errorf("AddFormJSON(%q) accepted invalid JSON", s)
		}
	})
}
