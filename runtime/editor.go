package runtime

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/resilientgo/resilient/runtime/internal/httptext"
)

// RequestEditor edits the request of one attempt just before it is sent:
// it adds a credential, a signature or a header the spec does not
// describe. It gets the attempt's context and a request of its own (a
// copy of the call's header and URL), so it may set, add or delete
// header fields, cookies and query parameters freely; it must not keep
// the request. It runs on every attempt, retries and hedges included, so
// a value it reads (a token) is read afresh each time.
//
// An error ends the call at once as the caller's: nothing of that
// attempt is sent, and the call's [*CallError] ends with
// [EndInvalidRequest], its cause an [*InvalidRequestError] that wraps the
// editor's error (errors.As finds it). It is neither retried, nor counted
// by the breaker or the retry budget, nor answered by a fallback.
type RequestEditor func(ctx context.Context, req *http.Request) error

// WithRequestEditor runs e on every attempt of the calls made with the
// option, after the operation's credentials ([WithCredentials]) and the
// client's editors ([HTTPClient.RequestEditors]), in the order the
// options are given. A nil e does nothing. It applies to the calls of
// [DoHTTP], [DoHTTPStream] and the route transport; the gRPC glue ignores
// it.
//
// Editors are not part of the request key of a cached fallback (see
// [DoHTTP]): an editor that adds who the caller is should come with
// [WithFallbackPartition], or be a credential.
func WithRequestEditor(e RequestEditor) CallOption {
	return callOptionFunc(func(o *Operation) {
		if e != nil {
			o.editors = append(o.editors[:len(o.editors):len(o.editors)], e)
		}
	})
}

// Credential is one credential named by an operation's security
// requirement.
type Credential struct {
	// Scheme is the name of the security scheme, as the spec writes it
	// ("bearerAuth"); errors name it, never the credential.
	Scheme string
	// Option names what gives the client the credential, such as a
	// generated client's option "WithBearerToken"; a missing credential's
	// error tells the caller to use it. Empty when there is none to name.
	Option string
	// Apply adds the credential to an attempt's request (see the helpers
	// codec.BearerToken, codec.BasicAuth, codec.APIKeyHeader, codec.APIKeyQuery,
	// codec.APIKeyCookie, codec.AuthorizationHeader); nil when the client was
	// given none for the scheme.
	Apply RequestEditor
}

// WithCredentials makes the calls made with the option carry the
// credentials of a security requirement, given as its alternatives: each
// alternative is a set of credentials sent together, and the first
// alternative whose credentials all have an Apply is the one used. An
// empty alternative needs no credential (an optional requirement); no
// alternative at all, no credential (the option does nothing).
//
// The chosen credentials are applied to every attempt, before any
// [RequestEditor], so that a token is read afresh for each retry. When no
// alternative can be satisfied, every call fails before anything is sent
// with a [*CallError] ending with [EndInvalidRequest] whose cause, an
// [*InvalidRequestError], wraps a [*MissingCredentialError]. A credential
// whose Apply fails ends the call the same way, the failure wrapped in a
// [*CredentialError].
//
// For an operation that keeps a cached fallback not declared shared, the
// request key (see [DoHTTP]) is computed from the request with the
// chosen credentials applied once more before the call: a cached answer
// is served only to a call carrying the same credentials, kept as a
// digest, never in clear. Generated clients give this option to each
// secured operation once, in their constructor.
func WithCredentials(alternatives ...[]Credential) CallOption {
	return callOptionFunc(func(o *Operation) {
		o.credentials, o.missing = nil, nil
		if len(alternatives) == 0 {
			return
		}
	next:
		for _, alt := range alternatives {
			for _, c := range alt {
				if c.Apply == nil {
					continue next
				}
			}
			o.credentials = alt
			return
		}
		req := make([][]string, len(alternatives))
		var opts []string
		for i, alt := range alternatives {
			for _, c := range alt {
				req[i] = append(req[i], c.Scheme)
				if c.Apply == nil && c.Option != "" && !slices.Contains(opts, c.Option) {
					opts = append(opts, c.Option)
				}
			}
		}
		o.missing = &MissingCredentialError{Dependency: o.dep.name, Operation: o.name, Requirement: req, Options: opts}
	})
}

// MissingCredentialError reports a call of an operation whose security
// requirement no configured credential satisfies. Nothing was sent; it is
// the caller's to fix (give the client the credential), so it is never
// retried, never counted by the breaker or the retry budget, and never
// answered by a fallback. It comes as the cause of an
// [*InvalidRequestError]; errors.As finds it, and it matches
// [ErrMissingCredential].
type MissingCredentialError struct {
	Dependency string
	Operation  string
	// Requirement lists the alternatives of the operation's security
	// requirement, each the names of the schemes it needs together.
	Requirement [][]string
	// Options names what would give the client a missing credential
	// ([Credential.Option]), such as "WithBearerToken"; empty when unknown.
	Options []string
}

