package resilientgrpc

import (
	"context"
	"io"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/outcome"
)

// ServerStream opens a server-streaming call of method on cc through op's
// pipeline and returns the stream. It is what a generated resilient
// client's server-streaming method calls:
//
//	func (c *resilientPetsClient) ListPets(ctx context.Context, in *ListPetsRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[Pet], error) {
//		return resilientgrpc.ServerStream[Pet](ctx, c.cc, c.listPets, &Pets_ServiceDesc.Streams[0], Pets_ListPets_FullMethodName, in, opts...)
//	}
//
// The pipeline covers the establishment of the stream, which lasts until
// the first message (or the end of an empty stream) is received: each
// attempt opens the stream, sends req, closes the send side and receives
// the first message, bounded by the operation's total and attempt
// timeouts, counted by the breaker and retried, for an idempotent
// operation, only while no message and no response headers have arrived
// (the stream is committed from then on). The returned stream yields the
// buffered first message and then the rest; errors after establishment
// come from grpc-go unchanged and are never retried.
//
// An attempt that its timeout (or the total timeout) ends before the first
// message fails with DEADLINE_EXCEEDED and matches
// [context.DeadlineExceeded], although grpc-go sees the stream cancelled.
// The outgoing metadata and the idempotency key are checked and sent as
// [Invoke] does.
//
// The stream itself lives under ctx: ctx's deadline, if any, goes out as
// grpc-timeout, and the operation's total timeout does not cut a stream
// that is already established. The call holds one bulkhead permit of the
// dependency only while the stream is being established, up to the first
// message ([runtime.DoStream]): open streams never starve the dependency's
// unary calls. The stream's context is cancelled, and its trace ended,
// when it ends: Recv returning an error (io.EOF included) or ctx being
// done; cancel ctx when done with a stream you abandon. Hedging and
// fallback do not apply to streams.
func ServerStream[Res any](ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation, desc *grpc.StreamDesc, method string, req any, opts ...grpc.CallOption) (grpc.ServerStreamingClient[Res], error) {
	copts, pol := splitOptions(opts)
	op = op.With(append(pol, runtime.WithoutHedging(), runtime.WithoutFallback())...)
	ctx, err := prepareContext(ctx, op)
	if err != nil {
		return nil, wrap(op.InvalidRequest(err))
	}
	copts = append(copts[:len(copts):len(copts)], noBuiltinRetry())
	s, end, err := runtime.DoStream(ctx, op, "", func(actx context.Context) (*serverStream[Res], error) {
		sctx, cancel := context.WithCancel(ctx)
		stop := context.AfterFunc(actx, cancel)
		fail := func(err error, trailer metadata.MD, committed bool, s stream) (*serverStream[Res], error) {
			ended := !stop()
			cancel()
			if ended {
				// The attempt's end cancelled the stream: grpc-go says
				// CANCELLED, but its deadline (or the caller) ended it.
				err = status.FromContextError(actx.Err()).Err()
			}
			return nil, attemptError(err, trailer, committed, s)
		}
		cs, err := cc.NewStream(sctx, desc, method, copts...)
		if err != nil {
			return fail(err, nil, false, streamNone)
		}
		commitStream(cs)
		// io.EOF from SendMsg means the server ended the stream; RecvMsg
		// returns its status.
		if err := cs.SendMsg(req); err != nil && err != io.EOF {
			if status.Code(err) == codes.Internal {
				if merr := marshalError(req); merr != nil {
					stop()
					cancel()
					return nil, &runtime.InvalidRequestError{Dependency: op.Dependency().Name(), Operation: op.Name(), Err: merr}
				}
			}
			return fail(err, cs.Trailer(), false, streamOpen)
		}
		if err := cs.CloseSend(); err != nil {
			return fail(err, cs.Trailer(), false, streamOpen)
		}
		s := &serverStream[Res]{ClientStream: cs, held: held{ctx: sctx, cancel: cancel}, first: new(Res)}
		switch err := cs.RecvMsg(s.first); {
		case err == io.EOF:
			s.first, s.err = nil, io.EOF
		case err != nil:
			header, _ := cs.Header()
			return fail(err, cs.Trailer(), header != nil, streamOpen)
		}
		if !stop() {
			// The attempt's context ended as the message arrived, and
			// cancelled the stream with it.
			cancel()
			return nil, attemptError(status.FromContextError(actx.Err()).Err(), nil, false, streamOpen)
		}
		return s, nil
	})
	if err != nil {
		return nil, wrap(err)
	}
	s.hold(func() { end(nil) })
	if s.err != nil {
		s.end()
	}
	return s, nil
}

// ClientStream opens a client-streaming call of method on cc through op's
// pipeline. Establishment (grpc-go's NewStream) is bounded by the
// operation's timeouts, needs a bulkhead permit and the breaker's consent,
// and is never retried: the messages are the caller's to send once. The
// permit is held only while the stream is being opened; the stream's
// context is cancelled when CloseAndRecv (or RecvMsg) returns, or ctx is
// done.
// The stream lives under ctx, whose deadline goes out as grpc-timeout.
//
// A stream that could not be opened (no connection) matches
// [runtime.ErrNotSent]. For a [runtime.NotIdempotent] operation, a failure
// of the open stream that may have come after the server applied what was
// sent (DEADLINE_EXCEEDED, CANCELLED, UNKNOWN, INTERNAL, UNAVAILABLE,
// DATA_LOSS: a connection cut, a deadline) is returned by CloseAndRecv or
// RecvMsg as a [*runtime.OutcomeUnknownError] matching
// [runtime.ErrOutcomeUnknown], whose GRPCStatus is grpc-go's.
func ClientStream[Req, Res any](ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStreamingClient[Req, Res], error) {
	h, err := openStream(ctx, cc, op, desc, method, opts, true)
	if err != nil {
		return nil, err
	}
	return &grpc.GenericClientStream[Req, Res]{ClientStream: h}, nil
}

