package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"strconv"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/resilientgo/resilient/runtime/codec"
	"github.com/resilientgo/resilient/runtime/internal/httptext"
	"github.com/resilientgo/resilient/runtime/outcome"
)

// maxDrain bounds how much of an unread body is discarded so that its
// connection can be reused; a longer rest costs the connection instead.
const maxDrain = 16 << 10

// Doer sends one HTTP request. [*http.Client] implements it; tests and
// middleware chains may provide their own.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// HTTPClient is what [DoHTTP] sends attempts with: the [Doer] and how the
// call's deadline goes out on the wire. The zero value is usable: it sends
// with [http.DefaultClient] and propagates the deadline in
// [DefaultDeadlineHeader] with [DefaultDeadlineMargin]. A nil *HTTPClient
// behaves like the zero value. An HTTPClient must not be changed once in
// use; it is then safe for concurrent use.
type HTTPClient struct {
	// Doer sends the attempts. Nil means [http.DefaultClient]; generated
	// clients use an [*http.Client] whose transport comes from
	// [NewTransport]. It should not retry on its own: retries belong to
	// the pipeline.
	Doer Doer
	// DeadlineHeader names the header that carries the attempt's remaining
	// budget. Empty means [DefaultDeadlineHeader].
	DeadlineHeader string
	// DeadlineMargin is subtracted from the remaining budget before it is
	// sent. Zero means [DefaultDeadlineMargin]; a negative value means no
	// margin.
	DeadlineMargin time.Duration
	// DisableDeadlineHeader stops sending the deadline header, for
	// dependencies that should not learn the caller's budget (a
	// third-party API) or that reject unknown headers.
	DisableDeadlineHeader bool
	// MaxResponseBody bounds, in bytes, the success (2xx) body that decode
	// may read: a Content-Length above it fails the attempt before
	// anything is read, and reading past it fails decode. Either way the
	// attempt's error is a [*ResponseTooLargeError]. Zero means
	// [DefaultMaxResponseBody]; a negative value means no limit. Error
	// bodies are bounded by [MaxErrorBody] whatever this says.
	MaxResponseBody int64
	// RequestEditors run on every attempt, in order, after the
	// operation's credentials and before the call's own editors (see
	// [RequestEditor], [WithRequestEditor]). Nil runs none, and then an
	// attempt costs nothing more.
	RequestEditors []RequestEditor
}

// ErrorDecoder turns a documented error answer into the operation's typed
// error. It gets the [*RemoteError] built from the response (status, header,
// the first [MaxErrorBody] bytes of the body, class and Retry-After) and
// returns an error that wraps it, so that [errors.As] finds both the typed
// error and the *RemoteError, and the pipeline still classifies it by the
// status. It returns nil when the body is not one it knows, in which case
// the *RemoteError itself is the attempt's error.
type ErrorDecoder func(*RemoteError) error

