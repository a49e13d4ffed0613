package petstore

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/resilientgo/resilient/runtime/server"
)

// HealthPath is the health check of the HTTP server: exempt from the
// shedder and the faults, it answers 200 while the server runs.
const HealthPath = "/healthz"

// NewHTTPServer returns the handler of the HTTP pet store (openapi.yaml)
// serving store. Outermost first: [server.DeadlineMiddleware] turns the
// caller's deadline header into the request's deadline; a
// [server.Shedder] configured by shed admits at most shed.MaxConcurrent
// requests at once and queues a bounded number, answering the others 503
// (or shed.Status) with Retry-After and counting them in
// [CountersSnapshot.Shed]; then the handlers, which count each request and
// apply the store's [Faults]. [HealthPath] bypasses the shedder and the
// faults; shed.Exempt, when set, exempts more requests.
func NewHTTPServer(store *Store, shed server.ShedConfig) http.Handler {
	mux := http.NewServeMux()
	h := &httpServer{store: store}
	mux.HandleFunc("GET /pets", h.listPets)
	mux.HandleFunc("POST /pets", h.createPet)
	mux.HandleFunc("GET /pets/{id}", h.getPet)
	mux.HandleFunc("PUT /pets/{id}", h.updatePet)
	mux.HandleFunc("DELETE /pets/{id}", h.deletePet)
	mux.HandleFunc("POST /pets/{id}/adopt", h.adoptPet)
	mux.HandleFunc("GET "+HealthPath, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
	})

	exempt := server.ExemptPaths(HealthPath)
	if more := shed.Exempt; more != nil {
		exempt = func(r *http.Request) bool { return r.URL.Path == HealthPath || more(r) }
	}
	shed.Exempt = exempt
	status := http.StatusServiceUnavailable
	if shed.Status == http.StatusTooManyRequests {
		status = shed.Status
	}
	retryAfter := shed.RetryAfter
	if retryAfter <= 0 {
		retryAfter = server.DefaultShedRetryAfter
	}
	shedder := server.NewShedder(shed)
	guarded := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if exempt(r) {
			mux.ServeHTTP(w, r)
			return
		}
		at, ok := shedder.Admit(r.Context())
		if !ok {
			store.counters.countShed()
			writeError(w, status, retryAfter, "overloaded, retry later")
			return
		}
		defer shedder.Release(at)
		mux.ServeHTTP(w, r)
	})
	return server.DeadlineMiddleware(guarded)
}

type httpServer struct{ store *Store }

// petJSON is the Pet schema of openapi.yaml.
type petJSON struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Adoptions int64  `json:"adoptions,omitempty"`
}

func toJSON(p Pet) petJSON { return petJSON(p) }

// serve runs one request of op: begin (count, faults), then fn, whose
// answer is written as JSON with status ok, or whose error is mapped.
func (h *httpServer) serve(w http.ResponseWriter, r *http.Request, op string, ok int, fn func() (any, error)) {
	done, err := h.store.begin(r.Context(), op)
	defer done()
	var v any
	if err == nil {
		v, err = fn()
		if err == nil && h.store.faults.loseAnswer() {
			// Applied, and the connection goes down before the answer:
			// net/http closes it without writing anything.
			panic(http.ErrAbortHandler)
		}
	}
	var fe *FaultError
	switch {
	case err == nil && v == nil:
		w.WriteHeader(ok)
	case err == nil:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(ok)
		_ = json.NewEncoder(w).Encode(v)
	case errors.As(err, &fe):
		writeError(w, fe.Status, fe.RetryAfter, "injected fault")
	case errors.Is(err, ErrNotFound):
		writeError(w, http.StatusNotFound, 0, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, 0, "deadline exceeded")
	case errors.Is(err, context.Canceled):
		// Nobody is listening; net/http discards what is written.
		writeError(w, http.StatusServiceUnavailable, 0, "request cancelled")
	default:
		writeError(w, http.StatusBadRequest, 0, err.Error())
	}
}

// writeError writes the Error schema of openapi.yaml, with Retry-After in
// whole seconds (rounded up) when retryAfter is positive.
func writeError(w http.ResponseWriter, status int, retryAfter time.Duration, msg string) {
	if retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64((retryAfter+time.Second-1)/time.Second), 10))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{status, msg})
}

func (h *httpServer) listPets(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, OpListPets, http.StatusOK, func() (any, error) {
		pets := h.store.List()
		out := make([]petJSON, len(pets))
		for i, p := range pets {
			out[i] = toJSON(p)
		}
		return out, nil
	})
}

func (h *httpServer) getPet(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, OpGetPet, http.StatusOK, func() (any, error) {
		p, err := h.store.Get(r.PathValue("id"))
		return toJSON(p), err
	})
}

func (h *httpServer) createPet(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, OpCreatePet, http.StatusCreated, func() (any, error) {
		var in petJSON
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Name == "" {
			return nil, errors.New("petstore: the body must be a NewPet with a name")
		}
		return toJSON(h.store.Create(r.Header.Get("Idempotency-Key"), in.Name)), nil
	})
}

func (h *httpServer) updatePet(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, OpUpdatePet, http.StatusOK, func() (any, error) {
		var in petJSON
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Name == "" {
			return nil, errors.New("petstore: the body must be a NewPet with a name")
		}
		p, err := h.store.Update(r.PathValue("id"), in.Name)
		return toJSON(p), err
	})
}

func (h *httpServer) deletePet(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, OpDeletePet, http.StatusNoContent, func() (any, error) {
		h.store.Delete(r.PathValue("id"))
		return nil, nil
	})
}

func (h *httpServer) adoptPet(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, OpAdoptPet, http.StatusOK, func() (any, error) {
		p, err := h.store.Adopt(r.PathValue("id"), r.Header.Get(CallIDHeader))
		return toJSON(p), err
	})
}
