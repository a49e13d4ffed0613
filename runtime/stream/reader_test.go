package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// rawEvent is an event as a test reads it.
type rawEvent struct {
	Type, ID, Data string
	Retry          time.Duration
}

func readEvents(t *testing.T, r io.Reader, limit int64) ([]rawEvent, error) {
	t.Helper()
	er := newEventReader(r, limit)
	var out []rawEvent
	for {
		ev, err := er.Next()
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return out, err
		}
		out = append(out, rawEvent{Type: ev.Type, ID: ev.ID, Data: string(ev.Data), Retry: ev.Retry})
	}
}

func TestEventReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []rawEvent
	}{
		{"one data line", "data: hello\n\n", []rawEvent{{Type: "message", Data: "hello"}}},
		{"data lines joined by newlines", "data: a\ndata: b\ndata:c\n\n", []rawEvent{{Type: "message", Data: "a\nb\nc"}}},
		{"only one leading space is removed", "data:  two\n\n", []rawEvent{{Type: "message", Data: " two"}}},
		{"CRLF line ends", "event: ping\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n", []rawEvent{{Type: "ping", Data: "1"}, {Type: "message", Data: "2"}}},
		{"CR line ends", "data: 1\r\rdata: 2\r\r", []rawEvent{{Type: "message", Data: "1"}, {Type: "message", Data: "2"}}},
		{"comments are skipped", ": keep-alive\ndata: x\n: more\n\n", []rawEvent{{Type: "message", Data: "x"}}},
		{"an empty data field dispatches empty data", "data\n\ndata:\n\n", []rawEvent{{Type: "message"}, {Type: "message"}}},
		{"no data, no event; its type is reset", "event: lost\n\ndata: x\n\n", []rawEvent{{Type: "message", Data: "x"}}},
		{"the last event ID persists", "id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n",
			[]rawEvent{{Type: "message", ID: "1", Data: "a"}, {Type: "message", ID: "1", Data: "b"}, {Type: "message", Data: "c"}}},
		{"an id with NUL is ignored", "id: 7\ndata: a\n\nid: 8\x009\ndata: b\n\n",
			[]rawEvent{{Type: "message", ID: "7", Data: "a"}, {Type: "message", ID: "7", Data: "b"}}},
		{"retry in milliseconds, others ignored", "retry: 1500\ndata: a\n\nretry: 2s\ndata: b\n\n",
			[]rawEvent{{Type: "message", Data: "a", Retry: 1500 * time.Millisecond}, {Type: "message", Data: "b", Retry: 1500 * time.Millisecond}}},
		{"unknown fields are ignored", "foo: bar\ndata: x\n\n", []rawEvent{{Type: "message", Data: "x"}}},
		{"a leading byte order mark is dropped", "\xef\xbb\xbfdata: x\n\n", []rawEvent{{Type: "message", Data: "x"}}},
		{"an unfinished event is discarded", "data: a\n\ndata: b\n", []rawEvent{{Type: "message", Data: "a"}}},
		{"JSON data", `data: {"n":1}` + "\n\n", []rawEvent{{Type: "message", Data: `{"n":1}`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readEvents(t, strings.NewReader(tt.in), 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events of %q (-want +got):\n%s", tt.in, diff)
			}
			// The same byte by byte: line ends split across reads.
			got, err = readEvents(t, &oneByteReader{r: strings.NewReader(tt.in)}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events of %q read byte by byte (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// oneByteReader returns one byte per Read.
type oneByteReader struct{ r io.Reader }

func (o *oneByteReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return o.r.Read(p[:1])
}

func TestEventReaderLimit(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"a long line", "data: " + strings.Repeat("x", 100) + "\n\n"},
		{"long data over several lines", strings.Repeat("data: xxxxxxxxxx\n", 10) + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readEvents(t, strings.NewReader(tt.in), 64)
			if !errors.Is(err, ErrItemTooLarge) {
				t.Errorf("error = %v, want ErrItemTooLarge", err)
			}
		})
	}
}

// TestEventReaderReturnsWithoutReadingAhead: an event is returned once its
// empty line is read, without waiting for more of the body.
func TestEventReaderReturnsWithoutReadingAhead(t *testing.T) {
	for _, end := range []string{"\n\n", "\r\n\r\n", "\r\r"} {
		t.Run(fmt.Sprintf("%q", end), func(t *testing.T) {
			pr, pw := io.Pipe()
			defer pr.Close()
			go pw.Write([]byte("data: first" + end))
			er := newEventReader(pr, 0)
			got := make(chan string, 1)
			go func() {
				ev, err := er.Next()
				got <- fmt.Sprintf("%s %v", ev.Data, err)
			}()
			select {
			case s := <-got:
				if s != "first <nil>" {
					t.Errorf("Next = %s, want first <nil>", s)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Next waited for more of the body")
			}
		})
	}
}

func TestJSONLinesReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"LF", "{\"a\":1}\n{\"a\":2}\n", []string{`{"a":1}`, `{"a":2}`}},
		{"CRLF", "1\r\n2\r\n", []string{"1", "2"}},
		{"last line without end", "1\n2", []string{"1", "2"}},
		{"blank lines skipped", "\n1\n \n\n2\n", []string{"1", "2"}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lr := newJSONLinesReader(&oneByteReader{r: strings.NewReader(tt.in)}, 0)
			var got []string
			for {
				b, err := lr.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, string(b))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lines of %q (-want +got):\n%s", tt.in, diff)
			}
		})
	}
	if _, err := newJSONLinesReader(strings.NewReader(strings.Repeat("x", 100)+"\n"), 64).Next(); !errors.Is(err, ErrItemTooLarge) {
		t.Errorf("a 100-byte line with limit 64: error = %v, want ErrItemTooLarge", err)
	}
}

func TestJSONSeqReader(t *testing.T) {
	const rs = "\x1e"
	tests := []struct {
		name string
		in   string
		want []string // "ERR" for ErrTruncatedRecord
	}{
		{"records", rs + `{"a":1}` + "\n" + rs + "[2]\n", []string{`{"a":1}`, "[2]"}},
		{"a record over several lines", rs + "{\n  \"a\": 1\n}\n" + rs + "2\n", []string{"{\n  \"a\": 1\n}", "2"}},
		{"top-level number, true, null", rs + "12\n" + rs + "true\n" + rs + "null\n", []string{"12", "true", "null"}},
		{"truncated before the next separator", rs + `{"a":` + rs + "3\n", []string{"ERR", "3"}},
		{"truncated number at the end", rs + "1\n" + rs + "23", []string{"1", "ERR"}},
		{"truncated object at the end", rs + `{"a":1`, []string{"ERR"}},
		{"empty records skipped", rs + rs + "\n" + rs + "4\n", []string{"4"}},
		{"text before the first separator", "5\n" + rs + "6\n", []string{"5", "6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tt.in), &oneByteReader{r: strings.NewReader(tt.in)}} {
				sr := newJSONSeqReader(r, 0)
				var got []string
				for range 10 {
					b, err := sr.Next()
					if err == io.EOF {
						break
					}
					if errors.Is(err, ErrTruncatedRecord) {
						got = append(got, "ERR")
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, string(b))
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("records of %q (-want +got):\n%s", tt.in, diff)
				}
			}
		})
	}
	if _, err := newJSONSeqReader(bytes.NewReader(append([]byte(rs), bytes.Repeat([]byte("1"), 100)...)), 64).Next(); !errors.Is(err, ErrItemTooLarge) {
		t.Errorf("a 100-byte record with limit 64: error = %v, want ErrItemTooLarge", err)
	}
}
