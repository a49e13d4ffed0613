package resilientgrpc

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/codec"
)

// Invoke runs one unary call of method on cc through op's pipeline
// ([runtime.Do]) and returns the reply, a new Resp per attempt. It is what
// a generated resilient client's unary method calls:
//
//	func (c *resilientPetsClient) GetPet(ctx context.Context, in *GetPetRequest, opts ...grpc.CallOption) (*Pet, error) {
//		return resilientgrpc.Invoke[Pet](ctx, c.cc, c.getPet, Pets_GetPet_FullMethodName, in, opts...)
//	}
//
// Before the pipeline, the outgoing metadata of ctx is checked as grpc-go
// will check it (keys in [0-9a-z-_.], printable ASCII values for keys not
// ending in -bin), and so is the name of the operation's idempotency key
// ([runtime.Operation.IdempotencyKey]): a call that grpc-go would refuse
// returns at once an error matching [runtime.ErrInvalidRequest], without a
// permit, an attempt, a retry, a breaker count or a fallback. An operation
// with an idempotency key sends the caller's when the outgoing metadata
// already has one under that key, else one new key
// ([codec.NewIdempotencyKey]) for all the call's attempts. A request
// message that does not marshal is found by the first attempt (grpc-go
// marshals inside the call): that attempt is neither counted by the
// breaker nor retried, and the call fails with
// [runtime.ErrInvalidRequest].
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
// cannot run underneath (transparent retries of requests that never
// reached the server still can; see [DialOptions]).
//
// For a non-idempotent operation the pipeline is told what became of the
// request: an attempt that failed before its stream was open (no
// connection, a refusal by an interceptor) was not sent, and the call's
// error matches [runtime.ErrNotSent]; once the stream is open, a status
// the server application answered with (INVALID_ARGUMENT, NOT_FOUND, …) is
// its answer, and DEADLINE_EXCEEDED, CANCELLED, UNKNOWN, INTERNAL,
// UNAVAILABLE or DATA_LOSS leave the outcome unknown
// ([runtime.ErrOutcomeUnknown]). Whether the stream was open is asked of
// grpc-go (grpc.Peer), and trusted only from a *grpc.ClientConn; through
// another grpc.ClientConnInterface every such status counts as possibly
// applied.
//
// opts are passed to every attempt, except those made by [CallPolicy],
// which override op's policy for this call. A failed call returns an
// [*Error]; status.Code and status.Convert work on it (see [Status]). A
// fallback answer comes with a non-nil reply and an error matching
// [runtime.ErrDegraded].
func Invoke[Resp any](ctx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation, method string, req any, opts ...grpc.CallOption) (*Resp, error) {
	copts, pol := splitOptions(opts)
	op = op.With(pol...)
	ctx, err := prepareContext(ctx, op)
	if err != nil {
		return nil, wrap(op.InvalidRequest(err))
	}
	// Whether the stream was open tells a non-idempotent call's outcome,
	// and an UNAVAILABLE the server was reached for (load shed) from one
	// that never left the client (no connection).
	_, traced := cc.(*grpc.ClientConn)
	key, cache := requestKey(ctx, op, method, req, copts)
	if !cache {
		op = op.With(runtime.WithoutFallback())
	}
	reply, err := runtime.Do(ctx, op, key, func(actx context.Context) (*Resp, error) {
		return invokeAttempt[Resp](actx, cc, op, method, req, copts, traced)
	})
	if reply != nil && (op.CachesFallback() && cache || runtime.IsDegraded(err)) {
		// A fallback keeps or serves one message for many callers: each
		// gets a copy of its own, so that what one changes in its answer
		// is not what the next one reads.
		reply = messageCopy(reply)
	}
	return reply, wrap(err)
}

// invokeAttempt is one attempt of [Invoke] under actx: cc.Invoke with the
// caller's call options copts and those that read the answer's header and
// trailer, switch off grpc-go's retries and, with traced, tell whether the
// stream was open.
func invokeAttempt[Resp any](actx context.Context, cc grpc.ClientConnInterface, op *runtime.Operation, method string, req any, copts []grpc.CallOption, traced bool) (*Resp, error) {
	reply := new(Resp)
	var (
		header, trailer metadata.MD
		p               peer.Peer
	)
	extra := 3
	if traced {
		extra++
	}
	all := make([]grpc.CallOption, 0, len(copts)+extra)
	all = append(all, copts...)
	all = append(all, grpc.Header(&header), grpc.Trailer(&trailer), noBuiltinRetry())
	if traced {
		all = append(all, grpc.Peer(&p))
	}
	err := cc.Invoke(actx, method, req, reply, all...)
	if err == nil {
		return reply, nil
	}
	if header == nil && status.Code(err) == codes.Internal {
		if merr := marshalError(req); merr != nil {
			return nil, &runtime.InvalidRequestError{Dependency: op.Dependency().Name(), Operation: op.Name(), Err: merr}
		}
	}
	return nil, attemptError(err, trailer, header != nil, streamState(traced, &p))
}

// streamState tells whether a failed attempt's stream was open: from the
// peer grpc-go filled in when traced, else not known.
func streamState(traced bool, p *peer.Peer) stream {
	switch {
	case !traced:
		return streamMaybe
	case p.Addr != nil:
		return streamOpen
	}
	return streamNone
}

// messageCopy returns a copy of the reply when it is a protobuf message,
// else the reply itself.
func messageCopy[Resp any](reply *Resp) *Resp {
	if m, ok := any(reply).(proto.Message); ok {
		if c, ok := any(proto.Clone(m)).(*Resp); ok {
			return c
		}
	}
	return reply
}

