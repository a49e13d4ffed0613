package runtime

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/resilientgo/resilient/runtime/outcome"
)

// DoHTTPStream runs one call of op that sends req through the pipeline, as
// [DoHTTP] does, and returns the response of the successful attempt with
// its body unread, for answers that are read after the call returns:
// server-sent events, JSON Lines and NDJSON, JSON text sequences (the
// readers of the stream sub-package: stream.NewEvents, stream.NewJSONLines,
// stream.NewJSONSeq) and downloads, whose body is the [io.ReadCloser] to read. What differs from
// DoHTTP:
//
//   - An attempt ends when the response header arrives: the attempt
//     timeout and the total timeout bound the time to the header only.
//     The body is bound by ctx alone (its deadline, its cancellation), so
//     a stream may last as long as the caller wants it to. The deadline
//     header, when sent, carries ctx's remaining time, and is left out
//     when ctx has no deadline: a server's server.DeadlineMiddleware must not
//     cut the stream at the attempt timeout.
//   - A stream is never retried once it was handed to the caller. The
//     pipeline retries an idempotent operation only for attempts that
//     failed before their header arrived or that answered a status
//     outside 2xx (read and closed as DoHTTP does); once a 2xx header is
//     in, the call succeeds, and a failure while reading the body (a
//     reset, a cut) is the error of that read, returned to the caller,
//     never replayed, and not told to the breaker, which counted the
//     attempt as a success.
//   - The call holds one bulkhead permit of the dependency until the body
//     is closed, read to its end or failed, or ctx is done, whichever
//     comes first ([DoHeld]): streams count against the dependency's
//     concurrency for as long as they last. Close the body (or cancel
//     ctx) when done with it, as with any response body; an abandoned
//     stream keeps its permit and its connection.
//   - There is no hedging and no fallback, and [HTTPClient.MaxResponseBody]
//     does not bound the body: the stream readers of this package apply
//     it to each item (an event, a line, a record) instead.
//
// [WithResponseInfo] records the answer's status and header.
// Request checks, the idempotency key, one attempt only for a body without
// GetBody, the classification of errors and the [*CallError] of a failed
// call are DoHTTP's. decodeErr (may be nil) turns a documented error answer
// into the operation's typed error, as for DoHTTP.
func DoHTTPStream(ctx context.Context, op *Operation, c *HTTPClient, req *http.Request, decodeErr ErrorDecoder) (*http.Response, error) {
	if op.respInfo != nil {
		*op.respInfo = ResponseInfo{}
	}
	resp, err := doHTTPHeld(ctx, op, c, req, decodeErr, false, true)
	if err != nil {
		return nil, err
	}
	if op.respInfo != nil {
		op.respInfo.Status, op.respInfo.Header = resp.StatusCode, resp.Header
	}
	return resp, nil
}

// Relay sends req through op's pipeline for an [http.RoundTripper] that
// puts the pipeline under an existing HTTP client, such as the route
// sub-package's Transport. It runs as [DoHTTPStream] does, but every answer
// of the dependency is returned as the response, whatever its status: an
// answer outside 2xx that the pipeline did not retry, or the last one when
// retries ran out, reaches the caller as the server sent it, its body
// unread. A call the pipeline ends without an answer returns its
// [*CallError]. The deadline header carries the attempt's remaining time
// as [DoHTTP] sends it, or with streamDeadline the remaining time of req's
// context, as [DoHTTPStream] sends it. req is not modified: the attempts
// send a copy, and the response's Request is req. The call runs under
// req's context.
func (c *HTTPClient) Relay(op *Operation, req *http.Request, streamDeadline bool) (*http.Response, error) {
	resp, err := doHTTPHeld(req.Context(), op, c, req.Clone(req.Context()), nil, true, streamDeadline)
	if err != nil {
		return nil, err
	}
	resp.Request = req
	return resp, nil
}

// doHTTPHeld is [DoHTTPStream]. With answerAll, an answer outside 2xx that
// ends the call is returned as the response, its body unread, instead of
// as an error: the route transport hands every answer of the dependency
// to its caller. With streamDeadline, the deadline header carries ctx's
// remaining time, else the attempt's.
func doHTTPHeld(ctx context.Context, op *Operation, c *HTTPClient, req *http.Request, decodeErr ErrorDecoder, answerAll, streamDeadline bool) (*http.Response, error) {
	op, err := prepareHTTP(op.With(WithoutHedging(), WithoutFallback()), req)
	if err != nil {
		return nil, err
	}
	h := &heldCall{
		ctx: ctx, op: op, c: c, req: req, decodeErr: decodeErr,
		answerAll: answerAll, streamDeadline: streamDeadline,
		trace: op.idempotency == NotIdempotent, inPlace: !editing(op, c),
	}
	resp, release, err := doHeld(ctx, op, "", h.attempt)
	if err != nil {
		return h.failed(err)
	}
	if hasBody(req) && req.GetBody != nil {
		// Every attempt sent a copy; a body sent as is, the transport
		// closes once written.
		req.Body.Close()
	}
	return resp.hand(ctx, release), nil
}