// DoHTTP runs one call of op that sends req, through the pipeline of [Do],
// and decodes the answer.
//
// When op keeps a cached fallback, the request key (see [Do]) is built
// from req: its method, scheme, host, escaped path and query parameters
// (sorted by name, so that their order does not split the cache), and,
// unless the answer is shared ([FallbackPolicy.Shared]), every header
// field, Authorization and the cookies (sorted by name) included, but the
// deadline header, op's idempotency key header and the trace headers
// (traceparent, tracestate, baggage), with the credentials of op
// ([WithCredentials]) applied once more to a copy of req for the key. A
// cached answer is thus served only to a request identical in everything
// that can change it. Credentials a Doer or a [RequestEditor] adds are
// not seen: partition such a client's answers with
// [WithFallbackPartition]. Nothing of this is computed for an operation
// that keeps no cache.
//
// Before the pipeline, req is checked as net/http will check it: a URL
// with an http or https scheme and a host, a method that is a token,
// header and trailer names that are tokens and values without control
// characters (CR and LF above all), no RequestURI. A request net/http would
// refuse returns at once a [*CallError] ending with [EndInvalidRequest]
// (matching [ErrInvalidRequest]): no bulkhead permit, no attempt, no retry,
// no breaker count, no fallback. So does a call of an operation whose
// security requirement no configured credential satisfies
// ([WithCredentials]), with a [*MissingCredentialError] as the reason.
// When op has an idempotency key header
// ([OperationPolicy.IdempotencyKey]) and req does not carry it, one new
// key is set in req.Header, the same for all the call's attempts.
//
// Every attempt:
//
//   - sends req bound to the attempt's context, so that the attempt
//     timeout cancels it: a shallow copy, or req itself for the first
//     attempt when the attempt's context is req's own (the caller's
//     deadline comes first) and there is no body to replay. Unless the
//     operation hedges, the first attempt sends req.Header itself, with
//     the deadline header set in it; every later attempt, and every
//     attempt of a hedging operation, sends a copy of that header, since
//     an abandoned attempt's transport may still be reading its own.
//     DoHTTP thus owns req until it returns, and req must not be sent
//     again while an abandoned attempt may still be writing it (build a
//     request per call, as generated clients do);
//   - applies op's credentials, then c's request editors
//     ([HTTPClient.RequestEditors]), then the call's ([WithRequestEditor]),
//     to a header and URL of the attempt's own, after the deadline header
//     is set; one that fails ends the call as an invalid request (see
//     [RequestEditor]). Without credentials or editors, nothing is copied
//     for them;
//   - replays a request body only through req.GetBody (as set by
//     [http.NewRequest] for in-memory bodies). A request with a body and no
//     GetBody gets exactly one attempt, without retries or hedges. DoHTTP
//     closes req.Body, as [http.Client.Do] would;
//   - sets the deadline header (see [HTTPClient]) to the attempt's
//     remaining time minus the margin, in integer milliseconds, replacing
//     any value req carries. When the margin leaves nothing, the attempt is
//     not sent and fails with an error matching
//     [context.DeadlineExceeded], neither retried nor counted against the
//     dependency;
//   - for a 2xx answer, runs decode inside the attempt, so that the attempt
//     timeout also bounds reading the body, and lets it read at most
//     [HTTPClient.MaxResponseBody] bytes ([DefaultMaxResponseBody]): a
//     larger answer is a [*ResponseTooLargeError], [outcome.Permanent], failed
//     before reading when its Content-Length says so. A failure to read
//     the body (a reset, an unexpected EOF, a timeout) is a
//     [*ResponseTruncatedError], [outcome.Transient]; any other decode error
//     (malformed JSON) is [outcome.Permanent]. decode must not keep resp.Body: it
//     is closed when decode returns;
//   - the same for a status outside 2xx that op accepts ([AcceptStatus]);
//   - for any other status, returns a [*RemoteError] with the status, the
//     status text as Code, the header, the first [MaxErrorBody] bytes of
//     the body, the delay of a Retry-After field and the class of
//     [outcome.StatusClass], or the typed error decodeErr (may be nil) makes of it.
//     A redirect the Doer did not follow (see [CheckRedirect]) is such an
//     answer: [outcome.Rejected], its Location in the header;
//   - always drains a bounded rest of the body and closes it, also when the
//     attempt is abandoned by a timeout, a cancellation or a lost hedge, so
//     that no connection leaks.
//
// A transport error keeps the default class, [outcome.Transient]. For a
// non-idempotent operation each attempt is traced (net/http/httptrace) so
// that a transport error tells whether the request left: when the
// transport got no connection, or failed before the request's header was
// written, the call's error matches [ErrNotSent] (it was not applied and
// may be sent again); when it may have been written, the call's error is
// an [*OutcomeUnknownError]. A Doer that does not go through net/http's
// transport tells nothing, and its errors count as possibly applied.
//
// The value returned is decode's; the error is the pipeline's (see [Do]).
// Every caller gets a value of its own, also from a fallback: for an
// operation with a cached fallback the cache keeps the status, header and
// body bytes of the last success, which decode reads afresh for each
// caller it answers (without [WithResponseInfo], which stays empty: the
// answer is not this call's), and a static fallback's value is copied
// through its JSON form, so that a caller changing its answer changes
// nobody else's.
//
// The pipeline runs on the value as an any, and DoHTTP only converts it:
// a client with many operations of different result types compiles one
// pipeline, not one per type.
func DoHTTP[T any](ctx context.Context, op *Operation, c *HTTPClient, req *http.Request, decode func(*http.Response) (T, error), decodeErr ErrorDecoder) (T, error) {
	var zero T
	op, err := prepareHTTP(op, req)
	if err != nil {
		return zero, err
	}
	if req.Body != nil && req.Body != http.NoBody {
		// Closed also when no attempt is made (bulkhead full, breaker open).
		defer req.Body.Close()
	}
	base := decode
	if info := op.respInfo; info != nil {
		// Not hedged (WithResponseInfo): the last decoded answer is the
		// result.
		*info = ResponseInfo{}
		inner := decode
		decode = func(resp *http.Response) (T, error) {
			v, err := inner(resp)
			if err == nil {
				info.Status, info.Header = resp.StatusCode, resp.Header
			}
			return v, err
		}
	}
	h := &httpCall[T]{
		httpAttempts: httpAttempts{
			op: op, c: c, req: req, decodeErr: decodeErr,
			// Without hedging, attempts run one after the other on this
			// goroutine: the first may write req.Header before sending it,
			// and every later one copies it after that write. Hedged
			// attempts run concurrently, so every one of them sends a copy.
			inPlace: op.hedgeDelay <= 0,
			// Only a non-idempotent call's caller needs to know whether a
			// failed attempt was sent; the others' attempts are not traced.
			trace: op.idempotency == NotIdempotent,
		},
		decode: decode,
	}
	var key string
	if op.fallback.Kind == FallbackCached {
		kr := req
		if !op.fallback.Shared {
			if kr, err = credentialKeyRequest(ctx, op, req); err != nil {
				return zero, op.InvalidRequest(err)
			}
		}
		key = httpFallbackKey(kr, c, op)
	}
	// Attempts one after the other leave their value in h, unboxed; the
	// pipeline sees a marker. Concurrent attempts, and values a cached
	// fallback keeps, travel boxed.
	h.keep = h.inPlace && key == ""
	// A cached fallback keeps the bytes of an answer, from which every
	// caller it answers gets a value of its own.
	h.record = key != ""
	if editing(op, c) {
		// Every attempt edits a header and URL of its own.
		h.inPlace = false
	}
	v, err := Do(ctx, op, key, h.attempt)
	switch a := v.(type) {
	case keptValue:
		return h.v, err
	case *recordedAnswer[T]:
		return a.answer(err, base)
	}
	t, _ := v.(T)
	if err != nil && op.fallback.Kind == FallbackStatic {
		t = staticCopy(t)
	}
	return t, err
}

