package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/resilientgo/resilient/runtime/codec"
	"github.com/resilientgo/resilient/runtime/fallbackstore"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// seen records what the server got, one line per request.
type seen struct {
	mu    sync.Mutex
	lines []string
}

func (s *seen) add(line string) {
	s.mu.Lock()
	s.lines = append(s.lines, line)
	s.mu.Unlock()
}

func (s *seen) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

// counted returns a token function that gives "tok-1", "tok-2"... one a
// call, counting them.
func counted(n *atomic.Int64) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		return fmt.Sprintf("tok-%d", n.Add(1)), nil
	}
}

// TestDoHTTPCredentialsOnEveryAttempt: the chosen credentials are read
// afresh and applied to every attempt, then the client's editors, then
// the call's; the caller's request is left as it was.
func TestDoHTTPCredentialsOnEveryAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got seen
		s := &scripted{statuses: []int{503, 503, 200}}
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c, _ := r.Cookie("sid")
			var sid string
			if c != nil {
				sid = c.Value
			}
			got.add(strings.Join([]string{r.Header.Get("Authorization"), r.URL.Query().Get("key"), sid, r.Header.Get("X-Client"), r.Header.Get("X-Call")}, " | "))
			s.ServeHTTP(w, r)
		}))
		var n atomic.Int64
		rig.client.RequestEditors = []RequestEditor{func(ctx context.Context, req *http.Request) error {
			req.Header.Add("X-Client", "c:"+req.Header.Get("Authorization"))
			return nil
		}}
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly}).With(
			WithCredentials(
				[]Credential{{Scheme: "oauth", Apply: nil}},
				[]Credential{{Scheme: "bearer", Apply: codec.BearerToken(counted(&n))}, {Scheme: "key", Apply: codec.APIKeyQuery("key", counted(&n))}, {Scheme: "sid", Apply: codec.APIKeyCookie("sid", counted(&n))}},
			),
			WithRequestEditor(func(ctx context.Context, req *http.Request) error {
				req.Header.Add("X-Call", "after "+req.Header.Get("X-Client"))
				return nil
			}),
		)
		req := rig.get(t, "/pets?kind=cat")
		if _, err := DoHTTP(t.Context(), op, rig.client, req, decodePet, nil); err != nil {
			t.Fatal(err)
		}
		want := []string{
			"Bearer tok-1 | tok-2 | tok-3 | c:Bearer tok-1 | after c:Bearer tok-1",
			"Bearer tok-4 | tok-5 | tok-6 | c:Bearer tok-4 | after c:Bearer tok-4",
			"Bearer tok-7 | tok-8 | tok-9 | c:Bearer tok-7 | after c:Bearer tok-7",
		}
		if g := got.all(); strings.Join(g, "\n") != strings.Join(want, "\n") {
			t.Errorf("server saw\n%s\nwant\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
		}
		if len(req.Header) != 0 || req.URL.RawQuery != "kind=cat" {
			t.Errorf("the caller's request was changed: header %v, query %q", req.Header, req.URL.RawQuery)
		}
	})
}

// TestDoHTTPMissingCredential: with no alternative of the requirement
// configured, the call fails at once as the caller's error: nothing sent,
// no breaker count, no budget, no fallback.
func TestDoHTTPMissingCredential(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &scripted{statuses: []int{200}}
		rig := newHTTPRig(t, s)
		d := testDependency(t)
		op := testOperation(t, d, OperationPolicy{Name: "GetMe", Idempotency: ReadOnly,
			Fallback: FallbackPolicy{Kind: FallbackStatic, Static: testPet{ID: 99}}}).With(WithCredentials(
			[]Credential{{Scheme: "bearerAuth", Option: "WithBearerToken"}},
			[]Credential{{Scheme: "api_key", Option: "WithAPIKey"}, {Scheme: "app_id", Option: "WithAPIKeyAppID", Apply: codec.APIKeyHeader("X-App", counted(new(atomic.Int64)))}},
		))
		v, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/me"), decodePet, nil)
		var mc *MissingCredentialError
		var ce *CallError
		switch {
		case !errors.As(err, &mc), !errors.As(err, &ce):
			t.Fatalf("err = %v, want a *CallError wrapping a *MissingCredentialError", err)
		case ce.End != EndInvalidRequest || !ce.NotSent || ce.Attempts != 0:
			t.Errorf("end %v, not sent %v, attempts %d; want invalid request, not sent, 0", ce.End, ce.NotSent, ce.Attempts)
		case !errors.Is(err, ErrMissingCredential) || !errors.Is(err, ErrInvalidRequest) || IsDegraded(err) || v != (testPet{}):
			t.Errorf("err = %v, v = %v; want ErrMissingCredential and ErrInvalidRequest, no fallback", err, v)
		}
		// The call is named once, and the options that would satisfy the
		// requirement are named (not the one already given).
		const msg = "resilient: pets GetMe: invalid request, not sent: no credential for its security requirement (bearerAuth or api_key and app_id); give the client one with WithBearerToken or WithAPIKey"
		if err.Error() != msg {
			t.Errorf("error %q, want %q", err, msg)
		}
		if n := s.n.Load(); n != 0 {
			t.Errorf("server got %d requests, want 0", n)
		}
		if c := d.BreakerCounts(); c.Requests != 0 {
			t.Errorf("breaker counted %d requests, want 0", c.Requests)
		}
	})
}

