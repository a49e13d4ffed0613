package route

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/resilientgo/resilient/runtime"
)

// FuzzRouteTemplate: any template is accepted or refused with an error,
// and an accepted one matches a path built from it.
func FuzzRouteTemplate(f *testing.F) {
	for _, s := range []string{"/pets/{id}", "/f/{a}.{b}", "/{x}", "/a/{", "/a}b", "/s?k=v", "/{a}{b}"} {
		f.Add(s)
	}
	d, err := runtime.NewDependency("fuzz", runtime.DependencyPolicy{})
	if err != nil {
		f.Fatal(err)
	}
	op, err := d.Operation(runtime.OperationPolicy{Name: "op"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, tpl string) {
		rt, err := New([]Route{{Method: "GET", Path: tpl, Operation: op}}, Options{})
		if err != nil {
			return
		}
		u, err := url.Parse("http://h.test" + tpl)
		if err != nil {
			return
		}
		rt.Match(&http.Request{Method: "GET", URL: u}) // must not panic
	})
}
