package forms

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/resilientgo/resilient/runtime/codec"
)

// TestEveryShape: each nested shape of the form reaches the server in
// deepObject brackets, nulls as empty values, absent ones not at all.
func TestEveryShape(t *testing.T) {
	var got url.Values
	var path, query string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, query = r.URL.EscapedPath(), r.URL.RawQuery
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got = r.PostForm
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	s := func(v string) *string { return &v }
	a, b := 1, true
	when := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	id := uuid.MustParse("6f1c3c8e-8a51-4a55-9d3e-1b2f0f3f6c11")
	kind := PostARequestKind2
	var pick PostARequestPick
	if err := pick.FromInt(7); err != nil {
		t.Fatal(err)
	}
	child := &Node{Name: s("leaf")}
	body := PostARequest{
		Raw:       []byte("raw bytes"),
		Blob:      []byte("hi"),
		Free:      json.RawMessage(`{"a":[1,2],"b":null}`),
		Grid:      [][][]int{{{1, 2}, {3}}, {{4}}},
		Tree:      codec.NewNullable(Node{Name: s("root"), Children: []*Node{child, nil}, Attrs: map[string]*string{"z": s("last"), "a": nil}, Note: codec.Null[string]()}),
		Deep:      map[string][]*Node{"k": {child}},
		Flat:      &PostARequestFlat{A: &a, B: &b},
		Nullables: []*string{s("x"), nil},
		Maybe:     codec.Null[Node](),
		When:      &when,
		ID:        &id,
		Kind:      &kind,
		Pick:      &pick,
	}
	if err := c.PostA(context.Background(), "v/1", &PostAParams{Vv: s("q")}, body); err != nil {
		t.Fatalf("PostA: %v", err)
	}
	want := url.Values{
		"raw":                     {"raw bytes"},
		"blob":                    {"aGk="},
		"free[a][]":               {"1", "2"},
		"free[b]":                 {""},
		"grid[0][0][]":            {"1", "2"},
		"grid[0][1][]":            {"3"},
		"grid[1][0][]":            {"4"},
		"tree[name]":              {"root"},
		"tree[children][0][name]": {"leaf"},
		"tree[children][1]":       {""},
		"tree[attrs][a]":          {""},
		"tree[attrs][z]":          {"last"},
		"tree[note]":              {""},
		"deep[k][0][name]":        {"leaf"},
		"flat":                    {"a,1,b,true"},
		"nullables[0]":            {"x"},
		"nullables[1]":            {""},
		"maybe":                   {""},
		"when":                    {"2026-12-03T10:00:00Z"},
		"id":                      {"6f1c3c8e-8a51-4a55-9d3e-1b2f0f3f6c11"},
		"kind":                    {"2"},
		"pick":                    {"7"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("form sent:\n got %v\nwant %v", got, want)
	}
	if path != "/a/v%2F1" || query != "vv=q" { // the locals v and vv do not hide the parameters
		t.Errorf("path %q, query %q", path, query)
	}

	// Nothing set: nothing sent.
	if err := c.PostA(context.Background(), "v", nil, PostARequest{}); err != nil {
		t.Fatalf("PostA: %v", err)
	}
	if len(got) != 0 {
		t.Errorf("an empty body sent %v", got)
	}
}
