// Package auth is the golden case auth of oapi-resilient: the client sends
// the credential of every kind of security scheme (HTTP bearer and basic,
// API keys in a header, the query and a cookie, OAuth 2.0 and OpenID
// Connect through an oauth2.TokenSource) on the operations that require
// it, from each operation's security requirement: the document's default,
// security: [] for none, alternatives and schemes sent together, and an
// optional one. Every credential is read afresh for each attempt; none
// follows a redirect to another origin; a missing one is the caller's
// error with nothing sent; a cached fallback answers only the credential
// it was stored for. The servers give a constant, and a function whose
// variables are checked against their enum.
//
// openapi.yaml is the input; client.gen.go and review.md are the expected
// output, compared byte for byte by go test ./golden and rewritten by go
// test ./golden -update. auth_test.go runs the expected client against an
// httptest server.
package auth
