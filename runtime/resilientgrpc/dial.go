package resilientgrpc

import (
	"errors"
	"fmt"

	"google.golang.org/grpc"
)

// DialOptions returns the dial options for a connection that resilient
// clients use: grpc.WithDisableRetry(), so that grpc-go never retries on its
// own, whatever service config the name resolver delivers. Two retry layers
// multiply attempts (three each give nine per call) and grpc-go's retries
// would bypass the retry budget, the breaker and the idempotency gate.
//
//	cc, err := grpc.NewClient(target, append(resilientgrpc.DialOptions(), grpc.WithTransportCredentials(creds))...)
//
// The helpers of this package also commit every call, which prevents
// grpc-go's retries for their calls even on a connection dialed without
// these options: a unary call once its request is sent, a stream as soon
// as it is open, before the caller's first message. The dial option is
// what keeps other calls on the same connection, and a service config read
// by a later reader, consistent. grpc-go's transparent retries (of a
// request that never reached the server application, before the call is
// committed) cannot be turned off and need not be: they are safe for every
// method.
func DialOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithDisableRetry()}
}

// CheckNoBuiltinRetry reports the methods for which cc's current service
// config has a retryPolicy, for constructors and tests that want to flag a
// configuration with a second retry layer.
//
// What it can see is limited by what grpc-go exposes, and a nil result
// proves little:
//
//   - only a *grpc.ClientConn can be inspected; for any other
//     grpc.ClientConnInterface it returns nil;
//   - it sees the service config in force when it is called: a connection
//     made by grpc.NewClient starts idle and receives its service config
//     from the resolver only when it first connects, and the config may
//     change later;
//   - it cannot see whether the connection was dialed with
//     grpc.WithDisableRetry (dial options are not exposed), in which case
//     the reported policy is inert.
//
// The guarantee against stacked retries is therefore not this check but
// the per-attempt commitment described at [Invoke], plus [DialOptions].
func CheckNoBuiltinRetry(cc grpc.ClientConnInterface, methods ...string) error {
	c, ok := cc.(*grpc.ClientConn)
	if !ok {
		return nil
	}
	var errs []error
	for _, m := range methods {
		if rp := c.GetMethodConfig(m).RetryPolicy; rp != nil {
			errs = append(errs, fmt.Errorf("resilientgrpc: %s: the service config has a retryPolicy (maxAttempts %d); dial with resilientgrpc.DialOptions() so that only the resilient client retries", m, rp.MaxAttempts))
		}
	}
	return errors.Join(errs...)
}
