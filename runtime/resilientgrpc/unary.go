package resilientgrpc

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/resilientgo/resilient/runtime"
)

// Invoke runs one unary call of method on cc through op's pipeline
// ([runtime.Do]) and returns the reply, a new Resp per attempt. It is what
// a generated resilient client's unary method calls:
//
//	func (c *resilientPetsClient) GetPet(ctx context.Context, in *GetPetRequest, opts ...grpc.CallOption) (*Pet, error) {
//		return resilientgrpc.Invoke[Pet](ctx, c.cc, c.getPet, Pets_GetPet_FullMethodName, in, opts...)
//	}
//
// Each attempt calls cc.Invoke under the attempt's context, so the deadline
// goes out natively as grpc-timeout: the smaller of the caller's remaining
// deadline, the operation's remaining total timeout and the attempt timeout.
// Failures are classified by [Classify], with the grpc-retry-pushback-ms
// trailer as an exact retry delay (or a refusal to retry) and response
// headers received before the failure as a commitment that forbids a retry
// (gRFC A6). Retries, when the operation is idempotent, are the pipeline's
// only: each attempt is committed as soon as its request is sent
// (grpc.MaxRetryRPCBufferSize(0)), so grpc-go's own service-config retries
// cannot run underneath (transparent retries of requests that never reached
// the server still can).
//
// opts are passed to every attempt, except those made by [CallPolicy],
// which override op's policy for this call. A failed call returns an
// [*Error]; status.Code and status.Convert work on it (see [Status]). A
// fallback answer comes with a non-nil reply and an error matching
// [runtime.ErrDegraded].
func Invoke[Resp any](ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation, method string, req any, opts ...grpc.CallOption) (*Resp, error) {
	copts, pol := splitOptions(opts)
	op = op.With(pol...)
	reply, err := runtime.Do(ctx, op, requestKey(op, req), func(actx context.Context) (*Resp, error) {
		reply := new(Resp)
		var header, trailer metadata.MD
		all := make([]grpc.CallOption, 0, len(copts)+3)
		all = append(all, copts...)
		all = append(all, grpc.Header(&header), grpc.Trailer(&trailer), noBuiltinRetry())
		if err := cc.Invoke(actx, method, req, reply, all...); err != nil {
			return nil, attemptError(err, trailer, header != nil)
		}
		return reply, nil
	})
	return reply, wrap(err)
}

// CallPolicy returns a call option that overrides part of the operation's
// policy (timeout, attempt timeout, retries, hedging, fallback) for one
// call, without regenerating the client:
//
//	client.GetPet(ctx, req, resilientgrpc.CallPolicy(runtime.WithTimeout(300*time.Millisecond)))
//
// It is consumed by the helpers of this package and never reaches grpc-go.
func CallPolicy(opts ...runtime.CallOption) grpc.CallOption {
	return policyOption{opts: opts}
}

// policyOption carries [runtime.CallOption]s through a grpc.CallOption list.
type policyOption struct {
	grpc.EmptyCallOption
	opts []runtime.CallOption
}

// splitOptions separates the policy overrides from the options for grpc-go.
func splitOptions(opts []grpc.CallOption) ([]grpc.CallOption, []runtime.CallOption) {
	var pol []runtime.CallOption
	n := 0
	for _, o := range opts {
		if p, ok := o.(policyOption); ok {
			pol = append(pol, p.opts...)
			continue
		}
		n++
	}
	if pol == nil {
		return opts, nil
	}
	out := make([]grpc.CallOption, 0, n)
	for _, o := range opts {
		if _, ok := o.(policyOption); !ok {
			out = append(out, o)
		}
	}
	return out, pol
}

// noBuiltinRetry commits each attempt once its first request message is
// sent, which switches off grpc-go's service-config retries for it.
func noBuiltinRetry() grpc.CallOption { return grpc.MaxRetryRPCBufferSize(0) }

// requestKey returns the cached-fallback key of req: its deterministic
// protobuf encoding, computed only when the operation keeps a cache.
func requestKey(op *runtime.Operation, req any) string {
	if !op.CachesFallback() {
		return ""
	}
	m, ok := req.(proto.Message)
	if !ok {
		return ""
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return ""
	}
	return string(b)
}