// httpAttempts is what every attempt of one [DoHTTP] call shares.
type httpAttempts struct {
	op        *Operation
	c         *HTTPClient
	req       *http.Request
	decodeErr ErrorDecoder
	// inPlace: the next attempt is the first and may write req.Header;
	// never set when hedged attempts may read it.
	inPlace, trace bool
}

// httpCall is one [DoHTTP] call of result type T: its attempts, the
// success decoder, and the value decoded, kept out of the pipeline when
// keep is set.
type httpCall[T any] struct {
	httpAttempts
	decode func(*http.Response) (T, error)
	keep   bool
	// record: the value travels as a *recordedAnswer, as a cached
	// fallback keeps it.
	record bool
	v      T
}

// keptValue is what an attempt returns to the pipeline when its value is
// kept in the httpCall.
type keptValue struct{}

// attempt is the call's [Attempt].
func (h *httpCall[T]) attempt(actx context.Context) (any, error) {
	return h.httpAttempts.run(actx, h)
}

// decodeSuccess decodes a success answer for [httpAttempt].
func (h *httpCall[T]) decodeSuccess(resp *http.Response) (any, error) {
	if h.record {
		a, err := record(resp, h.decode)
		if err != nil {
			return nil, err
		}
		return a, nil
	}
	v, err := h.decode(resp)
	switch {
	case err != nil:
		return nil, err
	case h.keep:
		h.v = v
		return keptValue{}, nil
	}
	return v, nil
}

