package runtime

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/runtime/codec"
	"go.uber.org/goleak"
)

// TestFileBodyRetried: an idempotent PUT of a file is retried with the
// whole file each time; a one-shot reader gets one attempt.
func TestFileBodyRetried(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	file := filepath.Join(t.TempDir(), "upload")
	os.WriteFile(file, bytes.Repeat([]byte("0123456789"), 1000), 0o600)
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var sizes []int
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			sizes = append(sizes, len(b))
			n := len(sizes)
			mu.Unlock()
			if n < 3 || r.URL.Path == "/once" {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			io.WriteString(w, `{"id":7}`)
		}))
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: Idempotent, Timeout: 2 * time.Second})
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		req, _ := http.NewRequest(http.MethodPut, rig.url+"/files/a", nil)
		codec.SetBody(req, f)
		if _, err := DoHTTP(t.Context(), op, rig.client, req, decodePet, nil); err != nil {
			t.Fatal(err)
		}
		if len(sizes) != 3 || sizes[0] != 10000 || sizes[2] != 10000 {
			t.Errorf("server got bodies of %v bytes, want 3 of 10000", sizes)
		}
		sizes = nil
		req, _ = http.NewRequest(http.MethodPut, rig.url+"/once", nil)
		codec.SetBody(req, io.MultiReader(strings.NewReader("one shot")))
		_, err = DoHTTP(t.Context(), op, rig.client, req, decodePet, nil)
		var re *RemoteError
		if !errors.As(err, &re) || re.Attempts != 1 || len(sizes) != 1 {
			t.Errorf("one-shot body: %v after %d requests, want a 503 after 1", err, len(sizes))
		}
	})
}
