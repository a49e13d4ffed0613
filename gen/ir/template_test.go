package ir

import "testing"

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