// successDecoder decodes a success answer into the value a call returns.
type successDecoder interface {
	decodeSuccess(*http.Response) (any, error)
}

// run sends one attempt.
func (a *httpAttempts) run(actx context.Context, decode successDecoder) (any, error) {
	first := a.inPlace
	if first {
		a.inPlace = false
	}
	return httpAttempt(actx, a.op, a.c, a.req, first, a.trace, decode, a.decodeErr)
}

// prepareHTTP checks req as net/http would before the pipeline (closing
// its body and returning the call's error when it is refused), sets op's
// idempotency key header when req lacks it, and returns op restricted to
// one attempt when req has a body that cannot be replayed.
func prepareHTTP(op *Operation, req *http.Request) (*Operation, error) {
	if err := checkRequest(req, op.idempotencyKey); err != nil {
		closeRequestBody(req)
		return op, op.InvalidRequest(err)
	}
	if op.missing != nil {
		closeRequestBody(req)
		return op, op.InvalidRequest(op.missing)
	}
	if name := op.idempotencyKey; name != "" {
		if req.Header == nil {
			req.Header = make(http.Header, 1)
		}
		if req.Header.Get(name) == "" {
			// One key for the call, the same on every attempt.
			req.Header.Set(name, codec.NewIdempotencyKey())
		}
	}
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		// The body can be sent once only. With GetBody, every attempt
		// sends a fresh copy and req.Body itself is never read.
		op = op.With(WithoutRetries(), WithoutHedging())
	}
	return op, nil
}

// settings returns what c says, defaults filled in: the Doer, the deadline
// header's name (empty for the default) and margin, whether to send it, and
// the success body limit (negative: none).
func (c *HTTPClient) settings() (d Doer, name string, margin time.Duration, send bool, limit int64) {
	d, send, limit = http.DefaultClient, true, DefaultMaxResponseBody
	if c != nil {
		name, margin, send = c.DeadlineHeader, c.DeadlineMargin, !c.DisableDeadlineHeader
		if c.Doer != nil {
			d = c.Doer
		}
		switch {
		case c.MaxResponseBody < 0:
			limit = -1
		case c.MaxResponseBody > 0:
			limit = c.MaxResponseBody
		}
	}
	return d, name, margin, send, limit
}

// httpAttempt sends one attempt of req under ctx and decodes the answer.
// The first attempt (first is true) writes its deadline header into
// req.Header and sends it; any other sends a copy of req.Header, which a
// previous attempt's transport may still be reading. With trace, a
// transport error that left nothing at the dependency is marked so
// ([MarkNotSent]).
func httpAttempt(ctx context.Context, op *Operation, c *HTTPClient, req *http.Request, first, trace bool, decode successDecoder, decodeErr ErrorDecoder) (any, error) {
	d, name, margin, send, limit := c.settings()
	r, sent, err := attemptRequest(ctx, op, c, req, first, trace)
	if err == nil && send {
		err = setDeadlineHeader(ctx, r.Header, name, margin)
	}
	ed := editing(op, c)
	if err == nil && ed {
		r, err = editAttempt(ctx, op, c, r, req.URL.RawQuery)
	}
	if err != nil {
		if r != nil {
			closeRequestBody(r)
		}
		return nil, err
	}

	resp, err := d.Do(r)
	if err != nil {
		if ed {
			hideEditedURL(err, req.URL)
		}
		return nil, transportError(err, sent)
	}
	if op.accepts(resp.StatusCode) {
		return decodeAccepted(ctx, resp, limit, decode)
	}
	defer closeResponseBody(resp.Body)
	return nil, remoteError(resp, decodeErr)
}

