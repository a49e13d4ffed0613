package petstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/resilientgo/resilient/examples/petstore/httpclient"
	"github.com/resilientgo/resilient/examples/petstore/petstorepb"
	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
)

// A degraded answer (runtime.IsDegraded) is returned by every client as
// Answer{Degraded: true} with a nil error: the call was served, from the
// fallback.

// ClientOption configures the resilient clients made by
// [NewResilientHTTP] and [NewResilientGRPC]; options that concern only one
// of them are ignored by the other.
type ClientOption interface{ apply(*clientOptions) }

type clientOptions struct {
	httpPolicy []func(*petstorehttp.Policy)
	grpcPolicy []func(*petstorepb.PetStorePolicy)
	noHedge    bool
	observer   runtime.Observer
	logger     *slog.Logger
}

type optionFunc func(*clientOptions)

func (f optionFunc) apply(o *clientOptions) { f(o) }

// WithHTTPPolicy changes the HTTP client's policy, which starts from
// petstorehttp.DefaultPolicy() (generated from openapi.yaml and
// policy.yaml). Several apply in order.
func WithHTTPPolicy(edit func(*petstorehttp.Policy)) ClientOption {
	return optionFunc(func(o *clientOptions) { o.httpPolicy = append(o.httpPolicy, edit) })
}

// WithGRPCPolicy changes the gRPC client's policy, which starts from
// petstorepb.DefaultPetStorePolicy() (generated from petstore.proto and
// policy.grpc.yaml). Several apply in order.
func WithGRPCPolicy(edit func(*petstorepb.PetStorePolicy)) ClientOption {
	return optionFunc(func(o *clientOptions) { o.grpcPolicy = append(o.grpcPolicy, edit) })
}

// WithoutHedging turns hedging off for every operation (the generated
// policy hedges ListPets and GetPet after the p95, 15ms), applied after
// the policy edits.
func WithoutHedging() ClientOption {
	return optionFunc(func(o *clientOptions) { o.noHedge = true })
}

// WithObserver sets the observer of the client's pipeline: attempts,
// retries, hedges, breaker changes, rejections, degraded answers.
func WithObserver(obs runtime.Observer) ClientOption {
	return optionFunc(func(o *clientOptions) { o.observer = obs })
}

// WithLogger sets the logger breaker transitions are written to; the
// default is slog.Default().
func WithLogger(l *slog.Logger) ClientOption {
	return optionFunc(func(o *clientOptions) { o.logger = l })
}

func collect(opts []ClientOption) clientOptions {
	var o clientOptions
	for _, opt := range opts {
		if opt != nil {
			opt.apply(&o)
		}
	}
	return o
}

// answer turns a call's error into what the harness sees.
func answer(err error) (Answer, error) {
	if runtime.IsDegraded(err) {
		return Answer{Degraded: true}, nil
	}
	return Answer{}, err
}

// newKey returns a fresh idempotency key.
func newKey() string { return rand.Text() }

// resilientHTTP is the generated HTTP client.
type resilientHTTP struct {
	c  *petstorehttp.Client
	tr *http.Transport
}

// NewResilientHTTP returns the client generated from openapi.yaml, calling
// the server at baseURL ("http://127.0.0.1:8080") through the resilience
// pipeline, on a transport of its own that Close releases.
func NewResilientHTTP(baseURL string, opts ...ClientOption) (Client, error) {
	o := collect(opts)
	edits := append([]func(*petstorehttp.Policy){}, o.httpPolicy...)
	if o.noHedge {
		edits = append(edits, func(p *petstorehttp.Policy) {
			p.ListPets.Hedge = runtime.HedgePolicy{}
			p.GetPet.Hedge = runtime.HedgePolicy{}
		})
	}
	p := petstorehttp.DefaultPolicy()
	for _, e := range edits {
		e(&p)
	}
	connect := max(p.ListPets.ConnectTimeout, p.GetPet.ConnectTimeout, p.CreatePet.ConnectTimeout,
		p.UpdatePet.ConnectTimeout, p.DeletePet.ConnectTimeout, p.AdoptPet.ConnectTimeout)
	tr := runtime.NewTransport(connect, p.Dependency.Bulkhead.MaxConcurrent)
	copts := []petstorehttp.Option{petstorehttp.WithHTTPClient(&http.Client{Transport: callIDTransport{tr}})}
	for _, e := range edits {
		copts = append(copts, petstorehttp.WithPolicy(e))
	}
	if o.observer != nil {
		copts = append(copts, petstorehttp.WithObserver(o.observer))
	}
	if o.logger != nil {
		copts = append(copts, petstorehttp.WithLogger(o.logger))
	}
	c, err := petstorehttp.NewClient(baseURL, copts...)
	if err != nil {
		tr.CloseIdleConnections()
		return nil, err
	}
	return &resilientHTTP{c: c, tr: tr}, nil
}

