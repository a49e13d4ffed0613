package petstore

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/resilientgo/resilient/runtime"
)

// TestSharedErrorType: the three operations document the same error
// answer, so they share one error type, APIError; an answer whose body
// does not decode stays the runtime's *runtime.RemoteError.
func TestSharedErrorType(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		status int
		call   func(c *Client) error
		// wantMessage is the decoded body's message; empty wants no
		// *APIError.
		wantMessage string
	}{
		{"a read", `{"code":7,"message":"no pets today"}`, http.StatusBadRequest,
			func(c *Client) error { _, err := c.ListPets(context.Background(), nil); return err }, "no pets today"},
		{"a write", `{"code":8,"message":"full"}`, http.StatusConflict,
			func(c *Client) error { return c.CreatePets(context.Background(), Pet{ID: 1, Name: "Rex"}) }, "full"},
		{"a path parameter", `{"code":9,"message":"who?"}`, http.StatusNotFound,
			func(c *Client) error { _, err := c.ShowPetByID(context.Background(), "42"); return err }, "who?"},
		{"a body that is not the model", `not json`, http.StatusNotFound,
			func(c *Client) error { _, err := c.ShowPetByID(context.Background(), "42"); return err }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			t.Cleanup(srv.Close)
			// A nil option is skipped, as in the gRPC client.
			c, err := NewClient(srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = tt.call(c)
			var apiErr *APIError
			var remote *runtime.RemoteError
			if !errors.As(err, &remote) || remote.Status != tt.status {
				t.Fatalf("error = %v, want a *runtime.RemoteError with status %d", err, tt.status)
			}
			if tt.wantMessage == "" {
				if errors.As(err, &apiErr) {
					t.Errorf("error = %#v, want no *APIError for a body that does not decode", apiErr)
				}
				return
			}
			if !errors.As(err, &apiErr) || apiErr.StatusCode != tt.status || apiErr.Default == nil || apiErr.Default.Message != tt.wantMessage || apiErr.Remote != remote {
				t.Fatalf("error = %#v, want an *APIError with status %d and message %q wrapping the runtime's error", err, tt.status, tt.wantMessage)
			}
		})
	}
	if got := (&APIError{StatusCode: 418}).Error(); got != "petstore: error answer 418" {
		t.Errorf("Error() without a runtime error = %q, want the package name first", got)
	}
}