// attemptRequest returns the request one attempt of req sends under ctx
// (with a send trace when trace asks for one, returned). Nothing of req
// but its header is ever written to, and that by the first attempt only,
// before it is sent. That attempt sends req itself when req is already
// bound to ctx and has no body to replay; every other attempt sends a
// shallow copy bound to ctx, with a header of its own, a URL of its own
// when editors write to it, and a fresh copy of a body that can be
// replayed. A streaming call's attempts (see [heldCall.streamAttempt])
// run under a context of their own and so always send a copy.
func attemptRequest(ctx context.Context, op *Operation, c *HTTPClient, req *http.Request, first, trace bool) (*http.Request, *sendTrace, error) {
	replay := req.GetBody != nil && hasBody(req)
	r := req
	var sent *sendTrace
	if trace {
		sent = new(sendTrace)
		r = req.WithContext(sent.attach(ctx))
	} else if !first || replay || req.Context() != ctx {
		r = req.WithContext(ctx)
	}
	if !first {
		r.Header = cloneHeader(req.Header)
	} else if r.Header == nil {
		r.Header = make(http.Header, 1)
	}
	if editing(op, c) {
		// first is false, so r is a copy with a header of its own; the
		// URL must be its own too.
		ownURL(r)
	}
	if replay {
		body, err := req.GetBody()
		if err != nil {
			return nil, nil, outcome.MarkPermanent(fmt.Errorf("resilient: replaying the request body: %w", err))
		}
		r.Body = body
	}
	return r, sent, nil
}

// editAttempt runs the editors of op and c on r under ctx and returns the
// request to send, which keeps the query as the editors left it (query is
// the one the caller wrote). On an error it returns r as it is.
func editAttempt(ctx context.Context, op *Operation, c *HTTPClient, r *http.Request, query string) (*http.Request, error) {
	if err := edit(ctx, op, c, r); err != nil {
		return r, err
	}
	return markEditedQuery(r, query), nil
}

// transportError is the error of an attempt whose request the transport
// failed with err: marked as not sent ([MarkNotSent]) when sent, the
// attempt's send trace (nil: none), saw nothing leave for the dependency.
func transportError(err error, sent *sendTrace) error {
	if sent != nil && sent.notSent() {
		return MarkNotSent(err)
	}
	return err
}

// decodeAccepted decodes the answer of an accepted status, reading at most
// limit bytes of its body (negative: no limit). A body cut short, by the
// dependency or by ctx, is a [*ResponseTruncatedError]; one past limit a
// [*ResponseTooLargeError]; a body that does not decode is permanent.
func decodeAccepted(ctx context.Context, resp *http.Response, limit int64, decode successDecoder) (any, error) {
	if limit >= 0 && resp.ContentLength > limit {
		closeResponseBody(resp.Body)
		return nil, &ResponseTooLargeError{Status: resp.StatusCode, Limit: limit, Length: resp.ContentLength}
	}
	body := &readTracker{r: resp.Body, limit: limit}
	resp.Body = body
	defer body.finish()
	v, err := decode.decodeSuccess(resp)
	if body.tooLarge {
		return nil, &ResponseTooLargeError{Status: resp.StatusCode, Limit: limit, Length: resp.ContentLength}
	}
	if err != nil {
		if body.err != nil || ctx.Err() != nil {
			return nil, &ResponseTruncatedError{Status: resp.StatusCode, Err: err}
		}
		return nil, outcome.MarkPermanent(fmt.Errorf("resilient: decoding the %d response: %w", resp.StatusCode, err))
	}
	return v, nil
}

// remoteError builds the error of a non-2xx answer, reading at most
// [MaxErrorBody] bytes of its body.
func remoteError(resp *http.Response, decodeErr ErrorDecoder) error {
	body, readErr := io.ReadAll(io.LimitReader(resp.Body, MaxErrorBody))
	re := &RemoteError{
		Status:  resp.StatusCode,
		Code:    http.StatusText(resp.StatusCode),
		Message: excerpt(body),
		Class:   outcome.StatusClass(resp.StatusCode),
		Body:    body,
		Header:  resp.Header,
	}
	if d, ok := parseRetryAfterHeader(resp.Header, time.Now()); ok {
		re.RetryAfter = d
	}
	if decodeErr != nil && readErr == nil {
		if err := decodeErr(re); err != nil {
			return err
		}
	}
	return re
}