func (r *resilientHTTP) Name() string { return "resilient HTTP" }

func (r *resilientHTTP) ListPets(ctx context.Context) (Answer, error) {
	_, err := r.c.ListPets(ctx)
	return answer(err)
}

func (r *resilientHTTP) GetPet(ctx context.Context, id string) (Answer, error) {
	_, err := r.c.GetPet(ctx, id)
	return answer(err)
}

func (r *resilientHTTP) CreatePet(ctx context.Context, name string) (Answer, error) {
	_, err := r.c.CreatePet(ctx, &petstorehttp.CreatePetParams{IdempotencyKey: newKey()}, petstorehttp.NewPet{Name: name})
	return answer(err)
}

func (r *resilientHTTP) UpdatePet(ctx context.Context, id, name string) (Answer, error) {
	_, err := r.c.UpdatePet(ctx, id, petstorehttp.NewPet{Name: name})
	return answer(err)
}

func (r *resilientHTTP) DeletePet(ctx context.Context, id string) (Answer, error) {
	return answer(r.c.DeletePet(ctx, id))
}

func (r *resilientHTTP) AdoptPet(ctx context.Context, id string) (Answer, error) {
	_, err := r.c.AdoptPet(ctx, id)
	return answer(err)
}

func (r *resilientHTTP) Breaker() string { return r.c.Dependency().BreakerState().String() }
func (r *resilientHTTP) InFlight() int   { return r.c.Dependency().InFlight() }

func (r *resilientHTTP) Close() error {
	r.tr.CloseIdleConnections()
	return nil
}

// StatusError is a naive HTTP client's error for an answer that is not a
// success.
type StatusError struct {
	Method, Path string
	Status       int
	// RetryAfter is the answer's Retry-After field, verbatim.
	RetryAfter string
}

// Error describes the failure.
func (e *StatusError) Error() string {
	return fmt.Sprintf("petstore: %s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
}

// naiveHTTP is a hand-written net/http client without timeout or retries.
type naiveHTTP struct {
	base string
	hc   *http.Client
	tr   *http.Transport
}

// NewNaiveHTTP returns a client of the HTTP server at baseURL written the
// way http.DefaultClient is used: no timeout of its own (only ctx bounds
// a call), no retries, no breaker, no bulkhead, no deadline header. It
// has its own transport (a clone of http.DefaultTransport) so that Close
// releases its connections. CreatePet still sends an Idempotency-Key.
func NewNaiveHTTP(baseURL string) Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	return &naiveHTTP{base: strings.TrimSuffix(baseURL, "/"), hc: &http.Client{Transport: callIDTransport{tr}}, tr: tr}
}

func (n *naiveHTTP) Name() string { return "naive HTTP" }

