package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"

	"github.com/resilientgo/resilient/runtime/internal/httptext"
)

// File is a file sent in a request: a part of a multipart/form-data body
// ([Multipart.File]) or a whole binary body. Body is read once per
// attempt: a *bytes.Reader, *strings.Reader, *bytes.Buffer or another
// [io.ReadSeeker] (an *os.File) can be sent again, so the call may be
// retried; any other reader is one-shot, and makes the call a single
// attempt (see [SetBody]).
type File struct {
	// Name is the file name sent in the part's Content-Disposition; empty
	// sends none.
	Name string
	// ContentType is the file's media type; empty means the part's
	// default (its encoding's contentType, else application/octet-stream).
	ContentType string
	// Body is the file's content.
	Body io.Reader
}

// Multipart builds a multipart/form-data request body part by part, in the
// order of the calls, as an OpenAPI schema with its encoding object
// describes it: each part has a name, a content type (the encoding's
// contentType, or the property's default: text/plain for a primitive,
// application/json for an object or array, application/octet-stream for a
// file) and optional headers (the encoding's headers). The body is
// streamed, never buffered whole: a part's content is read when the
// request is sent. It is replayable, and the call retryable, when every
// file part is (see [File]). Its zero value is not usable: start with
// [NewMultipart]. A Multipart is not safe for concurrent use.
type Multipart struct {
	w       *multipart.Writer
	buf     bytes.Buffer
	sources []*source
	err     error
}

// NewMultipart returns an empty multipart/form-data body with a random
// boundary.
func NewMultipart() *Multipart {
	m := &Multipart{}
	m.w = multipart.NewWriter(&m.buf)
	return m
}

// ContentType returns the body's Content-Type, boundary included.
func (m *Multipart) ContentType() string { return m.w.FormDataContentType() }

// Field adds a text part named name: a primitive property, written as its
// text, without a Content-Type header (text/plain by default), or with
// contentType when the encoding gives one.
func (m *Multipart) Field(name, value, contentType string, header http.Header) {
	m.add(name, "", contentType, header, bytesSource([]byte(value)))
}

// JSON adds a part named name holding v as JSON: an object or array
// property, whose default content type is application/json; contentType
// overrides it when the encoding gives another JSON type.
func (m *Multipart) JSON(name string, v any, contentType string, header http.Header) {
	b, err := json.Marshal(v)
	if err != nil {
		m.fail(fmt.Errorf("multipart part %q: %w", name, err))
		return
	}
	if contentType == "" {
		contentType = "application/json"
	}
	m.add(name, "", contentType, header, bytesSource(b))
}

// File adds a file part named name. Its content type is f.ContentType,
// else contentType (the encoding's), else application/octet-stream.
func (m *Multipart) File(name string, f File, contentType string, header http.Header) {
	src, err := newSource(f.Body)
	if err != nil {
		m.fail(fmt.Errorf("multipart part %q: %w", name, err))
		return
	}
	switch {
	case f.ContentType != "":
		contentType = f.ContentType
	case contentType == "":
		contentType = "application/octet-stream"
	}
	m.add(name, f.Name, contentType, header, src)
}

func (m *Multipart) fail(err error) {
	if m.err == nil {
		m.err = err
	}
}

// add renders the part's delimiter and header, and keeps its content.
func (m *Multipart) add(name, filename, contentType string, header http.Header, content *source) {
	if m.err != nil {
		return
	}
	for _, v := range []string{name, filename, contentType} {
		if strings.ContainsAny(v, "\r\n\x00") {
			m.fail(fmt.Errorf("multipart part %q: a name, file name or content type holds CR, LF or NUL; remove them", name))
			return
		}
	}
	h := make(textproto.MIMEHeader, len(header)+2)
	for k, vs := range header {
		if err := httptext.CheckField("multipart part header", k, vs); err != nil {
			m.fail(fmt.Errorf("multipart part %q: %w", name, err))
			return
		}
		h[textproto.CanonicalMIMEHeaderKey(k)] = vs
	}
	disposition := `form-data; name="` + escapeQuotes(name) + `"`
	if filename != "" {
		disposition += `; filename="` + escapeQuotes(filename) + `"`
	}
	h.Set("Content-Disposition", disposition)
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	m.buf.Reset()
	if _, err := m.w.CreatePart(h); err != nil {
		m.fail(err)
		return
	}
	m.sources = append(m.sources, bytesSource(bytes.Clone(m.buf.Bytes())), content)
}

// escapeQuotes escapes a Content-Disposition parameter as mime/multipart
// does.
func escapeQuotes(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

// SetBody ends the body and makes it req's, with its Content-Type, its
// length when every part's is known, and a GetBody when every part can be
// replayed. It fails with the first error met while adding parts (a
// value that does not marshal, a header that net/http would refuse); the
// Multipart must not be used afterwards.
func (m *Multipart) SetBody(req *http.Request) error {
	if m.err != nil {
		return fmt.Errorf("resilient: %w", m.err)
	}
	m.buf.Reset()
	if err := m.w.Close(); err != nil {
		return err
	}
	sources := append(m.sources, bytesSource(bytes.Clone(m.buf.Bytes())))
	var (
		length   int64
		replay   = true
		oneShots []io.ReadCloser
	)
	for _, s := range sources {
		if length >= 0 && s.length >= 0 {
			length += s.length
		} else {
			length = -1
		}
		if s.get == nil {
			replay = false
			oneShots = append(oneShots, s.once)
		}
	}
	open := func() (io.ReadCloser, error) {
		readers := make([]io.Reader, len(sources))
		closers := make([]io.Closer, 0, len(oneShots))
		for i, s := range sources {
			if s.get == nil {
				readers[i] = s.once
				closers = append(closers, s.once)
				continue
			}
			r, err := s.get()
			if err != nil {
				return nil, err
			}
			readers[i] = r
		}
		return &multiBody{Reader: io.MultiReader(readers...), closers: closers}, nil
	}
	body, err := open()
	if err != nil {
		return err
	}
	req.Body, req.ContentLength = body, length
	if length < 0 {
		req.ContentLength = 0 // unknown
	}
	req.GetBody = nil
	if replay {
		req.GetBody = open
	}
	if req.Header == nil {
		req.Header = make(http.Header)
	}
	req.Header.Set("Content-Type", m.ContentType())
	return nil
}

// multiBody closes the one-shot readers of a multipart body.
type multiBody struct {
	io.Reader
	closers []io.Closer
}

func (b *multiBody) Close() error {
	for _, c := range b.closers {
		c.Close()
	}
	return nil
}

// PartHeader returns the header of a multipart part from name and value
// pairs, the headers its encoding object declares, leaving out those
// whose value is empty; nil when every value is. A last name without a
// value is ignored. Generated clients call it with the part-header fields
// of a body struct.
func PartHeader(pairs ...string) http.Header {
	var h http.Header
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			continue
		}
		if h == nil {
			h = make(http.Header, len(pairs)/2)
		}
		h.Add(pairs[i], pairs[i+1])
	}
	return h
}