// BidiStream opens a bidirectional-streaming call of method on cc through
// op's pipeline, as [ClientStream] does: establishment bounded, bulkheaded
// and seen by the breaker, never retried, and its failures told apart as
// ClientStream's are (not sent, or outcome unknown for a non-idempotent
// operation). The permit is held only while the stream is being opened;
// the stream's context is cancelled when Recv returns an error (io.EOF
// included) or ctx is done.
func BidiStream[Req, Res any](ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.BidiStreamingClient[Req, Res], error) {
	h, err := openStream(ctx, cc, op, desc, method, opts, false)
	if err != nil {
		return nil, err
	}
	return &grpc.GenericClientStream[Req, Res]{ClientStream: h}, nil
}

// openStream establishes a client or bidi stream without retries.
// single is true when the response is one message (client streaming).
func openStream(ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation, desc *grpc.StreamDesc, method string, opts []grpc.CallOption, single bool) (*heldStream, error) {
	copts, pol := splitOptions(opts)
	op = op.With(append(pol, runtime.WithoutRetries(), runtime.WithoutHedging(), runtime.WithoutFallback())...)
	ctx, err := prepareContext(ctx, op)
	if err != nil {
		return nil, wrap(op.InvalidRequest(err))
	}
	copts = append(copts[:len(copts):len(copts)], noBuiltinRetry())
	h, end, err := runtime.DoStream(ctx, op, "", func(actx context.Context) (*heldStream, error) {
		sctx, cancel := context.WithCancel(ctx)
		stop := context.AfterFunc(actx, cancel)
		cs, err := cc.NewStream(sctx, desc, method, copts...)
		if !stop() {
			// The attempt's end cancelled the stream: grpc-go says
			// CANCELLED (or nothing), but its deadline or the caller ended
			// it.
			cancel()
			s := streamOpen
			if err != nil {
				s = streamNone
			}
			return nil, attemptError(status.FromContextError(actx.Err()).Err(), nil, false, s)
		}
		if err != nil {
			cancel()
			return nil, attemptError(err, nil, false, streamNone)
		}
		commitStream(cs)
		h := &heldStream{ClientStream: cs, held: held{ctx: sctx, cancel: cancel}, single: single}
		if op.Idempotency() == runtime.NotIdempotent {
			h.dep, h.op = op.Dependency().Name(), op.Name()
		}
		return h, nil
	})
	if err != nil {
		return nil, wrap(err)
	}
	h.hold(func() { end(nil) })
	return h, nil
}

// held is the end of an established stream's life: it cancels the
// stream's context and ends the call's trace, once, when the stream ends
// or its context is done.
type held struct {
	ctx    context.Context
	cancel context.CancelFunc
	end    func()
}

// hold arranges for release to run when the stream ends.
func (h *held) hold(release func()) {
	h.end = sync.OnceFunc(func() {
		h.cancel()
		release()
	})
	context.AfterFunc(h.ctx, h.end)
}

// heldStream is an established client or bidi stream.
type heldStream struct {
	grpc.ClientStream
	held
	single bool
	// dep and op name a non-idempotent operation, whose failures on the
	// way are marked outcome unknown; empty for any other.
	dep, op string
}

// RecvMsg receives a message; the stream ends on an error, or after the
// single response of a client-streaming call. For a non-idempotent
// operation, a failure that may have come after the server applied what
// the caller sent (see delivery) is an outcome-unknown error.
func (s *heldStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if err != nil || s.single {
		s.end()
	}
	if err != nil && err != io.EOF && s.op != "" {
		return outcomeUnknown(s.dep, s.op, err)
	}
	return err
}

// outcomeUnknown marks err, the failure of an open stream of a
// non-idempotent operation, as a [*runtime.OutcomeUnknownError] when its
// code also stands for a failure on the way; it keeps err's gRPC status.
func outcomeUnknown(dep, op string, err error) error {
	st := status.Convert(err)
	if delivery(st.Code(), streamOpen) != outcome.MaybeDelivered {
		return err
	}
	return &Error{Err: &runtime.OutcomeUnknownError{Dependency: dep, Operation: op, Err: err}, st: st}
}

// serverStream is an established server stream: the first message,
// received during establishment, and then the rest.
type serverStream[Res any] struct {
	grpc.ClientStream
	held
	first *Res  // the buffered first message, nil once taken
	err   error // io.EOF for an empty stream
}

// Recv returns the next message; io.EOF when the stream ended well.
func (s *serverStream[Res]) Recv() (*Res, error) {
	if m := s.first; m != nil {
		s.first = nil
		return m, nil
	}
	if s.err != nil {
		return nil, s.err
	}
	m := new(Res)
	if err := s.ClientStream.RecvMsg(m); err != nil {
		s.err = err
		s.end()
		return nil, err
	}
	return m, nil
}

// RecvMsg receives the next message into m, which must be a *Res.
func (s *serverStream[Res]) RecvMsg(m any) error {
	if s.first != nil {
		dst, ok := m.(*Res)
		if !ok {
			return status.Errorf(codes.Internal, "resilientgrpc: RecvMsg into %T, want %T", m, s.first)
		}
		if dm, ok := m.(proto.Message); ok {
			proto.Reset(dm)
			proto.Merge(dm, any(s.first).(proto.Message))
		} else {
			*dst = *s.first
		}
		s.first = nil
		return nil
	}
	if s.err != nil {
		return s.err
	}
	if err := s.ClientStream.RecvMsg(m); err != nil {
		s.err = err
		s.end()
		return err
	}
	return nil
}