// do sends one request and reads the whole answer.
func (n *naiveHTTP) do(ctx context.Context, method, path string, body any, key string) (Answer, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return Answer{}, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, n.base+path, rd)
	if err != nil {
		return Answer{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := n.hc.Do(req)
	if err != nil {
		return Answer{}, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return Answer{}, err
	}
	if resp.StatusCode >= 300 {
		return Answer{}, &StatusError{Method: method, Path: path, Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After")}
	}
	return Answer{}, nil
}

func (n *naiveHTTP) ListPets(ctx context.Context) (Answer, error) {
	return n.do(ctx, http.MethodGet, "/pets", nil, "")
}

func (n *naiveHTTP) GetPet(ctx context.Context, id string) (Answer, error) {
	return n.do(ctx, http.MethodGet, "/pets/"+url.PathEscape(id), nil, "")
}

func (n *naiveHTTP) CreatePet(ctx context.Context, name string) (Answer, error) {
	return n.do(ctx, http.MethodPost, "/pets", petJSON{Name: name}, newKey())
}

func (n *naiveHTTP) UpdatePet(ctx context.Context, id, name string) (Answer, error) {
	return n.do(ctx, http.MethodPut, "/pets/"+url.PathEscape(id), petJSON{Name: name}, "")
}

func (n *naiveHTTP) DeletePet(ctx context.Context, id string) (Answer, error) {
	return n.do(ctx, http.MethodDelete, "/pets/"+url.PathEscape(id), nil, "")
}

func (n *naiveHTTP) AdoptPet(ctx context.Context, id string) (Answer, error) {
	return n.do(ctx, http.MethodPost, "/pets/"+url.PathEscape(id)+"/adopt", nil, "")
}

func (n *naiveHTTP) Breaker() string { return "none" }
func (n *naiveHTTP) InFlight() int   { return 0 }

func (n *naiveHTTP) Close() error {
	n.tr.CloseIdleConnections()
	return nil
}

// grpcClient is either gRPC client: the generated interface on a conn it
// owns.
type grpcClient struct {
	name string
	cc   *grpc.ClientConn
	c    petstorepb.PetStoreClient
	// Set for the resilient client only.
	breaker *breakerWatch
	calls   *callCounter
	// keys: the client adds its own idempotency key to creates.
	keys bool
}

// NewResilientGRPC returns the resilient client generated from
// petstore.proto (petstorepb.NewResilientPetStoreClient), on a connection
// to target ("127.0.0.1:9090", insecure) of its own, dialled with
// resilientgrpc.DialOptions() so that grpc-go never retries on its own.
//
// The generated gRPC client does not expose its dependency, so Breaker is
// the state last reported to the observer (a transition is reported when a
// call sees it: "open" stays until the next call after openFor), and
// InFlight counts the calls that have sent their first attempt and not
// returned, which is the calls holding a bulkhead permit.
func NewResilientGRPC(target string, opts ...ClientOption) (Client, error) {
	o := collect(opts)
	bw := &breakerWatch{}
	bw.state.Store(int32(runtime.BreakerClosed))
	calls := &callCounter{}
	cc, err := grpc.NewClient(target, append(resilientgrpc.DialOptions(),
		grpc.WithTransportCredentials(insecure.NewCredentials()), reconnectQuickly(),
		grpc.WithChainUnaryInterceptor(calls.intercept, callIDUnary),
		grpc.WithChainStreamInterceptor(calls.interceptStream))...)
	if err != nil {
		return nil, err
	}
	var popts []petstorepb.PetStoreOption
	for _, e := range o.grpcPolicy {
		popts = append(popts, petstorepb.WithPetStorePolicy(e))
	}
	if o.noHedge {
		popts = append(popts, petstorepb.WithPetStorePolicy(func(p *petstorepb.PetStorePolicy) {
			p.ListPets.Hedge = runtime.HedgePolicy{}
			p.GetPet.Hedge = runtime.HedgePolicy{}
		}))
	}
	popts = append(popts, petstorepb.WithPetStoreObserver(fanOut{bw, o.observer}))
	if o.logger != nil {
		popts = append(popts, petstorepb.WithPetStoreLogger(o.logger))
	}
	return &grpcClient{
		name:    "resilient gRPC",
		cc:      cc,
		c:       petstorepb.NewResilientPetStoreClient(cc, popts...),
		breaker: bw,
		calls:   calls,
		keys:    true,
	}, nil
}

// NewNaiveGRPC returns protoc-gen-go-grpc's plain client
// (petstorepb.NewPetStoreClient) on a connection to target (insecure) of
// its own, without a deadline of its own: only ctx bounds a call. It sends
// no idempotency key except on CreatePet, one per call, and never retries.
func NewNaiveGRPC(target string) (Client, error) {
	cc, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()), reconnectQuickly(),
		grpc.WithChainUnaryInterceptor(callIDUnary))
	if err != nil {
		return nil, err
	}
	return &grpcClient{name: "naive gRPC", cc: cc, c: petstorepb.NewPetStoreClient(cc)}, nil
}

// reconnectQuickly shortens grpc-go's reconnect backoff (1 s at first,
// growing to 2 min) to what a dependency on loopback warrants, so that a
// connection reset costs milliseconds, not seconds. Both gRPC clients use
// it, so that they are compared on the same connection behaviour.
func reconnectQuickly() grpc.DialOption {
	return grpc.WithConnectParams(grpc.ConnectParams{
		Backoff:           backoff.Config{BaseDelay: 10 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: 200 * time.Millisecond},
		MinConnectTimeout: 200 * time.Millisecond,
	})
}

func (g *grpcClient) Name() string { return g.name }

