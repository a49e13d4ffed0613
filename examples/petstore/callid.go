package petstore

import (
	"context"
	"net/http"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// CallIDHeader is the request header, and CallIDMetadata the gRPC metadata
// key, that carry the id a caller gives one logical call with
// [WithCallID]. Every client of this package sends it on every request of
// the call, its retries and hedges included (it is attached below the
// clients' own retry loops), and the store counts adopts per call id, so
// that an adopt applied twice for one call shows as a duplicate side
// effect ([CountersSnapshot.DuplicateEffects]) whichever client sent it.
const (
	CallIDHeader   = "X-Call-Id"
	CallIDMetadata = "x-call-id"
)

type callIDKey struct{}

// WithCallID returns ctx carrying id as the logical call's id.
func WithCallID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callIDKey{}, id)
}

// CallID returns the call id ctx carries, "" if none.
func CallID(ctx context.Context) string {
	id, _ := ctx.Value(callIDKey{}).(string)
	return id
}

// callIDTransport sends the call id of each request's context as
// [CallIDHeader].
type callIDTransport struct{ base http.RoundTripper }

func (t callIDTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	id := CallID(req.Context())
	if id == "" {
		return t.base.RoundTrip(req)
	}
	// A RoundTripper must not change the request it is given.
	r := req.Clone(req.Context())
	r.Header.Set(CallIDHeader, id)
	return t.base.RoundTrip(r)
}

// callIDUnary sends the call id of each RPC's context as [CallIDMetadata].
func callIDUnary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if id := CallID(ctx); id != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, CallIDMetadata, id)
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

// incomingCallID returns the call id of an incoming gRPC call.
func incomingCallID(ctx context.Context) string {
	if vs := metadata.ValueFromIncomingContext(ctx, CallIDMetadata); len(vs) > 0 {
		return vs[0]
	}
	return ""
}
