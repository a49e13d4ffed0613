package stream

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// FuzzEventReader: any body gives events or an error, never a panic, and
// the same events whether it arrives whole or byte by byte.
func FuzzEventReader(f *testing.F) {
	for _, s := range []string{"data: a\n\n", "event: x\r\ndata: 1\r\n\r\n", "data: 1\r\r", ": c\nid: 7\nretry: 10\ndata\n\n", "\xef\xbb\xbfdata: x\n\n", "data: a\ndata: b\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		whole, errWhole := collectEvents(newEventReader(bytes.NewReader(body), 1<<16))
		split, errSplit := collectEvents(newEventReader(&oneByteReader{r: bytes.NewReader(body)}, 1<<16))
		if (errWhole == nil) != (errSplit == nil) || len(whole) != len(split) {
			t.Fatalf("whole: %d events, %v; byte by byte: %d, %v", len(whole), errWhole, len(split), errSplit)
		}
		for i := range whole {
			if whole[i] != split[i] {
				t.Fatalf("event %d: %q whole, %q byte by byte", i, whole[i], split[i])
			}
		}
	})
}

func collectEvents(r *eventReader) ([]string, error) {
	var out []string
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, ev.Type+"\x00"+ev.ID+"\x00"+string(ev.Data))
	}
}

// FuzzJSONSeqReader: records are valid JSON or an error, never a panic.
func FuzzJSONSeqReader(f *testing.F) {
	for _, s := range []string{"\x1e{}\n", "\x1e1\n\x1e2", "\x1e{\n}\n\x1e[", "x\n\x1e\x1e\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r := newJSONSeqReader(bytes.NewReader(body), 1<<16)
		for range len(body) + 2 {
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			if err == nil && !json.Valid(rec) {
				t.Fatalf("record %q is not valid JSON", rec)
			}
		}
	})
}
