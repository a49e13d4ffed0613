package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// recordedAnswer is a success answer of a [DoHTTP] call whose operation
// keeps a cached fallback, as the cache keeps it: the status, header and
// body bytes the decoder read, not the decoded value. A caller answered
// from the cache gets a value decoded afresh from them ([recordedAnswer.replay]),
// so that no two callers share a pointer, a slice or a map: what one
// caller changes in its answer never reaches another's. v is the value
// decoded for the call that received the answer, handed to it alone and
// never read from the cache.
type recordedAnswer[T any] struct {
	v      T
	status int
	header http.Header
	body   []byte
}

// replay decodes the recorded answer again with decode, on a response of
// its own (a copy of the header, a reader of the body).
func (a *recordedAnswer[T]) replay(decode func(*http.Response) (T, error)) (T, error) {
	return decode(&http.Response{
		Status:        http.StatusText(a.status),
		StatusCode:    a.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        a.header.Clone(),
		Body:          io.NopCloser(bytes.NewReader(a.body)),
		ContentLength: int64(len(a.body)),
	})
}

// record decodes resp with decode and returns the answer as a cached
// fallback keeps it: resp's status, a copy of its header, and the bytes
// of its body that decode read.
func record[T any](resp *http.Response, decode func(*http.Response) (T, error)) (*recordedAnswer[T], error) {
	rec := &recordingBody{r: resp.Body}
	if n := resp.ContentLength; n > 0 && n <= 1<<20 {
		rec.buf = make([]byte, 0, n)
	}
	resp.Body = rec
	v, err := decode(resp)
	if err != nil {
		return nil, err
	}
	return &recordedAnswer[T]{v: v, status: resp.StatusCode, header: resp.Header.Clone(), body: rec.buf}, nil
}

// recordingBody keeps a copy of what is read from a response body.
type recordingBody struct {
	r   io.ReadCloser
	buf []byte
}

func (b *recordingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.buf = append(b.buf, p[:n]...)
	return n, err
}

func (b *recordingBody) Close() error { return b.r.Close() }

// answer returns the value of a call that got rec from the pipeline with
// err: the call's own answer when err is nil, else an answer of the cache
// decoded afresh with decode, the decoder without the call's response
// info, since a fallback's answer did not come from this call. Should the
// recorded bytes no longer decode, the call fails with what the fallback
// would have replaced.
func (rec *recordedAnswer[T]) answer(err error, decode func(*http.Response) (T, error)) (T, error) {
	if err == nil {
		v := rec.v
		var zero T
		rec.v = zero // the cache keeps the bytes, not this caller's value
		return v, nil
	}
	v, derr := rec.replay(decode)
	if derr != nil {
		var de *DegradedError
		if errors.As(err, &de) {
			return v, de.Cause
		}
		return v, err
	}
	return v, err
}

// staticCopy returns a copy of v, a static fallback's value, that shares
// no pointer, slice or map with it, made through its JSON form (the form
// a generated client's static value is written in): every caller a static
// fallback answers gets a value of its own. It runs only when a fallback
// answers. A value that does not survive the trip is returned as it is.
func staticCopy[T any](v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var c T
	if err := json.Unmarshal(b, &c); err != nil {
		return v
	}
	return c
}