func (g *grpcClient) call(ctx context.Context, fn func(context.Context) error) (Answer, error) {
	if g.calls != nil {
		var started atomic.Bool
		ctx = context.WithValue(ctx, callKey{}, &started)
		defer func() {
			if started.Load() {
				g.calls.n.Add(-1)
			}
		}()
	}
	return answer(fn(ctx))
}

func (g *grpcClient) ListPets(ctx context.Context) (Answer, error) {
	return g.call(ctx, func(ctx context.Context) error {
		_, err := g.c.ListPets(ctx, &petstorepb.ListPetsRequest{})
		return err
	})
}

func (g *grpcClient) GetPet(ctx context.Context, id string) (Answer, error) {
	return g.call(ctx, func(ctx context.Context) error {
		_, err := g.c.GetPet(ctx, &petstorepb.GetPetRequest{Id: id})
		return err
	})
}

func (g *grpcClient) CreatePet(ctx context.Context, name string) (Answer, error) {
	return g.call(ctx, func(ctx context.Context) error {
		if !g.keys {
			// The resilient client adds its own key, one per call.
			ctx = metadata.AppendToOutgoingContext(ctx, IdempotencyKeyMetadata, newKey())
		}
		_, err := g.c.CreatePet(ctx, &petstorepb.CreatePetRequest{Name: name})
		return err
	})
}

func (g *grpcClient) UpdatePet(ctx context.Context, id, name string) (Answer, error) {
	return g.call(ctx, func(ctx context.Context) error {
		_, err := g.c.UpdatePet(ctx, &petstorepb.UpdatePetRequest{Id: id, Name: name})
		return err
	})
}

func (g *grpcClient) DeletePet(ctx context.Context, id string) (Answer, error) {
	return g.call(ctx, func(ctx context.Context) error {
		_, err := g.c.DeletePet(ctx, &petstorepb.DeletePetRequest{Id: id})
		return err
	})
}

func (g *grpcClient) AdoptPet(ctx context.Context, id string) (Answer, error) {
	return g.call(ctx, func(ctx context.Context) error {
		_, err := g.c.AdoptPet(ctx, &petstorepb.AdoptPetRequest{Id: id})
		return err
	})
}

func (g *grpcClient) Breaker() string {
	if g.breaker == nil {
		return "none"
	}
	return runtime.BreakerState(g.breaker.state.Load()).String()
}

func (g *grpcClient) InFlight() int {
	if g.calls == nil {
		return 0
	}
	return int(g.calls.n.Load())
}

func (g *grpcClient) Close() error { return g.cc.Close() }

// breakerWatch keeps the last breaker state the observer reported.
type breakerWatch struct {
	runtime.NopObserver
	state atomic.Int32
}

func (b *breakerWatch) BreakerChange(e runtime.BreakerEvent) { b.state.Store(int32(e.To)) }

// callKey marks a call's context with the flag its first attempt sets.
type callKey struct{}

// callCounter counts calls whose first attempt has gone out.
type callCounter struct{ n atomic.Int64 }

func (c *callCounter) mark(ctx context.Context) {
	if started, ok := ctx.Value(callKey{}).(*atomic.Bool); ok && started.CompareAndSwap(false, true) {
		c.n.Add(1)
	}
}

func (c *callCounter) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	c.mark(ctx)
	return invoker(ctx, method, req, reply, cc, opts...)
}

func (c *callCounter) interceptStream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return streamer(ctx, desc, cc, method, opts...)
}

// fanOut sends every event to each non-nil observer.
type fanOut []runtime.Observer

func (f fanOut) each(fn func(runtime.Observer)) {
	for _, o := range f {
		if o != nil {
			fn(o)
		}
	}
}

func (f fanOut) Attempt(e runtime.AttemptEvent) { f.each(func(o runtime.Observer) { o.Attempt(e) }) }
func (f fanOut) Retry(e runtime.RetryEvent)     { f.each(func(o runtime.Observer) { o.Retry(e) }) }
func (f fanOut) Hedge(e runtime.HedgeEvent)     { f.each(func(o runtime.Observer) { o.Hedge(e) }) }
func (f fanOut) BreakerChange(e runtime.BreakerEvent) {
	f.each(func(o runtime.Observer) { o.BreakerChange(e) })
}
func (f fanOut) Rejected(e runtime.RejectedEvent) { f.each(func(o runtime.Observer) { o.Rejected(e) }) }
func (f fanOut) Degraded(e runtime.DegradedEvent) { f.each(func(o runtime.Observer) { o.Degraded(e) }) }
