// Command oapi-resilient generates a typed, resilient Go client from an
// OpenAPI 3.0/3.1 (or Swagger 2.0) document, lints the document's
// resilience policy, or prints its resilience review.
//
// Usage:
//
//	oapi-resilient generate [flags] SPEC   # write the Go client
//	oapi-resilient check    [flags] SPEC   # lint only
//	oapi-resilient review   [flags] SPEC   # print the "Resilience review" table
//
// Flags of every command:
//
//	-policy FILE   policy file (YAML) layered below the spec's x-resilience;
//	               default: none, the built-in defaults apply
//	-dependency N  the name the policy file knows the service by; default:
//	               the document's info.title in snake case ("Swagger
//	               Petstore" → swagger_petstore), else the spec's file name
//	-root DIR      the folder the spec's $refs may reach; default: the
//	               spec's own folder. Widen it for specs that refer to
//	               "../common/..."; files outside it and URLs are never read
//	-strict        an operation without operationId is an error, not a warning
//	-ignore-go-names  disregard x-go-name values (written for another
//	               generator's package layout, they may clash in one package)
//	-by dependency|operation
//	               rows of the review table; default: operation
//
// Flags of generate:
//
//	-o FILE        output file; default: standard output. The file is
//	               written only when generation succeeds, and left
//	               untouched when its content is unchanged
//	-package NAME  Go package name; default: the package of the Go files
//	               already in the output folder, else the output folder's
//	               name made a Go identifier ("pet-store" → petstore; a
//	               "v2" folder takes its parent's name); when that gives
//	               "main" without Go files there, or when writing to
//	               standard output, the spec's file name
//	-review FILE   also write the Markdown resilience review to FILE
//
// Warnings go to standard error, each line prefixed "warning: ". Errors go
// to standard error one per line, as
//
//	file:line:col: E-RULE: what (where); fix
//
// and every error of every stage that ran is reported, not just the first.
//
// # Exit status
//
//	0  success (check: the spec and policy are clean; warnings allowed)
//	1  lint violations: a loadable spec or policy breaks a rule, such as
//	   retries on a plain POST (E-RETRY-UNSAFE), a fallback on a write
//	   (E-FALLBACK-UNSAFE), a static fallback value its response schema
//	   rejects (E-FALLBACK-VALUE), an attempt timeout not below the total
//	   (E-TIMEOUT-ORDER), a negative duration (E-DURATION), an unknown
//	   x-resilience key (E-EXT-UNKNOWN), Go names that collide
//	   (E-NAME-COLLISION)
//	2  unusable input: a file that cannot be read (E-READ), invalid YAML
//	   (E-YAML), not an OpenAPI 3 or Swagger 2 document (E-VERSION), a
//	   $ref that does not resolve or leaves -root (E-REF-*), a document
//	   that fails OpenAPI validation (E-OPENAPI, E-DUP-OPID, E-LOAD); also
//	   bad flags and output that cannot be written
//
// When both kinds are reported, the status is 2.
//
// # go generate
//
// Add the command as a tool of your module once:
//
//	go get -tool github.com/resilientgo/resilient/cmd/oapi-resilient
//
// and put a directive beside the spec:
//
//	//go:generate go tool oapi-resilient generate -o client.gen.go -policy policy.yaml openapi.yaml
//
// Without the tool directive, run a released version directly:
//
//	go run github.com/resilientgo/resilient/cmd/oapi-resilient@latest generate -o client.gen.go openapi.yaml
//
// In CI, "oapi-resilient check -policy policy.yaml openapi.yaml" fails the
// build on policy violations without generating anything.
//
// # The generated client
//
// NewClient(baseURL, opts...) takes an absolute http or https base URL
// without query, fragment or userinfo. By default it sends with
// resilient.NewHTTPClient: a redirect is followed only to the same origin
// for GET and HEAD, any other comes back as a *resilient.RemoteError with
// its Location, so request bodies and header parameters never reach
// another host (a client given with WithHTTPClient keeps its own policy).
// Every attempt sends its remaining budget in X-Request-Deadline, unless
// the policy's deadlineHeader or WithDeadlineHeader renames it or turns it
// off; success bodies are bounded (WithMaxResponseBody, 32 MiB by
// default). A failed call returns a *resilient.CallError saying what ended
// it; a request that cannot be built or sent as given (a cookie or header
// value net/http would refuse or cut, a body that does not marshal) is
// resilient.ErrInvalidRequest, never sent. Cached fallback answers are
// kept per request, header and cookie parameters and credentials
// included; WithFallbackPartition partitions them further.
package main
