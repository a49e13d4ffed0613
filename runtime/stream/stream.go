package stream

import (
	"encoding/json"
	"errors"
	"io"
	"iter"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
)

// Errors that end a stream, as the cause of its [*Error].
var (
	// ErrItemTooLarge is the cause of an [*Error] for an item (an event,
	// a line, a record) larger than the limit: the client's
	// MaxResponseBody for a body from DoHTTPStream, [DefaultItemLimit]
	// otherwise.
	ErrItemTooLarge = errors.New("resilient: stream item larger than the limit; raise HTTPClient.MaxResponseBody if such items are expected")
	// ErrTruncatedRecord is the error of a JSON text sequence record whose
	// text was cut (RFC 7464 §2.3).
	ErrTruncatedRecord = errors.New("resilient: truncated JSON text sequence record")
)

// DefaultItemLimit is the most bytes of one item (an event's data, a line,
// a record) of a body that does not say its own limit: the core runtime's
// DefaultMaxResponseBody, 32 MiB. A body from DoHTTPStream bounds its
// items by its client's MaxResponseBody instead.
const DefaultItemLimit = 32 << 20

// itemLimit returns the bound of one item of body: its own when it has
// one (a body from DoHTTPStream), else [DefaultItemLimit].
func itemLimit(body io.Reader) int64 {
	if b, ok := body.(interface{ ItemLimit() int64 }); ok {
		return b.ItemLimit()
	}
	return DefaultItemLimit
}

// Stream is a typed stream of items read from the body of a streamed
// answer (the core runtime's DoHTTPStream): the events of [NewEvents], the
// values of [NewJSONLines] and [NewJSONSeq]. Items are delivered as
// they arrive: Next returns as soon as one item is complete, without
// waiting for the next. Read it with Next and Current, or range over All:
//
//	for s.Next() {
//		use(s.Current())
//	}
//	if err := s.Err(); err != nil { ... }
//
// The stream ends at the end of the body, at the first error (a failed
// read, an item that does not decode or is larger than the limit) or when
// it is closed; it then closes the body, which gives back the call's
// bulkhead permit. A stream that is not read to its end must be closed.
// A Stream is not safe for concurrent use, except Close, which may be
// called from another goroutine to stop a reader blocked in Next.
type Stream[T any] struct {
	resp *http.Response
	next func() (T, error)
	cur  T
	err  error
	n    int
	done bool
	// closed: Close was called, so the read error that follows is not
	// the stream's.
	closed atomic.Bool
}

// newStream returns the stream of the items next reads from resp's body.
func newStream[T any](resp *http.Response, next func() (T, error)) *Stream[T] {
	return &Stream[T]{resp: resp, next: next}
}

// Next reads the next item and reports whether there is one; false at the
// end of the stream or on an error, which Err then returns.
func (s *Stream[T]) Next() bool {
	if s.done {
		return false
	}
	v, err := s.next()
	if err != nil {
		s.done = true
		var zero T
		s.cur = zero
		if err != io.EOF && !s.closed.Load() {
			s.err = &Error{Item: s.n + 1, Err: err}
		}
		s.resp.Body.Close()
		return false
	}
	s.cur = v
	s.n++
	return true
}

// Current returns the item Next read; the zero T before the first Next
// and after the end.
func (s *Stream[T]) Current() T { return s.cur }

// Err returns the error that ended the stream, a [*Error]; nil when
// it ended at the end of the body, was closed, or has not ended.
func (s *Stream[T]) Err() error { return s.err }

// Close ends the stream and closes the body; reading stops there. It may
// be called more than once and from another goroutine than the reader's.
func (s *Stream[T]) Close() error {
	s.closed.Store(true)
	return s.resp.Body.Close()
}

// Response returns the answer the stream reads: its status code and
// header. Its body belongs to the stream.
func (s *Stream[T]) Response() *http.Response { return s.resp }

// All returns an iterator over the remaining items, for a range loop. The
// stream's error, if any, comes as the last pair, with the zero T. The
// stream is closed when the loop ends, also by a break.
func (s *Stream[T]) All() iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		defer s.Close()
		for s.Next() {
			if !yield(s.cur, nil) {
				return
			}
		}
		if s.err != nil {
			var zero T
			yield(zero, s.err)
		}
	}
}

// Error is the error that ends a [Stream]: reading the body failed
// (a reset, a cut, the caller's context ended), or an item did not decode
// or was too large ([ErrItemTooLarge]). It is never retried: the items
// before it were already handed to the caller. Unwrap gives the cause.
type Error struct {
	// Item counts from 1: the item that could not be read.
	Item int
	// Err is the cause.
	Err error
}

// Error describes the failure.
func (e *Error) Error() string {
	return "resilient: stream item " + strconv.Itoa(e.Item) + ": " + strings.TrimPrefix(e.Err.Error(), "resilient: ")
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// DecodeJSON decodes one JSON item into a new T: the default decoder of
// the stream constructors.
func DecodeJSON[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

// DecodeText returns the item as a string, for events whose data is text.
func DecodeText(data []byte) (string, error) { return string(data), nil }