// ResponseTruncatedError reports a 2xx answer whose body could not be read
// to the end (the connection was reset or cut, or the attempt timed out
// while reading). It is [outcome.Transient]: an idempotent call retries it. For a
// non-idempotent call it is returned as is: the dependency answered, so it
// has applied the request, but the answer is lost. It matches
// [ErrResponseTruncated]; Unwrap gives the read error.
type ResponseTruncatedError struct {
	// Status is the answer's HTTP status.
	Status int
	// Err is the error decode returned.
	Err error
}

// Error describes the failure.
func (e *ResponseTruncatedError) Error() string {
	return "resilient: response " + strconv.Itoa(e.Status) + " truncated: " + e.Err.Error()
}

// Is reports whether target is [ErrResponseTruncated].
func (e *ResponseTruncatedError) Is(target error) bool { return target == ErrResponseTruncated }

// Unwrap returns the read error.
func (e *ResponseTruncatedError) Unwrap() error { return e.Err }

// Classify returns [outcome.Transient].
func (e *ResponseTruncatedError) Classify() outcome.Class { return outcome.Transient }

// Delivery returns [outcome.Answered]: the dependency answered, so it had the
// request.
func (e *ResponseTruncatedError) Delivery() outcome.Delivery { return outcome.Answered }

// ResponseTooLargeError reports a success (2xx) answer whose body is
// larger than the client's limit ([HTTPClient.MaxResponseBody]): its
// Content-Length said so, or decode read past the limit. It is
// [outcome.Permanent]: the same request would get the same answer, so it is never
// retried, and a large answer says nothing of the dependency's health, so
// the breaker does not count it; no fallback answers it either. For a
// non-idempotent call the request was applied (the dependency answered)
// and the answer is lost. It matches [ErrResponseTooLarge].
type ResponseTooLargeError struct {
	// Status is the answer's HTTP status.
	Status int
	// Limit is the limit in bytes.
	Limit int64
	// Length is the answer's Content-Length, -1 when it did not say.
	Length int64
}

// Error describes the failure.
func (e *ResponseTooLargeError) Error() string {
	msg := "resilient: response " + strconv.Itoa(e.Status) + " body is larger than the limit of " + strconv.FormatInt(e.Limit, 10) + " bytes"
	if e.Length >= 0 {
		msg += " (Content-Length " + strconv.FormatInt(e.Length, 10) + ")"
	}
	return msg + "; raise HTTPClient.MaxResponseBody if such answers are expected"
}

// Is reports whether target is [ErrResponseTooLarge].
func (e *ResponseTooLargeError) Is(target error) bool { return target == ErrResponseTooLarge }

// Classify returns [outcome.Permanent].
func (e *ResponseTooLargeError) Classify() outcome.Class { return outcome.Permanent }

// Delivery returns [outcome.Answered].
func (e *ResponseTooLargeError) Delivery() outcome.Delivery { return outcome.Answered }

// deadlineSpentError is the error of an attempt not sent because the
// deadline margin left no time: it matches [context.DeadlineExceeded] and is
// [outcome.Permanent], so it is neither retried nor counted as a failure of the
// dependency, which never saw it.
type deadlineSpentError struct {
	left, margin time.Duration
}

// Error describes the failure.
func (e *deadlineSpentError) Error() string {
	return fmt.Sprintf("resilient: not sent: %v left is within the deadline margin %v", e.left, e.margin)
}

func (e *deadlineSpentError) Is(target error) bool       { return target == context.DeadlineExceeded }
func (e *deadlineSpentError) Classify() outcome.Class    { return outcome.Permanent }
func (e *deadlineSpentError) Delivery() outcome.Delivery { return outcome.NotDelivered }

// sendTrace follows, through net/http's client trace, how far one attempt's
// request got: whether the transport looked for a connection, got one, and
// wrote the request's header and the whole request.
type sendTrace struct {
	getConn, gotConn, wroteHeaders, wroteRequest atomic.Bool
}

// attach returns ctx with t as its client trace.
func (t *sendTrace) attach(ctx context.Context) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GetConn:      func(string) { t.getConn.Store(true) },
		GotConn:      func(httptrace.GotConnInfo) { t.gotConn.Store(true) },
		WroteHeaders: func() { t.wroteHeaders.Store(true) },
		WroteRequest: func(httptrace.WroteRequestInfo) { t.wroteRequest.Store(true) },
	})
}