// TestWithCredentialsChoice: the first alternative whose credentials are
// all configured is the one sent; an empty one sends none.
func TestWithCredentialsChoice(t *testing.T) {
	key := func(name string) RequestEditor {
		return codec.APIKeyHeader(name, func(context.Context) (string, error) { return "v", nil })
	}
	tests := []struct {
		name string
		alts [][]Credential
		want string // the headers sent, or "missing"
	}{
		{"none", nil, ""},
		{"first", [][]Credential{{{Scheme: "a", Apply: key("A")}}, {{Scheme: "b", Apply: key("B")}}}, "A"},
		{"second, first incomplete", [][]Credential{{{Scheme: "a", Apply: key("A")}, {Scheme: "c"}}, {{Scheme: "b", Apply: key("B")}}}, "B"},
		{"both of an AND", [][]Credential{{{Scheme: "a", Apply: key("A")}, {Scheme: "b", Apply: key("B")}}}, "A B"},
		{"optional", [][]Credential{{{Scheme: "a"}}, {}}, ""},
		{"missing", [][]Credential{{{Scheme: "a"}}, {{Scheme: "b"}}}, "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var got seen
				rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					var h []string
					for _, n := range []string{"A", "B"} {
						if r.Header.Get(n) != "" {
							h = append(h, n)
						}
					}
					got.add(strings.Join(h, " "))
					json.NewEncoder(w).Encode(testPet{})
				}))
				op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly}).With(WithCredentials(tt.alts...))
				_, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/"), decodePet, nil)
				if tt.want == "missing" {
					if !errors.Is(err, ErrMissingCredential) || len(got.all()) != 0 {
						t.Errorf("err = %v, sent %q; want a missing credential, nothing sent", err, got.all())
					}
					return
				}
				if err != nil || len(got.all()) != 1 || got.all()[0] != tt.want {
					t.Errorf("err = %v, sent %q; want %q", err, got.all(), tt.want)
				}
			})
		})
	}
}

// TestDoHTTPEditorFailureIsCallersError: a credential or editor that
// fails on a retry ends the call as an invalid request: no further
// attempt, no fallback, nothing of the credential in the message.
func TestDoHTTPEditorFailureIsCallersError(t *testing.T) {
	boom := errors.New("token endpoint unreachable")
	tests := []struct {
		name string
		opt  func(fail func() bool) CallOption
		want func(error) bool
	}{
		{"credential", func(fail func() bool) CallOption {
			return WithCredentials([]Credential{{Scheme: "bearerAuth", Apply: codec.BearerToken(func(context.Context) (string, error) {
				if fail() {
					return "", boom
				}
				return "secret-token", nil
			})}})
		}, func(err error) bool {
			var ce *CredentialError
			return errors.As(err, &ce) && ce.Scheme == "bearerAuth"
		}},
		{"editor", func(fail func() bool) CallOption {
			return WithRequestEditor(func(context.Context, *http.Request) error {
				if fail() {
					return boom
				}
				return nil
			})
		}, func(err error) bool {
			return strings.Contains(err.Error(), "request editor: token endpoint unreachable")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := &scripted{statuses: []int{502}}
				rig := newHTTPRig(t, s)
				d := testDependency(t)
				var calls atomic.Int64
				op := testOperation(t, d, OperationPolicy{Idempotency: ReadOnly,
					Fallback: FallbackPolicy{Kind: FallbackStatic, Static: testPet{ID: 99}}}).With(tt.opt(func() bool { return calls.Add(1) > 1 }))
				_, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/"), decodePet, nil)
				var ce *CallError
				if !errors.As(err, &ce) || ce.End != EndInvalidRequest || !errors.Is(err, boom) || !tt.want(err) || IsDegraded(err) {
					t.Fatalf("err = %v, want an invalid request wrapping the failure, no fallback", err)
				}
				if strings.Contains(err.Error(), "secret-token") {
					t.Errorf("error %q shows the credential", err)
				}
				if n := s.n.Load(); n != 1 {
					t.Errorf("server got %d requests, want 1: the failing attempt sends nothing", n)
				}
				if c := d.BreakerCounts(); c.Failures != 1 {
					t.Errorf("breaker counted %d failures, want 1 (the 502 only)", c.Failures)
				}
			})
		})
	}
}