// Error names the schemes that would do.
func (e *MissingCredentialError) Error() string {
	var b strings.Builder
	b.WriteString("resilient: ")
	b.WriteString(e.Dependency + " " + e.Operation)
	b.WriteString(": no credential for its security requirement (")
	for i, alt := range e.Requirement {
		if i > 0 {
			b.WriteString(" or ")
		}
		for j, s := range alt {
			if j > 0 {
				b.WriteString(" and ")
			}
			b.WriteString(httptext.Printable(s))
		}
	}
	b.WriteString(")")
	if len(e.Options) == 0 {
		b.WriteString("; give the client one with its credential options")
		return b.String()
	}
	b.WriteString("; give the client one with ")
	for i, o := range e.Options {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString(httptext.Printable(o))
	}
	return b.String()
}

// Is reports whether target is [ErrMissingCredential].
func (e *MissingCredentialError) Is(target error) bool { return target == ErrMissingCredential }

// CredentialError reports a credential that could not be had for an
// attempt: its function failed (a token source could not refresh, a
// secret store did not answer). It comes as the cause of an
// [*InvalidRequestError]; Unwrap gives the function's error.
type CredentialError struct {
	// Scheme is the security scheme's name.
	Scheme string
	// Err is the failure.
	Err error
}

// Error names the scheme and the failure, never the credential.
func (e *CredentialError) Error() string {
	return "resilient: credential " + httptext.Printable(e.Scheme) + ": " + e.Err.Error()
}

// Unwrap returns the failure.
func (e *CredentialError) Unwrap() error { return e.Err }

// editing reports whether attempts of op sent with c run request editors.
func editing(op *Operation, c *HTTPClient) bool {
	return len(op.credentials) > 0 || len(op.editors) > 0 || (c != nil && len(c.RequestEditors) > 0)
}

// edit runs on r, the request of one attempt of op sent with c, the
// credentials, then c's editors, then the call's. The error is the
// attempt's: an [*InvalidRequestError] wrapping a [*CredentialError] or
// the editor's error.
func edit(ctx context.Context, op *Operation, c *HTTPClient, r *http.Request) error {
	for _, cr := range op.credentials {
		if err := cr.Apply(ctx, r); err != nil {
			return &InvalidRequestError{Dependency: op.dep.name, Operation: op.name, Err: &CredentialError{Scheme: cr.Scheme, Err: err}}
		}
	}
	if c != nil {
		for _, e := range c.RequestEditors {
			if err := e(ctx, r); err != nil {
				return &InvalidRequestError{Dependency: op.dep.name, Operation: op.name, Err: editorError{err}}
			}
		}
	}
	for _, e := range op.editors {
		if err := e(ctx, r); err != nil {
			return &InvalidRequestError{Dependency: op.dep.name, Operation: op.name, Err: editorError{err}}
		}
	}
	return nil
}

// editedQueryKey is the context key of the names of the query parameters
// an attempt's editors added or changed.
type editedQueryKey struct{}

// EditedQueryNames returns the names of the query parameters that the
// credentials and request editors of an attempt added to its request or
// changed, given the context of that request (as a transport sees it): an
// API key sent in the query (codec.APIKeyQuery), a signature. Whatever records
// the request's URL (a trace, a log) should leave out their values; the
// runtime's own errors already do. Nil when the editors changed no query
// parameter.
func EditedQueryNames(ctx context.Context) []string {
	names, _ := ctx.Value(editedQueryKey{}).([]string)
	return names
}

// markEditedQuery returns r with the names of the query parameters its
// editors added or changed, against orig, the caller's query, in its
// context ([EditedQueryNames]); r itself when they changed none.
func markEditedQuery(r *http.Request, orig string) *http.Request {
	if r.URL == nil || r.URL.RawQuery == orig {
		return r
	}
	before, _ := url.ParseQuery(orig)
	after, _ := url.ParseQuery(r.URL.RawQuery)
	var names []string
	for name, values := range after {
		if !slices.Equal(before[name], values) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return r
	}
	slices.Sort(names)
	return r.WithContext(context.WithValue(r.Context(), editedQueryKey{}, names))
}

// editorError is the failure of a request editor.
type editorError struct{ err error }

func (e editorError) Error() string { return "request editor: " + e.err.Error() }
func (e editorError) Unwrap() error { return e.err }

// hideEditedURL puts the caller's URL, redacted, in place of the URL of a
// transport error (a [*url.Error], which net/http's client returns),
// which is the URL the editors made: it may carry a credential in its
// query (an API key).
func hideEditedURL(err error, orig *url.URL) {
	var ue *url.Error
	if errors.As(err, &ue) && orig != nil {
		ue.URL = orig.Redacted()
	}
}

// ownURL gives r, a copy of a request, a copy of its URL, which editors
// may change.
func ownURL(r *http.Request) {
	if r.URL != nil {
		u := *r.URL
		r.URL = &u
	}
}

// credentialKeyRequest returns req with the credentials of op applied
// once, on a copy, for the request key of a cached fallback; req itself
// when op has none.
func credentialKeyRequest(ctx context.Context, op *Operation, req *http.Request) (*http.Request, error) {
	if len(op.credentials) == 0 {
		return req, nil
	}
	r := req.WithContext(ctx)
	r.Header = cloneHeader(req.Header)
	ownURL(r)
	for _, cr := range op.credentials {
		if err := cr.Apply(ctx, r); err != nil {
			return nil, &CredentialError{Scheme: cr.Scheme, Err: err}
		}
	}
	return r, nil
}