// marshalError returns why req does not marshal as a protobuf message, nil
// if it does or is not one. It is asked only after grpc-go failed a call
// with INTERNAL and no answer, which is how grpc-go reports a request it
// could not marshal.
func marshalError(req any) error {
	m, ok := req.(proto.Message)
	if !ok {
		return nil
	}
	if _, err := proto.Marshal(m); err != nil {
		return fmt.Errorf("the request message does not marshal: %w", err)
	}
	return nil
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

// noBuiltinRetry commits a unary call's attempt once its request message is
// sent, which switches off grpc-go's service-config retries for it: grpc-go
// commits a call once the messages it keeps for a replay exceed the retry
// buffer size. Streams are committed as soon as they are open, by
// commitStream.
func noBuiltinRetry() grpc.CallOption { return grpc.MaxRetryRPCBufferSize(0) }

// commitStream commits a stream that was just opened, so that grpc-go
// never retries it on its own, whatever the connection's service config
// says: "once [Context is] called, subsequent client-side retries are
// disabled" (grpc.ClientStream). Without it, a client or bidi stream that
// the server refuses before the caller's first message is opened again
// by grpc-go when that message is sent.
func commitStream(cs grpc.ClientStream) { cs.Context() }

// prepareContext checks the outgoing metadata of ctx as grpc-go will, and,
// for an operation with an idempotency key, returns ctx with one key unless
// the caller already set one. It fails, without changing anything, when
// grpc-go would refuse the call.
func prepareContext(ctx context.Context, op *runtime.Operation) (context.Context, error) {
	md, ok := metadata.FromOutgoingContext(ctx)
	if ok {
		if err := checkMetadata(md); err != nil {
			return ctx, err
		}
	}
	name := op.IdempotencyKey()
	if name == "" {
		return ctx, nil
	}
	if err := checkKey(name); err != nil {
		return ctx, fmt.Errorf("idempotency key name: %w", err)
	}
	if len(md.Get(name)) > 0 {
		return ctx, nil // the caller's key
	}
	return metadata.AppendToOutgoingContext(ctx, name, codec.NewIdempotencyKey()), nil
}

// checkMetadata reports the first key or value of md that grpc-go would
// refuse, keys in sorted order so that the report does not vary.
func checkMetadata(md metadata.MD) error {
	var bad error
	var badKey string
	for k, vs := range md {
		if err := checkPair(k, vs); err != nil && (bad == nil || k < badKey) {
			bad, badKey = err, k
		}
	}
	return bad
}

// checkPair checks one metadata entry as grpc-go does: the key (see
// checkKey), and, unless the key ends in -bin, values of printable ASCII
// (0x20 to 0x7E) only.
func checkPair(key string, values []string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if len(key) > 4 && key[len(key)-4:] == "-bin" {
		return nil
	}
	for _, v := range values {
		for i := 0; i < len(v); i++ {
			if c := v[i]; c < 0x20 || c > 0x7E {
				return fmt.Errorf("metadata %q: value has the byte %#x at %d, outside printable ASCII; encode it, or send it under a key ending in -bin", key, c, i)
			}
		}
	}
	return nil
}

// checkKey checks a metadata key as grpc-go does once it is lower case:
// not empty, and only 0-9, a-z, '-', '_' and '.' (a leading ':' marks a
// pseudo-header that grpc-go ignores).
func checkKey(key string) error {
	if key == "" {
		return fmt.Errorf("empty metadata key")
	}
	if key[0] == ':' {
		return nil
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A' // grpc-go lowers the keys it is given
		}
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return fmt.Errorf("metadata key %q has %q at %d, outside [0-9a-z-_.]", key, key[i], i)
		}
	}
	return nil
}

// volatileMetadata are left out of a call's fallback key: they differ on
// every call without changing the answer. Keys starting with "grpc-" (gRPC's
// own, such as grpc-timeout and grpc-trace-bin) and the operation's
// idempotency key are left out too.
var volatileMetadata = [...]string{"traceparent", "tracestate", "baggage"}

// requestKey returns the cached-fallback key of a call of method with req
// under ctx and the grpc-go options copts, and whether the call may use
// the cache. It is computed only when the operation keeps one. The key
// holds the full method, req's deterministic protobuf encoding and, unless
// the answer is shared, the outgoing metadata of ctx (sorted, without
// gRPC's own keys and the volatile ones), credentials included; the
// runtime hashes it. Per-RPC credentials given as a call option cannot be
// seen: such a call keeps no cache unless the answer is shared or
// partitioned ([runtime.Operation.FallbackPartitioned]). A request that is
// not a protobuf message, or does not marshal, keeps no cache.
func requestKey(ctx context.Context, op *runtime.Operation, method string, req any, copts []grpc.CallOption) (string, bool) {
	if !op.CachesFallback() {
		return "", true
	}
	m, ok := req.(proto.Message)
	if !ok {
		return "", false
	}
	body, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	field := func(s string) {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	field(method)
	field(string(body))
	if op.Fallback().Shared {
		return b.String(), true
	}
	for _, o := range copts {
		if _, creds := o.(grpc.PerRPCCredsCallOption); creds && !op.FallbackPartitioned() {
			return "", false
		}
	}
	md, _ := metadata.FromOutgoingContext(ctx)
	idem := strings.ToLower(op.IdempotencyKey())
	keys := make([]string, 0, len(md))
	for k := range md {
		if strings.HasPrefix(k, "grpc-") || strings.HasPrefix(k, ":") || k == idem || slices.Contains(volatileMetadata[:], k) {
			continue
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		field(k)
		field(strconv.Itoa(len(md[k])))
		for _, v := range md[k] {
			field(v)
		}
	}
	return b.String(), true
}
