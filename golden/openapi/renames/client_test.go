package renames

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRenamedDeclarations: the renamed declarations work as their
// originals would: the schema DeleteWorkflowError is the 404 body of the
// renamed error type, and the renamed model and method decode an answer.
func TestRenamedDeclarations(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/workflows/w1":
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"message":"no workflow w1"}`))
		case "/item":
			w.Write([]byte(`{"name":"first"}`))
		case "/dependency":
			w.Write([]byte(`{"value":"v"}`))
		default:
			w.WriteHeader(http.StatusTeapot)
		}
	}))
	tr := &http.Transport{}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		srv.Close()
	})
	c, err := NewClient(srv.URL, WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	ctx := context.Background()

	err = c.DeleteWorkflow(ctx, "w1")
	var de *DeleteWorkflowCallError
	if !errors.As(err, &de) || de.NotFound == nil || de.NotFound.Message == nil || *de.NotFound.Message != "no workflow w1" {
		t.Errorf("DeleteWorkflow = %v, want a *DeleteWorkflowCallError with the 404 body", err)
	}
	var item ClientModel
	if item, err = c.GetItem(ctx); err != nil || item.Name == nil || *item.Name != "first" {
		t.Errorf("GetItem = %+v, %v; want name first", item, err)
	}
	var opt OptionModel
	if opt, err = c.DependencyOp(ctx); err != nil || opt.Value == nil || *opt.Value != "v" {
		t.Errorf("DependencyOp = %+v, %v; want value v", opt, err)
	}
	if c.Dependency() == nil {
		t.Error("Dependency() = nil; the client's own method must stay")
	}
}
