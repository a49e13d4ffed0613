// Package golang emits Go source from the IR with jennifer: [EmitModels]
// writes the model types of an [ir.Service] (structs, enums, unions and
// named aliases) into a [jen.File] made by [NewFile], and [EmitClient]
// writes the service's resilient HTTP client into the same file.
//
// Emission is "compute, then emit": a small view of the service decides
// Go types, pointers, tags, names and policy literals first; then one
// emit function per construct writes it. Output is deterministic and
// gofmt-clean (jennifer formats it), and imports go through jen.Qual
// only; the runtime package is always imported as "runtime", its codec,
// route, stream and fallbackstore sub-packages under those names.
//
// # The generated client
//
// One Client per service, made by NewClient(baseURL, opts...) with the
// options WithHTTPClient, WithDoer, WithRequestEditor, one credential
// option per security scheme, WithPolicy, WithObserver, WithFallbackStore,
// WithLogger, WithTracer, WithFallbackPartition, WithMaxResponseBody,
// WithDeadlineHeader and WithDependencyName; one runtime.Dependency per
// client. When the policy declares a fleet, the client also has
// WithFleet, which takes a go-redis UniversalClient and gives the
// dependency a runtime/redisfleet store; only then does it import
// anything of Redis, and its policy literal carries the fleet's store and
// key prefix. The options follow one design in both back ends
// ([OptionSet], [StandardOptions], [FleetOption]), and so does the policy
// table ([EmitPolicyTable]).
// Errors the generated code makes itself start with the package's name
// ([ClientOptions.Package]).
// The policy table is the Policy struct (Dependency plus one
// runtime.OperationPolicy per operation) and DefaultPolicy, a literal a
// reviewer can read in a diff. A static fallback value from the spec sits
// there as its JSON text (a json.RawMessage), which NewClient decodes into
// the operation's result type, failing with the operation's name when it
// does not fit (the generator has already checked it against the response
// schema: E-FALLBACK-VALUE); a value set with WithPolicy may also be of
// that type directly. An operation whose result is not JSON gets no
// static fallback (warning W-FALLBACK-STATIC). A constant refers to
// runtime.SupportPackageIsVersion1, so that code generated for a newer
// runtime fails to compile against an older one.
//
// Each operation becomes a method
//
//	func (c *Client) Op(ctx context.Context, <path params>, [params *OpParams], [body B], opts ...runtime.CallOption) ([R,] error)
//
// with the required path parameters in template order, an OpParams struct
// for query, header and cookie parameters (required ones as values,
// optional ones as pointers, slices and maps as they are; nil is not sent)
// and the request body: the model type for JSON; the struct of the schema
// for forms (encoded without reflection: primitives and arrays of them as
// the encoding object's style and explode say, nested objects, maps,
// arrays of objects and unions in deepObject brackets, "a[b][0][c]=v",
// through an encodeForm method per struct and codec.AddFormJSON) and for
// multipart bodies
// (a codec.Multipart, part by part, each part with its encoding's
// content type and the headers it declares, which the struct holds as
// string fields named after the property and the header, left out of
// JSON; binary properties are codec.File file parts);
// url.Values for a form whose schema is not an object, and io.Reader plus its
// content type, with a warning, for a multipart body whose schema is not
// an object; string for text; io.Reader for binary payloads, set with
// codec.SetBody (replayable, and so retried, when it is held in memory
// or an io.ReadSeeker; a one-shot reader makes the call one attempt).
//
// Model types use real types for formats: uuid.UUID
// (github.com/google/uuid), codec.Date, time.Time, the sized and
// unsigned integers, []byte for byte and binary; an optional nullable
// property is a codec.Nullable[T], absent, null and set kept apart.
//
// The result follows these rules:
//
//   - a streamed answer, the first 2xx response with a body being
//     text/event-stream (a *stream.Stream[stream.Event[T]]), JSON Lines
//     or NDJSON, or a JSON text sequence (a *stream.Stream[T]), or a
//     binary media type (an io.ReadCloser), goes through
//     runtime.DoHTTPStream: the method returns once the header is in, the
//     body is read under the caller's context, the bulkhead permit is held
//     until the result is closed, and nothing is retried after the first
//     byte; when its 2xx answers document headers, the method returns a
//     *OpResult that embeds the stream (Stream) or the body (ReadCloser)
//     beside Status, Header and one typed field per documented header;
//   - an operation whose documented answers (2xx, and 304 Not Modified)
//     are several with a body among them, or have documented headers,
//     returns a *OpResult: Status, Header, one field per answer with a
//     body named after its status (OK, Created, Accepted; a pointer
//     unless the type has its own nil) and one typed field per documented
//     header (a string, or a pointer to a number, boolean, date, uuid or
//     string enum, read with codec.HeaderDecoder); a documented 304 is a
//     result (runtime.AcceptStatus);
//   - otherwise the first 2xx response with a body gives the result type:
//     its JSON type, decoded with encoding/json, or []byte for any other
//     media type, read whole inside the attempt so that the attempt
//     timeout bounds it; other 2xx responses are decoded as that type (a
//     204 answer as the zero value), and the answer's status and header
//     can be read with the call option runtime.WithResponseInfo;
//   - when no 2xx response has a body or headers, the method returns only
//     an error;
//   - documented non-2xx responses with a JSON body become a typed error
//     with one field per status, wrapping the runtime's *RemoteError:
//     OpError for the answers of one operation; operations that document
//     the same answers share one type, APIError for the most shared (the
//     others APIError2, APIError3...); any other failure is the runtime's
//     error (*RemoteError, *DeadlineExceededError, *OutcomeUnknownError,
//     ...).
//
// Parameters are serialized without reflection: path parameters escaped
// (simple, label or matrix style) between the literal pieces of the
// template, which are percent-encoded at generation time, the assembled
// path checked with codec.CheckPath so that a value forming a "." or
// ".." segment is refused before sending (a fixed query written after "?"
// in the template goes first in the query); query parameters in form
// (exploded or comma-joined), spaceDelimited, pipeDelimited and deepObject
// styles, headers and cookies; primitives with strconv, times in RFC 3339,
// enums by their value. Other shapes are sent as JSON text, with a warning.
//
// # Credentials, servers and the route table
//
// Each security scheme of the document gets an option (security.go):
// WithBearerToken, WithBasicAuth, WithAuthorization for other HTTP
// schemes, WithOAuth2 and WithOpenIDConnect taking an oauth2.TokenSource,
// when the document has one scheme of the kind, the scheme's name
// appended otherwise; WithAPIKey and the scheme's name for API keys. A
// secured operation's runtime.Operation gets, in NewClient, its security
// requirement as runtime.WithCredentials alternatives, so that the
// runtime applies the first fully configured one to every attempt and
// refuses a call without any (runtime.MissingCredentialError). A client
// certificate (mutualTLS) has no option: it is the transport's.
//
// Each server becomes a constant, or for a URL template a function with
// its variables (defaults, enum checked) and a constant of its default
// URL (servers.go); NewClient("") takes the first server unless it is
// relative. Beside the client, Routes and NewRouteTransport (routes.go)
// give clients of other generators the same pipeline through a
// route.Transport.
//
// An operation whose policy names an idempotency key header gets one key
// per call from codec.NewIdempotencyKey, the same on every attempt,
// unless the caller sets one through the params (the documented header
// parameter, or an added IdempotencyKey field).
package golang
