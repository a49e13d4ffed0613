package stream

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/runtime"
)

// TestDefaultItemLimit: a body that does not bound its items is bound by
// the core runtime's default response size, and one that does by its own.
func TestDefaultItemLimit(t *testing.T) {
	if DefaultItemLimit != runtime.DefaultMaxResponseBody {
		t.Errorf("DefaultItemLimit = %d, want runtime.DefaultMaxResponseBody (%d)", DefaultItemLimit, runtime.DefaultMaxResponseBody)
	}
	if got := itemLimit(strings.NewReader("")); got != DefaultItemLimit {
		t.Errorf("itemLimit of a plain body = %d, want %d", got, DefaultItemLimit)
	}
	body := limitedBody{ReadCloser: io.NopCloser(strings.NewReader("{\"n\":1}\n{\"n\":22222}\n")), limit: 8}
	s := NewJSONLines[struct{ N int }](&http.Response{Body: body}, nil)
	if !s.Next() || s.Current().N != 1 {
		t.Fatalf("first line: %v", s.Err())
	}
	if s.Next() || !errors.Is(s.Err(), ErrItemTooLarge) {
		t.Errorf("a line above the body's own limit: %v, want ErrItemTooLarge", s.Err())
	}
}

// limitedBody is a body that says its item limit, as DoHTTPStream's does.
type limitedBody struct {
	io.ReadCloser
	limit int64
}

func (b limitedBody) ItemLimit() int64 { return b.limit }
