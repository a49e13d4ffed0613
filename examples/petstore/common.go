package petstore

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/resilientgo/resilient/examples/petstore/petstorepb"
)

// The common clients are what teams usually write when they want retries
// and reach for the popular building blocks: an HTTP client on
// github.com/hashicorp/go-retryablehttp with its defaults, and a gRPC
// connection whose service config retries UNAVAILABLE for every method.
// They send the same requests as the naive clients (CreatePet with one
// Idempotency-Key per call, kept by their retries); what they add is the
// libraries' retries, on every method, POST and AdoptPet included.

// CommonGRPCServiceConfig is the service config of [NewCommonGRPC]: the
// retry policy of grpc-go's retry example, for every method of every
// service (the name {} matches them all): up to four attempts, 10 ms
// apart, on UNAVAILABLE.
const CommonGRPCServiceConfig = `{
  "methodConfig": [{
    "name": [{}],
    "retryPolicy": {
      "maxAttempts": 4,
      "initialBackoff": "0.01s",
      "maxBackoff": "0.01s",
      "backoffMultiplier": 1.0,
      "retryableStatusCodes": ["UNAVAILABLE"]
    }
  }]
}`

// commonHTTP is the go-retryablehttp client.
type commonHTTP struct {
	base string
	rc   *retryablehttp.Client
}

// NewCommonHTTP returns a client of the HTTP server at baseURL built on
// go-retryablehttp with its defaults: its pooled net/http client without a
// timeout (only ctx bounds a call), up to 4 retries of connection errors,
// 429 and 5xx (but 501) for every method, waits of 1 s doubling to 30 s or
// the Retry-After of a 429 or 503, and its closing of idle connections
// when a call fails. Only its logger is set, to logger (nil discards), so
// that its per-request lines do not reach a terminal. Close releases its
// connections.
func NewCommonHTTP(baseURL string, logger *slog.Logger) Client {
	rc := retryablehttp.NewClient()
	hc := cleanhttp.DefaultPooledClient() // what retryablehttp uses when HTTPClient is nil
	hc.Transport = callIDTransport{hc.Transport}
	rc.HTTPClient = hc
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	rc.Logger = logger
	return &commonHTTP{base: strings.TrimSuffix(baseURL, "/"), rc: rc}
}

func (c *commonHTTP) Name() string { return "common HTTP" }

// do sends one call through go-retryablehttp and reads the whole answer.
func (c *commonHTTP) do(ctx context.Context, method, path string, body any, key string) (Answer, error) {
	var raw any
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return Answer{}, err
		}
		raw = b
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, method, c.base+path, raw)
	if err != nil {
		return Answer{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := c.rc.Do(req)
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

func (c *commonHTTP) ListPets(ctx context.Context) (Answer, error) {
	return c.do(ctx, http.MethodGet, "/pets", nil, "")
}

func (c *commonHTTP) GetPet(ctx context.Context, id string) (Answer, error) {
	return c.do(ctx, http.MethodGet, "/pets/"+url.PathEscape(id), nil, "")
}

func (c *commonHTTP) CreatePet(ctx context.Context, name string) (Answer, error) {
	return c.do(ctx, http.MethodPost, "/pets", petJSON{Name: name}, newKey())
}

func (c *commonHTTP) UpdatePet(ctx context.Context, id, name string) (Answer, error) {
	return c.do(ctx, http.MethodPut, "/pets/"+url.PathEscape(id), petJSON{Name: name}, "")
}

func (c *commonHTTP) DeletePet(ctx context.Context, id string) (Answer, error) {
	return c.do(ctx, http.MethodDelete, "/pets/"+url.PathEscape(id), nil, "")
}

func (c *commonHTTP) AdoptPet(ctx context.Context, id string) (Answer, error) {
	return c.do(ctx, http.MethodPost, "/pets/"+url.PathEscape(id)+"/adopt", nil, "")
}

func (c *commonHTTP) Breaker() string { return "none" }
func (c *commonHTTP) InFlight() int   { return 0 }

func (c *commonHTTP) Close() error {
	c.rc.HTTPClient.CloseIdleConnections()
	return nil
}

// NewCommonGRPC returns protoc-gen-go-grpc's plain client on a connection
// to target (insecure) of its own whose service config
// ([CommonGRPCServiceConfig]) makes grpc-go retry UNAVAILABLE for every
// method, AdoptPet included. It has no deadline of its own: only ctx
// bounds a call. CreatePet sends one idempotency key per call, which
// grpc-go's retries keep.
func NewCommonGRPC(target string) (Client, error) {
	cc, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()), reconnectQuickly(),
		grpc.WithDefaultServiceConfig(CommonGRPCServiceConfig), grpc.WithChainUnaryInterceptor(callIDUnary))
	if err != nil {
		return nil, err
	}
	return &grpcClient{name: "common gRPC", cc: cc, c: petstorepb.NewPetStoreClient(cc)}, nil
}
