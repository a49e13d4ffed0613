package ir

// StreamKind says which sides of an RPC stream messages.
type StreamKind int

// Stream kinds. The zero value is Unary.
const (
	// Unary: one request, one response.
	Unary StreamKind = iota
	// ServerStreaming: one request, a stream of responses.
	ServerStreaming
	// ClientStreaming: a stream of requests, one response.
	ClientStreaming
	// BidiStreaming: streams both ways.
	BidiStreaming
)

// String returns "unary", "server-streaming", "client-streaming" or
// "bidi-streaming".
func (k StreamKind) String() string {
	switch k {
	case ServerStreaming:
		return "server-streaming"
	case ClientStreaming:
		return "client-streaming"
	case BidiStreaming:
		return "bidi-streaming"
	}
	return "unary"
}

// GoIdent is a Go identifier qualified by its import path, such as
// {"google.golang.org/grpc/examples/helloworld/helloworld", "HelloRequest"}.
type GoIdent struct {
	ImportPath string
	Name       string
}

// GoPackage is the Go package a service's code is generated into. Empty
// for front ends that let the back end choose (OpenAPI).
type GoPackage struct {
	// ImportPath is the package's import path.
	ImportPath string
	// Name is the package name.
	Name string
}

// RPC describes an operation that is a gRPC method. It is nil on
// operations of HTTP services.
type RPC struct {
	// FullMethod is the method's gRPC path, "/pkg.Service/Method".
	FullMethod string
	// Name is the method name as written in the .proto file.
	Name string
	// Kind is the method's streaming kind.
	Kind StreamKind
	// Input and Output are the Go types of the request and response
	// messages.
	Input, Output GoIdent
	// IdempotencyBasis is what the operation's Idempotency was taken
	// from, for the review: "idempotency_level", "from google.api.http
	// GET", "from AIP-131"; empty reads as "idempotency_level".
	IdempotencyBasis string
	// Leading is the method's leading comment, without comment markers;
	// empty when there is none.
	Leading string
	// Deprecated reports the method's deprecated option.
	Deprecated bool
}

// IsStreaming reports whether either side streams.
func (r *RPC) IsStreaming() bool { return r.Kind != Unary }

// ClientStreams reports whether the client sends a stream of messages.
func (r *RPC) ClientStreams() bool { return r.Kind == ClientStreaming || r.Kind == BidiStreaming }
