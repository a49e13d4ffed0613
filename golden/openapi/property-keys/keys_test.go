package propertykeys

import (
	"context"
	"encoding/json"
	"github.com/resilientgo/resilient/runtime/codec"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestPropertiesNoTagCanName: the client sends the properties whose names
// no struct tag can spell under their exact names, the required one
// always, the optional ones when set, and reads them back from the answer.
func TestPropertiesNoTagCanName(t *testing.T) {
	var sent map[string]json.RawMessage
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("reading the body: %v", err)
		}
		sent = nil
		if err := json.Unmarshal(body, &sent); err != nil {
			t.Errorf("the body %s is not a JSON object: %v", body, err)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"name":"n2","a,string":"stored","say \"hi\"":7,"":true,"x,y":null}`)
	}))
	defer srv.Close()
	c, err := NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}

	hi := 3
	got, err := c.PutSettings(context.Background(), Settings{Name: "n", AString: "v", SayHi: &hi, XY: codec.NewNullable("xy")})
	if err != nil {
		t.Fatalf("PutSettings: %v", err)
	}
	want := map[string]string{"name": `"n"`, "a,string": `"v"`, `say "hi"`: `3`, "x,y": `"xy"`}
	if len(sent) != len(want) {
		t.Errorf("sent %d members, want %d: %v", len(sent), len(want), sent)
	}
	for k, v := range want {
		if string(sent[k]) != v {
			t.Errorf("sent %q = %s, want %s", k, sent[k], v)
		}
	}
	if got.Name != "n2" || got.AString != "stored" || got.SayHi == nil || *got.SayHi != 7 || got.Field3 == nil || !*got.Field3 || !got.XY.IsNull() {
		t.Errorf("read %+v", got)
	}

	// The required property is sent when empty too; the optional ones are
	// not sent when unset.
	if _, err := c.PutSettings(context.Background(), Settings{}); err != nil {
		t.Fatalf("PutSettings: %v", err)
	}
	if len(sent) != 2 || string(sent["a,string"]) != `""` || string(sent["name"]) != `""` {
		t.Errorf("sent %v, want only name and a,string, empty", sent)
	}
}
