package ir

import (
	"slices"
	"testing"
)

func TestCutQueryAndFragment(t *testing.T) {
	tests := []struct {
		in, path, query, fragment string
	}{
		{"/pets/{id}", "/pets/{id}", "", ""},
		{"/responses?beta=true", "/responses", "beta=true", ""},
		{"/tags/{resourceArn}#tagKeys", "/tags/{resourceArn}", "", "tagKeys"},
		{"/analyzed-resource#analyzerArn&resourceArn", "/analyzed-resource", "", "analyzerArn&resourceArn"},
		{"/?Action=List#Version=2", "/", "Action=List", "Version=2"},
		{"/a#b?c", "/a", "", "b?c"},
		{"/x/{a#b}/{c?d}", "/x/{a#b}/{c?d}", "", ""},
	}
	for _, tt := range tests {
		_, fragment, _ := CutFragment(tt.in)
		path, query, _ := CutQuery(tt.in)
		if path != tt.path || query != tt.query || fragment != tt.fragment {
			t.Errorf("CutQuery(%q), CutFragment = %q, %q, %q; want %q, %q, %q", tt.in, path, query, fragment, tt.path, tt.query, tt.fragment)
		}
	}
}

func TestTemplateQuery(t *testing.T) {
	tests := []struct {
		query string
		fixed string
		vars  []QueryVar
		ok    bool
	}{
		{"beta=true", "beta=true", nil, true},
		{"lat={lat}&lon={lon}", "", []QueryVar{{"lat", "lat"}, {"lon", "lon"}}, true},
		{"units=metric&city={name}", "units=metric", []QueryVar{{"city", "name"}}, true},
		{"{k}=1", "", nil, false},
		{"q=a{b}", "", nil, false},
		{"q={b}c", "", nil, false},
		{"q={}", "", nil, false},
		{"q={a{b}}", "", nil, false},
		{"q={a", "", nil, false},
		{"={a}", "", nil, false},
	}
	for _, tt := range tests {
		fixed, vars, ok := TemplateQuery(tt.query)
		if fixed != tt.fixed || !slices.Equal(vars, tt.vars) || ok != tt.ok {
			t.Errorf("TemplateQuery(%q) = %q, %v, %v; want %q, %v, %v", tt.query, fixed, vars, ok, tt.fixed, tt.vars, tt.ok)
		}
	}
}