// heldCall is one call of [doHTTPHeld]: what its attempts send, how they
// take the answer, and the answer outside 2xx of the latest attempt.
type heldCall struct {
	ctx       context.Context
	op        *Operation
	c         *HTTPClient
	req       *http.Request
	decodeErr ErrorDecoder
	// answerAll and streamDeadline are doHTTPHeld's.
	answerAll, streamDeadline bool
	// trace asks each attempt to record whether its request was sent.
	trace bool
	// inPlace tells that the next attempt may send req's header in
	// place: it is the first, and no editor writes to the request.
	inPlace bool
	// last is the answer outside 2xx of the latest attempt, kept unread
	// with answerAll until the pipeline says whether another attempt
	// replaces it.
	last *heldAnswer
}

// attempt is the call's attempt under actx: it discards the answer the
// previous attempt kept, and sends one more (see streamAttempt).
func (h *heldCall) attempt(actx context.Context) (*heldAnswer, error) {
	if h.last != nil {
		h.last.discard()
		h.last = nil
	}
	first := h.inPlace
	h.inPlace = false
	dctx := actx
	if h.streamDeadline {
		dctx = h.ctx
	}
	a, err := h.streamAttempt(actx, dctx, first)
	if err != nil && a != nil {
		h.last = a
	}
	return a, err
}

// failed ends the call that failed with err. When the dependency's own
// answer ended it, and answerAll asks for it, that answer is handed over
// as the response; else it is discarded, and the request's body closed
// (no attempt took it when the bulkhead was full or the breaker open).
func (h *heldCall) failed(err error) (*http.Response, error) {
	if h.last != nil && h.answerAll && h.ctx.Err() == nil {
		return h.last.hand(h.ctx, nil), nil
	}
	if h.last != nil {
		h.last.discard()
	}
	if hasBody(h.req) {
		h.req.Body.Close()
	}
	return nil, err
}

// hasBody reports whether req has a body to send.
func hasBody(req *http.Request) bool {
	return req.Body != nil && req.Body != http.NoBody
}

// heldAnswer is a response whose body outlives its attempt: it is read
// under sctx, whose cancel ends it.
type heldAnswer struct {
	resp   *http.Response
	cancel context.CancelFunc
	limit  int64
}

// discard closes the body of an answer that will not be handed over.
func (a *heldAnswer) discard() {
	closeResponseBody(a.resp.Body)
	a.cancel()
}

// hand returns the response with a body that ends the stream when it is
// closed, read to its end or failed, or when ctx is done: it cancels the
// request's context and calls release (nil: nothing to release) with the
// read error (ctx's for a done ctx), nil for a clean end.
func (a *heldAnswer) hand(ctx context.Context, release func(error)) *http.Response {
	b := &streamBody{rc: a.resp.Body, limit: a.limit}
	b.end = func(err error) {
		b.once.Do(func() {
			b.rc.Close()
			a.cancel()
			if release != nil {
				release(err)
			}
		})
	}
	a.resp.Body = b
	b.stop = context.AfterFunc(ctx, func() { b.end(context.Cause(ctx)) })
	return a.resp
}

// streamAttempt sends one attempt of the call's request and returns the
// answer once its header is in. actx bounds the wait for the header; the
// request itself runs under a context with the call's deadline and
// cancellation and actx's values (a trace span), so that the body
// outlives the attempt. The deadline header carries dctx's remaining
// time. The first attempt (first is true) may send the request's header
// in place. The answer of a status outside 2xx is an error, returned
// with the unread answer when answerAll asks for it.
func (h *heldCall) streamAttempt(actx, dctx context.Context, first bool) (*heldAnswer, error) {
	sctx, cancel := streamContext(h.ctx, actx)
	stop := context.AfterFunc(actx, cancel)
	d, name, margin, send, limit := h.c.settings()
	r, sent, err := attemptRequest(sctx, h.op, h.c, h.req, first, h.trace)
	if err == nil && send {
		err = setDeadlineHeader(dctx, r.Header, name, margin)
	}
	edited := editing(h.op, h.c)
	if err == nil && edited {
		r, err = h.runEditors(actx, r)
	}
	if err != nil {
		stop()
		cancel()
		if r != nil {
			closeRequestBody(r)
		}
		return nil, err
	}
	resp, err := d.Do(r)
	if err != nil && edited {
		hideEditedURL(err, h.req.URL)
	}
	if !stop() {
		// The attempt ended (its timeout, the caller) as the header came:
		// the answer is cancelled with it.
		cancel()
		if err == nil {
			closeResponseBody(resp.Body)
		}
		return nil, fmt.Errorf("resilient: waiting for the response header: %w", context.Cause(actx))
	}
	if err != nil {
		cancel()
		if sent != nil && sent.notSent() {
			return nil, MarkNotSent(err)
		}
		return nil, err
	}
	return h.answer(&heldAnswer{resp: resp, cancel: cancel, limit: limit})
}

