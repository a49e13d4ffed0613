package codec

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
)

// SetBody sets req's body to r, replayable when r allows it, so that the
// pipeline may retry the call:
//
//   - nil: no body;
//   - a *bytes.Buffer, *bytes.Reader or *strings.Reader: replayable from
//     the data left unread now, with its length, as [http.NewRequest]
//     does;
//   - another [io.ReadSeeker], such as an *os.File: replayable from its
//     current offset, each attempt seeking back there; an attempt that a
//     retry replaced can no longer read it, so two attempts never share
//     the offset. Its length is found by seeking to the end and back. It
//     stays the caller's: it is not closed. One that cannot seek (a pipe)
//     is one-shot;
//   - any other reader is one-shot: sent once, so the call gets one
//     attempt and no retry whatever its idempotency (runtime.DoHTTP). Closed
//     after the call when it is an [io.Closer].
//
// The caller must not use r while the call runs. SetBody fails only when
// seeking r fails.
func SetBody(req *http.Request, r io.Reader) error {
	src, err := newSource(r)
	if err != nil {
		return err
	}
	src.set(req)
	return nil
}

// source is one piece of a request body: replayable (get makes a fresh
// reader) or one-shot (get once).
type source struct {
	get    func() (io.ReadCloser, error) // nil: one-shot
	once   io.ReadCloser
	length int64 // -1: unknown
}

// newSource classifies r (see [SetBody]).
func newSource(r io.Reader) (*source, error) {
	switch v := r.(type) {
	case nil:
		return &source{get: func() (io.ReadCloser, error) { return http.NoBody, nil }}, nil
	case *bytes.Buffer:
		buf := v.Bytes()
		return bytesSource(buf), nil
	case *bytes.Reader:
		snap := *v
		return &source{length: int64(v.Len()), get: func() (io.ReadCloser, error) {
			r := snap
			return io.NopCloser(&r), nil
		}}, nil
	case *strings.Reader:
		snap := *v
		return &source{length: int64(v.Len()), get: func() (io.ReadCloser, error) {
			r := snap
			return io.NopCloser(&r), nil
		}}, nil
	case io.ReadSeeker:
		off, err := v.Seek(0, io.SeekCurrent)
		if err != nil {
			return oneShot(r), nil // a pipe or a terminal: not seekable
		}
		end, err := v.Seek(0, io.SeekEnd)
		if err != nil {
			return nil, err
		}
		if _, err := v.Seek(off, io.SeekStart); err != nil {
			return nil, err
		}
		s := &seekSource{rs: v, off: off}
		return &source{length: end - off, get: s.open}, nil
	default:
		return oneShot(r), nil
	}
}

func bytesSource(b []byte) *source {
	return &source{length: int64(len(b)), get: func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(b)), nil
	}}
}

func oneShot(r io.Reader) *source {
	rc, ok := r.(io.ReadCloser)
	if !ok {
		rc = io.NopCloser(r)
	}
	return &source{once: rc, length: -1}
}

// set makes the source req's body.
func (s *source) set(req *http.Request) {
	if s.get == nil {
		req.Body, req.GetBody, req.ContentLength = s.once, nil, s.length
		if s.length < 0 {
			req.ContentLength = 0 // unknown, for a client request with a body
		}
		return
	}
	body, _ := s.get()
	req.Body, req.GetBody, req.ContentLength = body, s.get, s.length
	if s.length == 0 {
		req.Body, req.GetBody = http.NoBody, func() (io.ReadCloser, error) { return http.NoBody, nil }
	}
}

// seekSource replays a seeker: each open seeks back to the start offset
// and revokes the reader of the previous attempt, whose transport may
// still be reading, so that reads never interleave.
type seekSource struct {
	mu  sync.Mutex
	rs  io.ReadSeeker
	off int64
	cur *seekReader
}

// errBodyReplaced is the read error of an attempt's body after another
// attempt took it over.
var errBodyReplaced = errors.New("resilient: the request body was taken over by another attempt")

func (s *seekSource) open() (io.ReadCloser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil {
		s.cur.revoked = true
	}
	if _, err := s.rs.Seek(s.off, io.SeekStart); err != nil {
		return nil, err
	}
	s.cur = &seekReader{s: s}
	return s.cur, nil
}

type seekReader struct {
	s       *seekSource
	revoked bool // guarded by s.mu
}

func (r *seekReader) Read(p []byte) (int, error) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	if r.revoked {
		return 0, errBodyReplaced
	}
	return r.s.rs.Read(p)
}

// Close does nothing: the seeker is the caller's, kept for later attempts.
func (r *seekReader) Close() error { return nil }
