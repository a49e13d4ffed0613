package stream

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"time"

	"github.com/resilientgo/resilient/runtime/internal/httptext"
)

// Event is one server-sent event (a text/event-stream item) whose data
// was decoded as a T.
type Event[T any] struct {
	// Type is the event's type, its "event" field; "message" when it has
	// none, as the EventSource API dispatches it.
	Type string
	// ID is the last event ID: the "id" field of this event or of the
	// latest event before it that had one; empty if none had. A client that
	// reconnects sends it as Last-Event-ID.
	ID string
	// Retry is the reconnection time the server asked for in the latest
	// "retry" field so far; zero if none.
	Retry time.Duration
	// Data is the event's data, its "data" fields joined with newlines,
	// decoded.
	Data T
}

// eventReader reads server-sent events from a text/event-stream body, as
// the HTML standard's event stream interpretation says (WHATWG HTML
// §9.2.6): lines end with CRLF, LF or CR; a line starting with a colon is
// a comment; an empty line dispatches the event whose data is not empty;
// unknown fields, and an "id" holding NUL, are ignored; an event left
// unfinished at the end of the body is discarded. Each event is returned
// as soon as the empty line that ends it is read. It is not safe for
// concurrent use.
type eventReader struct {
	r     *bufio.Reader
	limit int64
	line  []byte
	// Pending event.
	typ  []byte
	data []byte
	// State kept across events.
	lastID  string
	retry   time.Duration
	skipLF  bool // the last line ended with CR: a LF right after is its end
	started bool // the byte order mark was looked for
}

// newEventReader returns a reader of the events in r. limit bounds, in
// bytes, one line and one event's data, larger ones failing with
// [ErrItemTooLarge]; zero means [DefaultItemLimit], negative none.
func newEventReader(r io.Reader, limit int64) *eventReader {
	if limit == 0 {
		limit = DefaultItemLimit
	}
	return &eventReader{r: bufio.NewReader(r), limit: limit}
}

// Next returns the next event, its data as raw bytes that the caller may
// keep; io.EOF at the end of the body, or the read error.
func (r *eventReader) Next() (Event[[]byte], error) {
	for {
		line, err := r.readLine()
		if err != nil {
			// An unfinished event is discarded.
			r.typ, r.data = r.typ[:0], r.data[:0]
			return Event[[]byte]{}, err
		}
		if len(line) == 0 {
			if ev, ok := r.dispatch(); ok {
				return ev, nil
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		if err := r.setField(splitField(line)); err != nil {
			return Event[[]byte]{}, err
		}
	}
}

// dispatch ends the pending event at a blank line and returns it; ok is
// false when it has no data, and is then dropped.
func (r *eventReader) dispatch() (ev Event[[]byte], ok bool) {
	if len(r.data) == 0 {
		r.typ = r.typ[:0]
		return ev, false
	}
	ev = Event[[]byte]{Type: "message", ID: r.lastID, Retry: r.retry}
	if len(r.typ) > 0 {
		ev.Type = string(r.typ)
	}
	// Without the last newline added by the last data field.
	ev.Data = bytes.Clone(r.data[:len(r.data)-1])
	r.typ, r.data = r.typ[:0], r.data[:0]
	return ev, true
}

// splitField splits a line into its field name and value: the value
// follows the first colon, less one space after it; a line without a
// colon is a field name with an empty value.
func splitField(line []byte) (field, value []byte) {
	i := bytes.IndexByte(line, ':')
	if i < 0 {
		return line, nil
	}
	field, value = line[:i], line[i+1:]
	if len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	return field, value
}

// setField applies one field to the pending event or the reader's state;
// unknown fields are ignored. Data beyond the reader's limit drops the
// event's data and fails with [ErrItemTooLarge].
func (r *eventReader) setField(field, value []byte) error {
	switch string(field) {
	case "event":
		r.typ = append(r.typ[:0], value...)
	case "data":
		if r.limit >= 0 && int64(len(r.data)+len(value)) > r.limit {
			r.data = r.data[:0]
			return ErrItemTooLarge
		}
		r.data = append(append(r.data, value...), '\n')
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			r.lastID = string(value)
		}
	case "retry":
		if ms, ok := asciiDigits(value); ok {
			r.retry = time.Duration(ms) * time.Millisecond
		}
	}
	return nil
}

// asciiDigits parses a non-empty run of ASCII digits, false when value is
// anything else or overflows a duration in milliseconds.
func asciiDigits(value []byte) (int64, bool) {
	if len(value) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range value {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
		if n > int64(time.Duration(1<<63-1)/time.Millisecond) {
			return 0, false
		}
	}
	return n, true
}

// readLine returns the next line without its end (CRLF, LF or CR), valid
// until the next call. It reads only what the line needs, so that a line
// is returned as soon as its end arrives.
func (r *eventReader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	if r.skipLF {
		r.skipLF = false
		b, err := r.r.Peek(1)
		if err != nil {
			return nil, err
		}
		if b[0] == '\n' {
			r.r.Discard(1)
		}
	}
	for {
		n := r.r.Buffered()
		if n == 0 {
			n = 1 // block for more
		}
		buf, err := r.r.Peek(n)
		if len(buf) == 0 {
			if err == io.EOF && len(r.line) > 0 {
				// The body ended within a line: the event is unfinished
				// anyway.
				return nil, io.EOF
			}
			return nil, err
		}
		if i := bytes.IndexAny(buf, "\r\n"); i >= 0 {
			r.line = append(r.line, buf[:i]...)
			r.skipLF = buf[i] == '\r'
			r.r.Discard(i + 1)
			break
		}
		r.line = append(r.line, buf...)
		r.r.Discard(len(buf))
		if r.limit >= 0 && int64(len(r.line)) > r.limit {
			return nil, ErrItemTooLarge
		}
	}
	if !r.started {
		r.started = true
		r.line = bytes.TrimPrefix(r.line, []byte("\xef\xbb\xbf"))
	}
	return r.line, nil
}

// NewEvents returns the stream of the server-sent events of resp, a
// text/event-stream answer (usually from the core runtime's DoHTTPStream), each event's
// data decoded by decode: [DecodeJSON] when nil, [DecodeText] for text. One
// line or one event's data larger than the client's MaxResponseBody ends
// the stream with [ErrItemTooLarge].
func NewEvents[T any](resp *http.Response, decode func([]byte) (T, error)) *Stream[Event[T]] {
	if decode == nil {
		decode = DecodeJSON[T]
	}
	er := newEventReader(resp.Body, itemLimit(resp.Body))
	return newStream(resp, func() (Event[T], error) {
		raw, err := er.Next()
		if err != nil {
			return Event[T]{}, err
		}
		data, err := decode(raw.Data)
		if err != nil {
			return Event[T]{}, &EventDecodeError{Type: raw.Type, ID: raw.ID, Err: err}
		}
		return Event[T]{Type: raw.Type, ID: raw.ID, Retry: raw.Retry, Data: data}, nil
	})
}

// EventDecodeError is the cause of a [*Error] for an event whose
// data did not decode.
type EventDecodeError struct {
	// Type and ID are the event's.
	Type, ID string
	// Err is the decoder's error.
	Err error
}

// Error describes the failure.
func (e *EventDecodeError) Error() string {
	msg := "event " + httptext.Printable(e.Type)
	if e.ID != "" {
		msg += " (id " + httptext.Printable(e.ID) + ")"
	}
	return msg + ": decoding its data: " + e.Err.Error()
}

// Unwrap returns the decoder's error.
func (e *EventDecodeError) Unwrap() error { return e.Err }