// runEditors runs the call's editors on r under actx and returns the request
// to send, which keeps the query as the editors left it.
func (h *heldCall) runEditors(actx context.Context, r *http.Request) (*http.Request, error) {
	if err := edit(actx, h.op, h.c, r); err != nil {
		return r, err
	}
	return markEditedQuery(r, h.req.URL.RawQuery), nil
}

// answer returns the answer a of an attempt: as it is within 2xx, else
// as an error, with the unread answer when answerAll asks for it, or the
// body read and decoded into the error.
func (h *heldCall) answer(a *heldAnswer) (*heldAnswer, error) {
	resp := a.resp
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		return a, nil
	}
	if h.answerAll {
		return a, answerError(resp)
	}
	defer a.discard()
	return nil, remoteError(resp, h.decodeErr)
}

// answerError is the error of an answer outside 2xx whose body is kept for
// the caller: a [*RemoteError] with the status, class, header and
// Retry-After, and no body.
func answerError(resp *http.Response) *RemoteError {
	re := &RemoteError{
		Status: resp.StatusCode,
		Code:   http.StatusText(resp.StatusCode),
		Class:  outcome.StatusClass(resp.StatusCode),
		Header: resp.Header,
	}
	if d, ok := parseRetryAfterHeader(resp.Header, time.Now()); ok {
		re.RetryAfter = d
	}
	return re
}

// streamContext returns the context a streamed request runs under: ctx's
// deadline and cancellation, actx's values.
func streamContext(ctx, actx context.Context) (context.Context, context.CancelFunc) {
	base := context.WithoutCancel(actx)
	var (
		sctx   context.Context
		cancel context.CancelFunc
	)
	if dl, ok := ctx.Deadline(); ok {
		sctx, cancel = context.WithDeadline(base, dl)
	} else {
		sctx, cancel = context.WithCancel(base)
	}
	stop := context.AfterFunc(ctx, cancel)
	return sctx, func() {
		stop()
		cancel()
	}
}

// streamBody is the body of a streamed answer: it ends the stream (the
// request's context and the bulkhead permit) once, when it is closed, read
// to its end or failed, or its context is done.
type streamBody struct {
	rc    io.ReadCloser
	limit int64 // per item, for the stream readers; negative: none
	once  sync.Once
	end   func(error)
	stop  func() bool // unregisters the end on the context's end
}

// finish ends the stream with err (nil for a clean end).
func (b *streamBody) finish(err error) {
	b.stop()
	b.end(err)
}

// Read reads from the body. The first error ends the stream, with the
// error unless it is io.EOF.
func (b *streamBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err != nil {
		if err == io.EOF {
			b.finish(nil)
		} else {
			b.finish(err)
		}
	}
	return n, err
}

// Close closes the body and ends the stream.
func (b *streamBody) Close() error {
	b.finish(nil)
	return nil
}

// ItemLimit returns the bound of one item of the body for the stream
// readers of the stream sub-package: [HTTPClient.MaxResponseBody], its
// default when zero, negative for none.
func (b *streamBody) ItemLimit() int64 { return b.limit }

// DoStream is [DoHeld] for a long-lived stream, such as a gRPC stream:
// the bulkhead permit is held only while the stream is being established
// (the attempts, up to the result), and given back as soon as the
// pipeline returns, so that open streams never starve the dependency's
// other calls. end must be called once the stream has ended, with the
// error that ended it (nil for a clean end); it ends the call's trace,
// and calling it again does nothing. It is never nil.
//
// Open streams are bounded by the server's limit on concurrent streams
// (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS) and by the caller, not by the
// bulkhead, which keeps its permits for calls that wait for an answer.
func DoStream[T any](ctx context.Context, op *Operation, key string, attempt Attempt[T]) (v T, end func(error), err error) {
	v, held, tr, err := call(ctx, op, key, attempt, true)
	if !held {
		return v, func(error) {}, err
	}
	op.dep.bulkhead.release()
	if tr == nil {
		return v, func(error) {}, err
	}
	var once sync.Once
	return v, func(err error) { once.Do(func() { tr.end(err, true) }) }, err
}
