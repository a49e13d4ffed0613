package stream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// jsonLinesReader reads the values of a JSON Lines or NDJSON body
// (application/jsonl, application/x-ndjson, application/x-jsonlines): one
// JSON text per line, lines ending with LF or CRLF, the last one possibly
// without. Blank lines are skipped. Each value is returned as soon as its
// line ends. It is not safe for concurrent use.
type jsonLinesReader struct {
	r     *bufio.Reader
	limit int64
	line  []byte
}

// newJSONLinesReader returns a reader of the lines of r. limit bounds one
// line, in bytes, a longer one failing with [ErrItemTooLarge]; zero means
// [DefaultItemLimit], negative none.
func newJSONLinesReader(r io.Reader, limit int64) *jsonLinesReader {
	if limit == 0 {
		limit = DefaultItemLimit
	}
	return &jsonLinesReader{r: bufio.NewReader(r), limit: limit}
}

// Next returns the next non-blank line without its end, as raw bytes that
// the caller may keep; io.EOF at the end of the body, or the read error.
func (r *jsonLinesReader) Next() ([]byte, error) {
	for {
		line, err := readLineLF(r.r, &r.line, r.limit)
		if t := bytes.TrimSpace(line); len(t) > 0 {
			return bytes.Clone(t), nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// readLineLF reads one line ending with LF into *buf, and returns it
// without the LF. At the end of the body it returns the unterminated rest,
// possibly empty, with io.EOF; a line longer than limit (when not
// negative) fails with [ErrItemTooLarge].
func readLineLF(r *bufio.Reader, buf *[]byte, limit int64) ([]byte, error) {
	*buf = (*buf)[:0]
	for {
		chunk, err := r.ReadSlice('\n')
		*buf = append(*buf, chunk...)
		if limit >= 0 && int64(len(*buf)) > limit+1 {
			return nil, ErrItemTooLarge
		}
		switch {
		case err == nil:
			return (*buf)[:len(*buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return *buf, err
		}
	}
}

// recordSeparator starts every JSON text of a JSON text sequence.
const recordSeparator = 0x1e

// jsonSeqReader reads the values of a JSON text sequence (RFC 7464,
// application/json-seq): each JSON text is preceded by an ASCII record
// separator (0x1E) and followed by a line feed. A value is returned as
// soon as a line ends with the text complete, so a text may span lines. A
// text still incomplete when the next separator or the end of the body
// comes is truncated, and fails Next ([ErrTruncatedRecord]), as RFC 7464
// §2.3 asks. Text before the first separator is read as a record too. It
// is not safe for concurrent use.
type jsonSeqReader struct {
	r      *bufio.Reader
	limit  int64
	line   []byte
	record []byte
	// The rest of a line after a separator that ended a truncated
	// record, with the error that came with the line, read next.
	pending    []byte
	pendingErr error
	hasPending bool
}

// newJSONSeqReader returns a reader of the records of r. limit bounds one
// record, in bytes, a longer one failing with [ErrItemTooLarge]; zero
// means [DefaultItemLimit], negative none.
func newJSONSeqReader(r io.Reader, limit int64) *jsonSeqReader {
	if limit == 0 {
		limit = DefaultItemLimit
	}
	return &jsonSeqReader{r: bufio.NewReader(r), limit: limit}
}

// Next returns the next record's JSON text, as raw bytes that the caller
// may keep; io.EOF at the end of the body, or the read error.
func (r *jsonSeqReader) Next() ([]byte, error) {
	for {
		var (
			line []byte
			err  error
		)
		if r.hasPending {
			line, err, r.hasPending = r.pending, r.pendingErr, false
		} else if line, err = readLineLF(r.r, &r.line, r.limit); err == ErrItemTooLarge {
			return nil, err
		}
		eol := err == nil
		for {
			i := bytes.IndexByte(line, recordSeparator)
			if i < 0 {
				break
			}
			r.record = append(r.record, line[:i]...)
			if len(bytes.TrimSpace(r.record)) > 0 {
				// A new record starts before the last one was complete.
				r.record = r.record[:0]
				r.pending, r.pendingErr, r.hasPending = line[i+1:], err, true
				return nil, ErrTruncatedRecord
			}
			r.record = r.record[:0]
			line = line[i+1:]
		}
		r.record = append(r.record, line...)
		if r.limit >= 0 && int64(len(r.record)) > r.limit {
			r.record = r.record[:0]
			return nil, ErrItemTooLarge
		}
		if eol {
			r.record = append(r.record, '\n')
			if t := bytes.TrimSpace(r.record); len(t) > 0 && json.Valid(t) {
				v := bytes.Clone(t)
				r.record = r.record[:0]
				return v, nil
			}
			continue
		}
		// The body ended (or failed) within a line.
		rest := bytes.TrimSpace(r.record)
		r.record = r.record[:0]
		if err == io.EOF && len(rest) > 0 {
			return nil, ErrTruncatedRecord
		}
		return nil, err
	}
}

// NewJSONLines returns the stream of the values of resp, a JSON
// Lines or NDJSON answer (usually from the core runtime's DoHTTPStream), each decoded by
// decode ([DecodeJSON] when nil). A line larger than
// the client's MaxResponseBody ends the stream with [ErrItemTooLarge].
func NewJSONLines[T any](resp *http.Response, decode func([]byte) (T, error)) *Stream[T] {
	lr := newJSONLinesReader(resp.Body, itemLimit(resp.Body))
	return newStream(resp, decodeEach(lr.Next, decode))
}

// NewJSONSeq returns the stream of the values of resp, a JSON text
// sequence answer (RFC 7464, usually from the core runtime's
// DoHTTPStream), each decoded by decode ([DecodeJSON] when nil). A truncated record ends the stream with
// [ErrTruncatedRecord], one larger than the client's MaxResponseBody with
// [ErrItemTooLarge].
func NewJSONSeq[T any](resp *http.Response, decode func([]byte) (T, error)) *Stream[T] {
	sr := newJSONSeqReader(resp.Body, itemLimit(resp.Body))
	return newStream(resp, decodeEach(sr.Next, decode))
}

// decodeEach returns a reader of the items next reads, decoded.
func decodeEach[T any](next func() ([]byte, error), decode func([]byte) (T, error)) func() (T, error) {
	if decode == nil {
		decode = DecodeJSON[T]
	}
	return func() (T, error) {
		raw, err := next()
		if err != nil {
			var zero T
			return zero, err
		}
		return decode(raw)
	}
}
