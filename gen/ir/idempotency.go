package ir

import "strings"

// Idempotency classifies an operation by the guarantees its method gives
// (RFC 9110 section 9.2).
type Idempotency int

// Idempotency values. The zero value is NotIdempotent, the safe default.
const (
	// NotIdempotent operations (POST, PATCH, CONNECT, unknown methods) must
	// not be retried without an idempotency key.
	NotIdempotent Idempotency = iota
	// Idempotent operations (PUT, DELETE) may be repeated with the same
	// effect.
	Idempotent
	// ReadOnly operations (GET, HEAD, OPTIONS, TRACE) are safe and
	// idempotent; only they may be hedged or served from a fallback.
	ReadOnly
)

// MethodIdempotency returns the RFC 9110 default for an HTTP method,
// matched case-insensitively.
func MethodIdempotency(method string) Idempotency {
	switch strings.ToUpper(method) {
	case "GET", "HEAD", "OPTIONS", "TRACE":
		return ReadOnly
	case "PUT", "DELETE":
		return Idempotent
	}
	return NotIdempotent
}

// IsIdempotent reports whether repeating the operation is harmless.
func (i Idempotency) IsIdempotent() bool { return i == Idempotent || i == ReadOnly }

// String returns "read-only", "idempotent" or "not idempotent".
func (i Idempotency) String() string {
	switch i {
	case ReadOnly:
		return "read-only"
	case Idempotent:
		return "idempotent"
	}
	return "not idempotent"
}