// notSent reports whether nothing of the request can have reached the
// dependency, after the transport failed it: the transport looked for a
// connection and got none, or its writing of the request ended before the
// header was written. A transport that never looked for a connection (a
// Doer that does not go through net/http's) tells nothing, and a write
// still under way when the transport gave up may yet complete: both count
// as sent.
func (t *sendTrace) notSent() bool {
	if !t.getConn.Load() {
		return false
	}
	if !t.gotConn.Load() {
		return true
	}
	// The header is written before the request's write ends, on the same
	// goroutine: read in the other order.
	return t.wroteRequest.Load() && !t.wroteHeaders.Load()
}

// setDeadlineHeader sets header name (canonical or not; empty means
// [DefaultDeadlineHeader]) of h to ctx's remaining time minus margin (zero
// means [DefaultDeadlineMargin], negative none), in integer milliseconds. It
// leaves h alone when ctx has no deadline and fails when nothing is left.
func setDeadlineHeader(ctx context.Context, h http.Header, name string, margin time.Duration) error {
	dl, ok := ctx.Deadline()
	if !ok {
		return nil
	}
	switch {
	case margin == 0:
		margin = DefaultDeadlineMargin
	case margin < 0:
		margin = 0
	}
	left := time.Until(dl)
	ms := int64((left - margin) / time.Millisecond)
	if ms <= 0 {
		return &deadlineSpentError{left: left, margin: margin}
	}
	if name == "" {
		name = DefaultDeadlineHeader
	} else {
		name = textproto.CanonicalMIMEHeaderKey(name)
	}
	h[name] = []string{strconv.FormatInt(ms, 10)}
	return nil
}

// cloneHeader copies h into a map with one spare entry, for the deadline
// header, and its values into one backing array.
func cloneHeader(h http.Header) http.Header {
	n := 0
	for _, vv := range h {
		n += len(vv)
	}
	c := make(http.Header, len(h)+1)
	values := make([]string, n)
	for k, vv := range h {
		m := copy(values, vv)
		c[k] = values[:m:m]
		values = values[m:]
	}
	return c
}

// readTracker remembers the first error, other than io.EOF, that reading a
// response body met, so that a decode error can be told apart from a
// failure to read, and whether the body was read to its end, in which case
// there is nothing to drain. It lets at most limit bytes be read (a
// negative limit: any number): the read that would pass it fails, and
// tooLarge is set.
type readTracker struct {
	r        io.ReadCloser
	err      error
	eof      bool
	limit, n int64
	tooLarge bool
}

// errTooLarge is the read error of a body that passed its limit.
var errTooLarge = errors.New("resilient: response body above the limit")

func (t *readTracker) Read(p []byte) (int, error) {
	if t.tooLarge {
		return 0, errTooLarge
	}
	if t.limit >= 0 {
		// Read one byte past the limit, to tell a body of exactly the
		// limit from a longer one.
		if room := t.limit + 1 - t.n; int64(len(p)) > room {
			p = p[:room]
		}
	}
	n, err := t.r.Read(p)
	t.n += int64(n)
	if t.limit >= 0 && t.n > t.limit {
		t.tooLarge = true
		return n - int(t.n-t.limit), errTooLarge
	}
	switch {
	case err == io.EOF:
		t.eof = true
	case err != nil && t.err == nil:
		t.err = err
	}
	return n, err
}

func (t *readTracker) Close() error { return t.r.Close() }

// finish closes the body, after draining it unless it was read to its end.
func (t *readTracker) finish() {
	if t.eof {
		t.r.Close()
		return
	}
	closeResponseBody(t.r)
}

// closeResponseBody discards at most maxDrain bytes of what is left of
// body, so that a keep-alive connection can be reused, and closes it. When
// the attempt's context is done the read fails at once.
func closeResponseBody(body io.ReadCloser) {
	io.CopyN(io.Discard, body, maxDrain)
	body.Close()
}

func closeRequestBody(r *http.Request) {
	if r.Body != nil {
		r.Body.Close()
	}
}