type userKey struct{}

// TestDoHTTPCachedFallbackByCredential: on an operation whose credentials
// the client applies, a cached answer is served only to a call carrying
// the same credential, and the store keys hold no credential.
func TestDoHTTPCachedFallbackByCredential(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var down atomic.Bool
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if down.Load() {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			json.NewEncoder(w).Encode(testPet{ID: 1, Name: "for " + r.Header.Get("Authorization")})
		}))
		store := &recordingStore{Memory: fallbackstore.NewMemory(16)}
		d, err := NewDependency("pets", DependencyPolicy{}, WithFallbackStore(store))
		if err != nil {
			t.Fatal(err)
		}
		op := testOperation(t, d, OperationPolicy{Name: "GetMe", Idempotency: ReadOnly, Retry: RetryPolicy{Disabled: true},
			Fallback: FallbackPolicy{Kind: FallbackCached}}).With(WithCredentials([]Credential{{Scheme: "bearerAuth",
			Apply: codec.BearerToken(func(ctx context.Context) (string, error) { return ctx.Value(userKey{}).(string) + "-token", nil })}}))
		call := func(user string) (testPet, error) {
			ctx := context.WithValue(t.Context(), userKey{}, user)
			return DoHTTP(ctx, op, rig.client, rig.get(t, "/me"), decodePet, nil)
		}
		alice, err := call("alice")
		if err != nil || alice.Name != "for Bearer alice-token" {
			t.Fatalf("alice: %v, %v", alice, err)
		}
		down.Store(true)
		if v, err := call("bob"); IsDegraded(err) || v != (testPet{}) {
			t.Errorf("bob during the outage: %v, %v; alice's cached answer was served", v, err)
		}
		if v, err := call("alice"); !IsDegraded(err) || v != alice {
			t.Errorf("alice during the outage: %v, %v; want her cached answer, degraded", v, err)
		}
		for _, k := range store.keys {
			if strings.Contains(k, "token") || strings.Contains(k, "alice") {
				t.Errorf("store key %q holds the credential", k)
			}
		}
	})
}

// TestDoHTTPCredentialNotSentAcrossOrigins: with the default redirect
// policy, a redirect to another origin is not followed, so no credential
// reaches it.
func TestDoHTTPCredentialNotSentAcrossOrigins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var other atomic.Int64
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Host == "other.test" {
				other.Add(1)
				json.NewEncoder(w).Encode(testPet{})
				return
			}
			http.Redirect(w, r, "http://other.test/me", http.StatusFound)
		}))
		rig.bodies.next = NewHTTPClient(rig.tr)
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly}).With(WithCredentials(
			[]Credential{{Scheme: "bearerAuth", Apply: codec.BearerToken(func(context.Context) (string, error) { return "secret", nil })},
				{Scheme: "key", Apply: codec.APIKeyHeader("X-Api-Key", func(context.Context) (string, error) { return "secret", nil })}}))
		_, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/me"), decodePet, nil)
		var re *RemoteError
		if !errors.As(err, &re) || re.Status != http.StatusFound {
			t.Errorf("err = %v, want the 302 as a *RemoteError", err)
		}
		if n := other.Load(); n != 0 {
			t.Errorf("the other origin got %d requests, want 0", n)
		}
	})
}

// TestDoHTTPQueryCredentialNotInErrors: a transport error names the URL
// of the request; it is the caller's, not the one with an API key in its
// query.
func TestDoHTTPQueryCredentialNotInErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newHTTPRig(t, &scripted{statuses: []int{200}})
		rig.bodies.next = doerFunc(func(r *http.Request) (*http.Response, error) {
			return nil, &url.Error{Op: "Get", URL: r.URL.String(), Err: errors.New("connection refused")}
		})
		op := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly}).With(WithCredentials(
			[]Credential{{Scheme: "key", Apply: codec.APIKeyQuery("api_key", func(context.Context) (string, error) { return "secret-key", nil })}}))
		_, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets?kind=cat"), decodePet, nil)
		if err == nil || strings.Contains(err.Error(), "secret-key") || !strings.Contains(err.Error(), "/pets?kind=cat") {
			t.Errorf("err = %v, want the caller's URL without the key", err)
		}
	})
}

