package codec

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"

	"github.com/resilientgo/resilient/runtime/internal/httptext"
)

// BearerToken returns the runtime.RequestEditor of an HTTP bearer credential:
// "Authorization: Bearer <token>", the token from token for every
// attempt. An empty token is an error: a request is never sent with an
// empty credential.
func BearerToken(token func(context.Context) (string, error)) func(context.Context, *http.Request) error {
	return AuthorizationHeader(func(ctx context.Context) (string, error) {
		t, err := token(ctx)
		if err != nil || t == "" {
			return "", orEmpty(err, "the bearer token is empty")
		}
		return "Bearer " + t, nil
	})
}

// AuthorizationHeader returns the runtime.RequestEditor that sets the
// Authorization header to what value returns for every attempt, for
// schemes that give the whole value ("Bearer ...", "DPoP ...", the type
// and access token of an OAuth 2.0 token).
func AuthorizationHeader(value func(context.Context) (string, error)) func(context.Context, *http.Request) error {
	return func(ctx context.Context, req *http.Request) error {
		v, err := value(ctx)
		if err != nil || v == "" {
			return orEmpty(err, "the Authorization value is empty")
		}
		req.Header.Set("Authorization", v)
		return nil
	}
}

// BasicAuth returns the runtime.RequestEditor of an HTTP basic credential
// (RFC 7617), user and password from userPass for every attempt. An
// empty user is an error.
func BasicAuth(userPass func(context.Context) (user, pass string, err error)) func(context.Context, *http.Request) error {
	return func(ctx context.Context, req *http.Request) error {
		u, p, err := userPass(ctx)
		if err != nil || u == "" {
			return orEmpty(err, "the basic auth user is empty")
		}
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(u+":"+p)))
		return nil
	}
}

// APIKeyHeader returns the runtime.RequestEditor of an API key sent in the
// header name, the key from key for every attempt. An empty key is an
// error.
func APIKeyHeader(name string, key func(context.Context) (string, error)) func(context.Context, *http.Request) error {
	return func(ctx context.Context, req *http.Request) error {
		k, err := key(ctx)
		if err != nil || k == "" {
			return orEmpty(err, "the API key is empty")
		}
		req.Header.Set(name, k)
		return nil
	}
}

// APIKeyQuery returns the runtime.RequestEditor of an API key sent in the query
// parameter name (replacing any value the request has), the key from key
// for every attempt. An empty key is an error.
func APIKeyQuery(name string, key func(context.Context) (string, error)) func(context.Context, *http.Request) error {
	return func(ctx context.Context, req *http.Request) error {
		k, err := key(ctx)
		if err != nil || k == "" {
			return orEmpty(err, "the API key is empty")
		}
		q := req.URL.Query()
		q.Set(name, k)
		req.URL.RawQuery = q.Encode()
		return nil
	}
}

// APIKeyCookie returns the runtime.RequestEditor of an API key sent in the
// cookie name, the key from key for every attempt. An empty key, or one
// a cookie cannot carry, is an error (see [AddCookie]).
func APIKeyCookie(name string, key func(context.Context) (string, error)) func(context.Context, *http.Request) error {
	return func(ctx context.Context, req *http.Request) error {
		k, err := key(ctx)
		if err != nil || k == "" {
			return orEmpty(err, "the API key is empty")
		}
		if err := AddCookie(req, name, k); err != nil {
			// The message of AddCookie names the bytes of the value, not
			// the value; still, say only what is wrong.
			return errors.New("the API key cannot be sent in cookie " + httptext.Printable(name) + ": it has a byte a cookie cannot carry")
		}
		return nil
	}
}

// orEmpty returns err, or an error saying what for a nil err.
func orEmpty(err error, what string) error {
	if err != nil {
		return err
	}
	return errors.New(what)
}