// excerpt returns the start of an error body for [RemoteError.Message]: its
// first line, at most 200 bytes, when it is text, without control or
// formatting characters, which a hostile server could use to forge log
// lines or hide text in a terminal.
func excerpt(body []byte) string {
	const max = 200
	for i, c := range body {
		if c == '\n' || c == '\r' {
			body = body[:i]
			break
		}
	}
	if len(body) > max {
		body = body[:max]
		for len(body) > 0 && !utf8.Valid(body) {
			body = body[:len(body)-1]
		}
	}
	if !utf8.Valid(body) {
		return ""
	}
	return httptext.Printable(string(body))
}

// NewTransport returns an [*http.Transport] for one dependency of a
// generated client, to be wrapped in an [*http.Client] without Timeout (the
// pipeline's deadlines bound each attempt, body included):
//
//   - dials with net.Dialer{Timeout: connectTimeout} (zero means
//     [DefaultConnectTimeout]), and bounds the TLS handshake by the same
//     time, so that a black-holed dependency costs at most that per
//     connection;
//   - MaxConnsPerHost is twice maxConns (zero means
//     [DefaultMaxConcurrent]): pass the dependency's bulkhead size,
//     [BulkheadPolicy.MaxConcurrent]. The bulkhead admits up to twice its
//     size while the dependency answers slowly, and each request in
//     flight over HTTP/1.1 holds a connection of its own, so that the
//     transport carries every call the bulkhead admits (a tighter cap
//     would hold the extra calls in its queue for a connection, each
//     with its permit) and never opens more connections than calls can be
//     in flight;
//   - keeps as many idle connections per host (the default of 2 would
//     close and reopen connections under steady load), for 90 s;
//   - takes proxies from the environment and tries HTTP/2, like
//     [http.DefaultTransport].
//
// Response-header and body timeouts are left to the pipeline's per-attempt
// timeout. Note that net/http resends a request on its own, below the
// pipeline, when a reused keep-alive connection turns out to be closed: a
// request with no body or a GetBody that was not written at all, and after
// a failed read a GET, HEAD, OPTIONS or TRACE, or any request carrying an
// Idempotency-Key or X-Idempotency-Key header. Such resends are not counted
// as attempts; a dependency's own counters include them.
//
// A connect timeout that the process noticed more than a quarter of the
// timeout late (its goroutines waited for a core) is not held against the
// dependency: the breaker excludes such a dial error instead of counting
// it as a failure (see stallAwareDial).
func NewTransport(connectTimeout time.Duration, maxConns int) *http.Transport {
	if connectTimeout <= 0 {
		connectTimeout = DefaultConnectTimeout
	}
	if maxConns <= 0 {
		maxConns = DefaultMaxConcurrent
	}
	dialer := &net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}
	conns := 2 * maxConns // the widest the bulkhead gets: see bulkhead.follow
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           stallAwareDial(dialer.DialContext, connectTimeout),
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   connectTimeout,
		MaxConnsPerHost:       conns,
		MaxIdleConns:          conns,
		MaxIdleConnsPerHost:   conns,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// dialFunc is the signature of [net.Dialer.DialContext].
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// stallAwareDial wraps dial, whose connect timeout is timeout, so that a
// timeout returned more than stallShare of timeout after it was due is a
// [dialStalledError]: the process, not the dependency, was slow, and the
// connection may have been accepted while its goroutines waited for a
// core.
func stallAwareDial(dial dialFunc, timeout time.Duration) dialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		start := time.Now()
		c, err := dial(ctx, network, addr)
		if err == nil || ctx.Err() != nil {
			return c, err
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() && time.Since(start) > timeout+time.Duration(float64(timeout)*stallShare) {
			return nil, &dialStalledError{err: err}
		}
		return c, err
	}
}

// dialStalledError is a connect timeout the process noticed late: the
// attempt fails as the dial error would (it unwraps to it), and the
// breaker counts it as an exclusion, not a failure.
type dialStalledError struct{ err error }

func (e *dialStalledError) Error() string {
	return "resilient: connect timeout noticed late, the process was stalled: " + e.err.Error()
}
func (e *dialStalledError) Unwrap() error { return e.err }