// TestEditedQueryNames: the transport sees, in the request's context, the
// names of the query parameters the attempt's editors added or changed,
// sorted, for DoHTTP and DoHTTPStream; none when they touched only
// headers, or changed nothing.
func TestEditedQueryNames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var got [][]string
		rig := newHTTPRig(t, &scripted{statuses: []int{200, 200, 200, 200}})
		next := rig.bodies.next
		rig.bodies.next = doerFunc(func(r *http.Request) (*http.Response, error) {
			mu.Lock()
			got = append(got, EditedQueryNames(r.Context()))
			mu.Unlock()
			return next.Do(r)
		})
		key := func(context.Context) (string, error) { return "k", nil }
		signed := func(_ context.Context, r *http.Request) error {
			q := r.URL.Query()
			q.Set("sig", "abc")
			q.Set("kind", "cat") // the value the caller gave: not changed
			r.URL.RawQuery = q.Encode()
			return nil
		}
		dep := testDependency(t)
		query := testOperation(t, dep, OperationPolicy{Idempotency: ReadOnly}).With(
			WithCredentials([]Credential{{Scheme: "key", Apply: codec.APIKeyQuery("api_key", key)}}), WithRequestEditor(signed))
		header := testOperation(t, dep, OperationPolicy{Idempotency: ReadOnly}).With(
			WithCredentials([]Credential{{Scheme: "key", Apply: codec.APIKeyHeader("X-Key", key)}}))
		for _, op := range []*Operation{query, header} {
			if _, err := DoHTTP(t.Context(), op, rig.client, rig.get(t, "/pets?kind=cat"), decodePet, nil); err != nil {
				t.Fatal(err)
			}
			resp, err := DoHTTPStream(t.Context(), op, rig.client, rig.get(t, "/pets?kind=cat"), nil)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		want := [][]string{{"api_key", "sig"}, {"api_key", "sig"}, nil, nil}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("edited query names per request = %v, want %v", got, want)
		}
		if names := EditedQueryNames(t.Context()); names != nil {
			t.Errorf("a context no attempt made: %v", names)
		}
	})
}

// TestCredentialHelpers: what each helper puts on the request, and that an
// empty credential is refused.
func TestCredentialHelpers(t *testing.T) {
	val := func(v string) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return v, nil }
	}
	tests := []struct {
		name    string
		e       RequestEditor
		want    string
		wantErr string
	}{
		{"bearer", codec.BearerToken(val("t")), "Authorization: Bearer t", ""},
		{"bearer empty", codec.BearerToken(val("")), "", "the bearer token is empty"},
		{"basic", codec.BasicAuth(func(context.Context) (string, string, error) { return "aladdin", "opensesame", nil }), "Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l", ""},
		{"basic empty", codec.BasicAuth(func(context.Context) (string, string, error) { return "", "p", nil }), "", "the basic auth user is empty"},
		{"authorization", codec.AuthorizationHeader(val("DPoP x")), "Authorization: DPoP x", ""},
		{"header", codec.APIKeyHeader("X-Api-Key", val("k")), "X-Api-Key: k", ""},
		{"query", codec.APIKeyQuery("api_key", val("a b")), "?a=1&api_key=a+b", ""},
		{"cookie", codec.APIKeyCookie("sid", val("k")), "Cookie: sid=k", ""},
		{"cookie refused", codec.APIKeyCookie("sid", val("a;b")), "", "the API key cannot be sent in cookie sid: it has a byte a cookie cannot carry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, "http://dep.test/x?a=1", nil)
			err := tt.e(t.Context(), req)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := "?" + req.URL.RawQuery
			for k, v := range req.Header {
				got = k + ": " + v[0]
			}
			if got != tt.want {
				t.Errorf("request has %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDoHTTPStreamCredentials: a streamed call carries the credentials and
// the editors on every attempt too, and refuses a missing credential.
func TestDoHTTPStreamCredentials(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got seen
		s := &scripted{statuses: []int{503, 200}}
		rig := newHTTPRig(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got.add(r.Header.Get("Authorization") + " " + r.Header.Get("X-Call"))
			s.ServeHTTP(w, r)
		}))
		var n atomic.Int64
		base := testOperation(t, testDependency(t), OperationPolicy{Idempotency: ReadOnly})
		op := base.With(WithCredentials([]Credential{{Scheme: "bearer", Apply: codec.BearerToken(counted(&n))}}),
			WithRequestEditor(func(ctx context.Context, r *http.Request) error { r.Header.Set("X-Call", "1"); return nil }))
		resp, err := DoHTTPStream(t.Context(), op, rig.client, rig.get(t, "/ticks"), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if g, want := strings.Join(got.all(), "|"), "Bearer tok-1 1|Bearer tok-2 1"; g != want {
			t.Errorf("server saw %q, want %q", g, want)
		}
		_, err = DoHTTPStream(t.Context(), base.With(WithCredentials([]Credential{{Scheme: "bearer"}})), rig.client, rig.get(t, "/ticks"), nil)
		if !errors.Is(err, ErrMissingCredential) || len(got.all()) != 2 {
			t.Errorf("err = %v, want a missing credential with nothing sent", err)
		}
	})
}
