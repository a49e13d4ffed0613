// Command oapi-resilient generates a typed, resilient Go client from an
// OpenAPI 3.0/3.1 (or Swagger 2.0) document, lints the document's
// resilience policy, or prints its resilience review.
//
// Usage:
//
//	oapi-resilient generate [flags] SPEC   # write the Go client
//	oapi-resilient check    [flags] SPEC   # lint only
//	oapi-resilient review   [flags] SPEC   # print the "Resilience review" table
//	oapi-resilient diff     [flags] OLD NEW   # what a spec change does to the client
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
//	               "../common/..."; files outside it and URLs are never read,
//	               not even through a symbolic link (see Input files)
//	-strict        refuse a sloppy document: the warnings W-OPENAPI,
//	               W-NO-OPID, W-PATH-QUERY, W-PATH-FRAGMENT and
//	               W-MEDIA-TYPE become the errors E-OPENAPI, E-NO-OPID,
//	               E-PATH-QUERY, E-PATH-FRAGMENT and E-MEDIA-TYPE, and
//	               W-KEYWORD-TYPE, W-REF-SCHEMA, W-REF-PARAMETER and
//	               W-REF-RESPONSE become E-LOAD, with the exit status of
//	               those errors
//	               (see Errors and warnings); for spec authors
//	-ignore-go-names  disregard x-go-name values (written for another
//	               generator's package layout, they may clash in one package)
//	-document-url URL  the URL the spec is served from, against which
//	               relative server URLs are resolved; default: none (a
//	               relative server URL is then reported, W-SERVER)
//	-by dependency|operation
//	               rows of the review table; default: operation
//	-include FILTERS
//	               only the operations these filters select, and the model
//	               types they reach; comma-separated, repeatable. A filter
//	               is tag:NAME (the operations with that tag), path:/PREFIX
//	               (whose path template starts with PREFIX; a bare /PREFIX
//	               too) or op:OPERATION_ID. Default: every operation
//	-exclude FILTERS
//	               leave out the operations these filters select, after
//	               -include. The whole document is still loaded and checked,
//	               and names are those of the whole document, so they do
//	               not change with the selection. An error or a warning
//	               that belongs to an operation left out (its parameters,
//	               body, responses, path template) is not reported, nor one
//	               in a component (schema, parameter, body, response,
//	               header) that only operations left out reach through
//	               $refs: a spec with one broken operation generates with
//	               -exclude op:ID. Errors of the document itself (its
//	               x-resilience, a file it cannot load, one that does not
//	               validate as a whole) and of the policy file stay; check
//	               without a selection reports every error. A filter that
//	               selects nothing is a warning (W-SELECT-UNUSED), a
//	               selection left empty an error (E-SELECT-EMPTY)
//
// Flags of generate:
//
//	-o FILE        output file; default: standard output. The file is
//	               written only when generation succeeds, and left
//	               untouched when its content is unchanged; a device or
//	               pipe (/dev/stdout) is written to, never replaced
//	-package NAME  Go package name; default: the package of the Go files
//	               already in the output folder, else the output folder's
//	               name made a Go identifier ("pet-store" → petstore; a
//	               "v2" folder takes its parent's name); when that gives
//	               "main" without Go files there, or when writing to
//	               standard output, the spec's file name
//	-review FILE   also write the Markdown resilience review to FILE
//	-check         write nothing; compare instead. Exit 0 when -o (each
//	               file of a split client), and -review when given, hold
//	               what generation would write now; else print a unified
//	               diff (missing files from /dev/null, files of an earlier
//	               split the run would leave stale to /dev/null) to
//	               standard output, name each file on standard error, and
//	               exit 1. Bad input exits 2, as always. Needs -o. For CI:
//	               the same command line as the go:generate directive,
//	               with -check added
//	-split MODE    write the client as several files of the package:
//	               auto (the default) when it is large, on (also -split
//	               alone), off never; write it -split=on, -split=off, as
//	               for a boolean flag. A split client puts in -o (required
//	               for on) the Client type, its options and policy table
//	               and the shared helpers; each first tag of the
//	               operations, in lower snake case, gets a file named after
//	               -o's (client.gen.go → client_issues.gen.go), an
//	               operation without a tag the file of its path's first
//	               segment (/me/events → client_path_me.gen.go), 300
//	               operations to a file (client_issues_2.gen.go...); the
//	               model types, sorted by name,
//	               go to client_models.gen.go, client_models_2.gen.go... 500
//	               to a file. Names are the same split or not. auto splits
//	               when the one file would exceed 3 MB, estimated before
//	               rendering as 7.4 KB per operation and 0.54 KB per model
//	               type (about 425 operations, or 5,800 model types): the
//	               size of the largest generated file of Go's own tree
//	               (cmd/compile/internal/ssa/opGen.go), which editors and
//	               gopls handle; the one 12.8 MB file of GitHub's REST
//	               client takes go/parser a second to read, paid on every
//	               opening and reparse, while go build compiles the package
//	               whole either way. GitHub's, Microsoft Graph's, Stripe's
//	               and OpenAI's clients are split; the selection of -include
//	               and -exclude counts, not the whole document. Writing to
//	               standard output, auto gives one file. Files of an earlier
//	               run whose tag is gone are left in place: delete them with
//	               the rest when regenerating; when a client is one file
//	               again, a warning names each generated file of the
//	               earlier split left beside -o, whose declarations repeat
//	               the client's
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
//	   rejects (E-FALLBACK-VALUE), a cached fallback not declared shared
//	   on an operation whose credentials the request does not carry
//	   (E-FALLBACK-SHARED, see below), an attempt timeout not below the total
//	   (E-TIMEOUT-ORDER), a negative duration (E-DURATION), an unknown
//	   x-resilience key (E-EXT-UNKNOWN), and the rules of names sent as
//	   written and of path templates below
//	2  unusable input: a file that cannot be read (E-READ), invalid YAML
//	   (E-YAML), not an OpenAPI 3 or Swagger 2 document (E-VERSION), a
//	   $ref that does not resolve or leaves -root (E-REF-*), a document
//	   after whose validation findings no correct client can exist
//	   (E-OPENAPI, E-DUP-OPID, E-LOAD; with -strict, any finding); also
//	   bad flags and output that cannot be written
//
// When both kinds are reported, the status is 2.
//
// # Errors and warnings
//
// The input is usually someone else's spec, which the user cannot fix. An
// error therefore means that no correct client can exist, and says why;
// whatever leaves a client that sends what the server expects is a
// warning at the same file:line:col, with its fix, and -strict turns the
// warnings of a sloppy document into errors for the spec's authors.
//
// Validation findings of kin-openapi (the code in brackets ends the
// message):
//
//	error    unresolved-ref (E-REF-UNRESOLVED): the client cannot know
//	         the type or parameter it names
//	error    parameter-name-required: a parameter without a name
//	         cannot be sent
//	error    parameter-in-invalid: a parameter whose "in" is missing or
//	         unknown cannot be placed in the request
//	error    path-must-start-with-slash: the path cannot be joined to
//	         the server URL
//	error    duplicate-operation-id (E-DUP-OPID)
//	warning  every other finding (W-OPENAPI), among them: paths that
//	         differ only in parameter names (conflicting-paths: routing
//	         is the server's concern), examples (example-violates-schema,
//	         value-or-external-value-required and the rest), defaults,
//	         an empty or missing info.title or version, unknown formats,
//	         unknown keys inside schemas (extra-sibling-fields, such as a
//	         discriminator's stray type, the same warning whether or not
//	         an operation refers to the schema), keywords of another
//	         OpenAPI version (*-for-3-1-plus, *-for-3-2-plus,
//	         exclusive-bound-*), invalid patterns, duplicate parameters
//	         (the last one is sent), security schemes and servers
//
// Rules of the generator:
//
//	error    E-READ, E-YAML, E-VERSION, E-LOAD: there is no document
//	error    E-REF-UNRESOLVED, E-REF-EXTERNAL, E-REF-CYCLE: a part of
//	         the document cannot be read
//	error    E-HEADER-NAME, E-MEDIA-TYPE: a name the client would send
//	         cannot be sent as written
//	error    E-PATH-CHAR, E-PATH-DOT, E-PATH-TEMPLATE: no escaping makes
//	         the path template mean what it says; E-PATH-FRAGMENT: a
//	         variable after its "#" could never be sent
//	error    E-ALLOF-CYCLE: the schema cannot be a Go type
//	error    E-NAME-INVALID: no Go name can be formed
//	warning  W-NAME-RENAMED: names that collide are renamed (see Names)
//	error    the policy rules (E-RETRY-UNSAFE, E-TIMEOUT-ORDER and the
//	         other rules of x-resilience and the policy file): the
//	         policy contradicts itself or the operation
//	warning  W-NO-OPID, W-PATH-QUERY, W-PATH-FRAGMENT, W-MEDIA-TYPE:
//	         sloppy, errors with -strict
//	warning  W-KEYWORD-TYPE, W-REF-SCHEMA, W-REF-PARAMETER,
//	         W-REF-RESPONSE: sloppy constructs the loader would refuse,
//	         repaired in what it is given; E-LOAD with -strict
//	warning  W-OPID-CONFUSABLE, W-ENUM-RANGE, W-UNSUPPORTED,
//	         W-PARAM-JSON, W-BODY-MULTIPART, W-RESPONSE-RAW,
//	         W-RESPONSE-TYPES: what the client does instead of what the
//	         spec asks; never errors
//
// # Names
//
// Go names that collide are renamed, never refused, with a W-NAME-RENAMED
// warning saying what was renamed to what, and a line on the renamed
// declaration's doc comment; the same input always gives the same names.
// The client's entry points keep their names in every generated package
// (Client, NewClient, Option, the With options, Policy, DefaultPolicy,
// and the Client's Dependency method), so a schema or operation that
// would take one yields: schema Client becomes ClientModel, an operation
// dependency becomes the method DependencyOp. The types the client
// declares per operation yield to the schemas, which keep their names: a
// schema DeleteWorkflowError leaves the error type of DeleteWorkflow
// named DeleteWorkflowCallError, a schema GetPetParams the parameters
// type GetPetCallParams. Of two schemas, or two operations, whose names
// map to one Go name, the first in document order keeps it and the next
// is numbered (Pet, Pet2). x-go-name on the schema or operation chooses
// another name; -ignore-go-names disregards x-go-name values written for
// another generator.
//
// # Names the client sends as written
//
// Lint errors (status 1), since the client would send them as they are:
//
//	E-HEADER-NAME    a header or cookie parameter whose name is not an HTTP
//	                 token (a CR, LF, ":", ";", space or other separator
//	                 would break the request or add a header)
//	E-MEDIA-TYPE     a request body's or success response's media type (sent
//	                 in Content-Type or Accept) that is not printable ASCII
//	                 or does not parse as type/subtype; parameters
//
// Warnings, about names that generate but deserve a look:
//
//	W-ENUM-RANGE       an integer enum with a value beyond 32 bits: with
//	                   format int32 (or no format, Go int having 32 bits on
//	                   some platforms) its constants would not compile, so its
//	                   Go type is int64
//	W-OPID-CONFUSABLE  two operationIds that differ only in look-alike
//	                   letters of other scripts (Latin a, Cyrillic а); both are
//	                   named
//
// A property whose name cannot be a Go struct tag (a comma or quote in it,
// or the empty name) is kept: its field has the tag "-", and the struct's
// own MarshalJSON and UnmarshalJSON write and read it under its exact name,
// required or not. A property called "-" has the tag "-,".
//
// Spec text (descriptions, titles, names, the spec's own file name) reaches
// generated comments only as "//" comment text, control characters
// removed, and a line starting "+build" escaped, so it never becomes a
// directive or a build constraint; a static fallback value is written as
// an escaped string literal when it holds characters that do not print.
// In the Markdown review, spec-provided names are escaped so that the
// heading stays one line and each row one row. Policy file diagnostics
// quote at most the first 120 characters of the offending line.
//
// # Input files
//
// The spec and the files its $refs name are read through the -root folder
// opened with os.OpenRoot, the policy file through its own folder the same
// way: a symbolic link that leads out of the folder is refused (E-REF-
// EXTERNAL for a $ref, E-READ for the spec or policy file itself), and so
// is anything that is not a regular file (a directory, device, pipe or
// socket) and a file above the size limit: 128 MiB for a spec file,
// 4 MiB for a policy file (E-READ, or E-REF-UNRESOLVED for a $ref; exit
// status 2). Nothing is read before these checks.
//
// # Cached fallbacks and credentials
//
// A cached fallback answers a failed read with the last good answer to a
// request identical in every parameter and credential the client sends.
// The generated client sends the credentials of the document's security
// schemes itself (API keys, HTTP bearer and basic, OAuth 2.0 and OpenID
// Connect tokens), so their answers are kept apart per credential, by a
// digest of it. A client certificate (mutualTLS) never shows in the
// request, so on an operation whose security requirement names one a
// cached fallback must declare fallback.shared: true, stating that every
// caller gets the same answer; otherwise it is E-FALLBACK-SHARED, whose
// fix is to declare it shared or to use a static fallback. shared on a
// fallback that is not cached is E-FALLBACK-KIND.
//
// # Path templates
//
// Every literal piece of a path template is percent-encoded at generation
// time (a %XX escape already written is kept), and the generated request
// builder refuses a path value that forms a "." or ".." segment before
// anything is sent (codec.CheckPath). What no escaping can make mean
// what it says is a lint error (status 1):
//
//	E-PATH-CHAR      a "?" followed by neither a fixed query nor
//	                 name={variable} pairs ("?{key}=1", "?q=a{b}"), or a
//	                 "%" that starts no %XX escape
//	E-PATH-DOT       a literal "." or ".." segment ("%2E" included), which
//	                 servers resolve before routing
//	E-PATH-TEMPLATE  a template variable that names no path parameter of
//	                 the operation
//
// A "?" followed by a fixed query ("/responses?beta=true", as some
// generated specs write operation variants) is a warning, W-PATH-QUERY:
// the client sends that query with every request of the operation, before
// its query parameters. Pairs whose value is a template variable
// ("/alerts?lat={lat}&lon={lon}", as some specs write query parameters)
// are a warning too, W-PATH-QUERY, which says what is sent: the path
// before the "?", and each pair as a query parameter under its key,
// carrying the value of the operation's parameter of the variable's name,
// escaped as a query value. The parameter is sent there whatever in: the
// spec declares it with; declared in: path (the usual case: the template
// makes it one), it stays required and is sent as the template would
// expand it (style form, not exploded: a list is "a,b"). A variable that
// names no parameter of the operation gets an optional string query
// parameter of its name, with another W-PATH-QUERY. The route table keeps
// the template as written; a route.Transport matches such a pair
// with any value. A "#" and what follows ("/tags/{arn}#tagKeys", as
// specs converted from AWS's models tell operations apart) is a warning,
// W-PATH-FRAGMENT: no request carries a fragment, so the client sends the
// path before it.
//
// # Rules
//
// Every diagnostic names its rule, E- for an error and W- for a warning;
// these are the rules oapi-resilient reports (the catalogue is
// diag.Rules, in github.com/resilientgo/resilient/policyspec/diag). Those
// of input that cannot be used at all (E-READ, E-YAML, E-VERSION, E-LOAD,
// E-OPENAPI, E-DUP-OPID, E-REF-*, E-INTERNAL, E-EMIT) exit with status 2,
// the other errors with status 1.
//
//	E-READ               a file that cannot be read: missing, not a regular file, too large, or a link out of its folder
//	E-YAML               a file that is not valid YAML, or a mapping with a key written twice
//	E-VERSION            a document that is neither OpenAPI 3.0/3.1 nor Swagger 2.0
//	E-LOAD               a document that kin-openapi cannot load
//	E-OPENAPI            a validation finding after which no correct client can exist (or any, with -strict)
//	E-DUP-OPID           an operationId that two operations share
//	E-INTERNAL           a failure of the generator itself; please report it with the input
//	E-EMIT               generated code that does not format; please report it with the input
//	E-REF-UNRESOLVED     a $ref that does not resolve, names a file that cannot be read, or stands for a schema and names no schema
//	E-REF-EXTERNAL       a $ref to a URL, or to a file outside the folder the spec may reach (-root)
//	E-REF-CYCLE          a chain of $refs that never reaches a definition
//	E-EXT-UNKNOWN        a key that is not part of the policy vocabulary, with a did-you-mean
//	E-TYPE               a policy value of the wrong kind, such as a list where a number belongs
//	E-DURATION           a duration that does not parse, has no unit, or is negative, zero or too long
//	E-RANGE              a number out of range, base above cap, cap not below timeout, percentiles out of order
//	E-BREAKER-WINDOW     a breaker window that is not a positive whole number of seconds
//	E-SCOPE              a key written at a level where it has no meaning, such as a breaker on one operation
//	E-RETRY-UNSAFE       an operation that asks for retries but is not idempotent and sends no key
//	E-HEDGE-UNSAFE       an operation that asks for hedging but is not a read
//	E-HEDGE-DELAY        hedging without a delay or a measured p95, or a delay the attempt timeout never reaches
//	E-FALLBACK-UNSAFE    an operation that asks for a fallback but is not a read
//	E-FALLBACK-VALUE     a static fallback without a value, or whose value the response schema rejects
//	E-FALLBACK-KIND      a fallback setting its kind does not use: a value when not static, shared when not cached
//	E-FALLBACK-SHARED    a cached fallback not declared shared on an operation whose credentials the request does not carry
//	E-FLEET-NAME         a fleet store name or key prefix that is empty, too long, of other characters, or an address or credential
//	E-TIMEOUT-ORDER      an attempt timeout not below the total timeout
//	E-TIMEOUT-BELOW-P99  a timeout or attempt timeout below the measured p99 latency
//	W-ATTEMPT-NEVER-CUT  a declared attempt timeout that never cuts an attempt: the operation is sent once, or the total leaves no room for a retry after it
//	E-POLICY-UNUSED      a policy file entry that names no dependency or operation of the input
//	W-SHADOWED           a policy file value that the spec or .proto file overrides, so that it does nothing
//	W-FALLBACK-STATIC    a static fallback on an operation whose result is not JSON, left out of the client
//	E-NAME-RESERVED      a name of the input that the generated client uses for itself
//	E-NAME-INVALID       an x-go-name that is not an exported Go identifier, or no name to derive
//	W-NAME-RENAMED       a name of the input, or of the client's own, renamed because another declaration has it
//	W-OPENAPI            a validation finding that leaves the client correct: the document is sloppy but usable
//	E-ALLOF-CYCLE        an allOf cycle that cannot be flattened into Go structs
//	E-NO-OPID            an operation without operationId, with -strict
//	W-NO-OPID            an operation without operationId, named after its method and path
//	W-OPID-CONFUSABLE    two operationIds that differ only in look-alike letters of other scripts
//	E-HEADER-NAME        a header or cookie parameter whose name is not an HTTP token
//	E-MEDIA-TYPE         a sent media type that is not printable ASCII or does not parse, with no valid one beside it (or any, with -strict)
//	W-MEDIA-TYPE         a media type that does not parse beside valid ones, or an empty one, left out
//	E-PATH-CHAR          a "?" in a path template followed by neither a fixed query nor name={variable} pairs, a "%" that starts no escape
//	E-PATH-DOT           a literal "." or ".." segment in a path template, which servers resolve before routing
//	E-PATH-TEMPLATE      a path template variable that names no path parameter of the operation
//	W-PATH-QUERY         a query after "?" in a path template: fixed pairs sent with every request, name={variable} pairs sent as query parameters
//	W-PATH-FRAGMENT      a fragment after "#" in a path template, which no request carries, left out
//	E-PATH-QUERY         a query after "?" in a path template, with -strict
//	E-PATH-FRAGMENT      a fragment after "#" in a path template that holds a template variable, whose parameter no request could carry (any fragment, with -strict)
//	W-ENUM-RANGE         an integer enum with a value beyond 32 bits, typed int64
//	W-UNSUPPORTED        a construct the client cannot type, kept as raw JSON or left out
//	W-PARAM-JSON         a parameter style the client cannot serialize, sent as JSON text
//	W-BODY-MULTIPART     a multipart request body, sent as raw bytes the caller encodes
//	W-RESPONSE-RAW       a form or multipart response body, returned as raw bytes
//	W-RESPONSE-HEADER    a documented response header of a type the client does not parse, left as text in the result's Header
//	W-STREAM-POLICY      a hedge or fallback in the policy of a streamed operation, which is never hedged and has no fallback
//	W-RESPONSE-TYPES     a success response whose body differs from the first success's, decoded as that one
//	W-SERVER             a relative server URL with no document URL to resolve it
//	W-KEYWORD-TYPE       a schema's pattern written as a number or a boolean, which the loader refuses, left out (E-LOAD with -strict)
//	W-REF-SCHEMA         a $ref that stands for a schema and names a parameter, read as the parameter's schema (its items', at the items of an array; E-LOAD with -strict)
//	W-REF-PARAMETER      a $ref that stands for a parameter and names a parameter object written under the schemas, read as that object (E-LOAD with -strict)
//	W-REF-RESPONSE       a response's $ref that names a schema, read as the response of the same name, or as a JSON answer of that schema (E-LOAD with -strict)
//	E-SELECT-EMPTY       -include and -exclude filters that leave no operation to generate
//	W-SELECT-UNUSED      an -include or -exclude filter that selects no operation
//	W-SVCCONFIG-IGNORED  a service config field the client has no counterpart for, or service configs named in an OpenAPI run, left out
//
// # go generate
//
// No version is published yet. From a clone of the repository, install
// the command with "go install ./cmd/oapi-resilient", or make the clone a
// dependency and tool of your module:
//
//	go mod edit -require=github.com/resilientgo/resilient@v0.0.0 \
//	  -replace=github.com/resilientgo/resilient=../resilient \
//	  -require=github.com/resilientgo/resilient/runtime@v0.0.0 \
//	  -replace=github.com/resilientgo/resilient/runtime=../resilient/runtime \
//	  -tool=github.com/resilientgo/resilient/cmd/oapi-resilient
//	go mod tidy
//
// The runtime is a module of its own, and so is each runtime subpackage
// with heavy dependencies: add a replace alike for each your clients
// import (runtime/resilientgrpc, runtime/redisfleet, runtime/otelobserver,
// runtime/oteltrace).
//
// and put a directive beside the spec:
//
//	//go:generate go tool oapi-resilient generate -o client.gen.go -policy policy.yaml openapi.yaml
//
// Once a version is published, "go get -tool
// github.com/resilientgo/resilient/cmd/oapi-resilient" replaces the
// replace, and "go run github.com/resilientgo/resilient/cmd/oapi-resilient@latest
// generate ..." runs it without adding it to your module. -version prints
// which build runs.
//
// In CI, "oapi-resilient check -policy policy.yaml openapi.yaml" fails the
// build on policy violations without generating anything, and the
// generate command of the go:generate directive, with -check added, fails
// it when the committed client is stale.
//
// # diff
//
//	oapi-resilient diff [-policy FILE] [-format text|markdown|json] [-fail-on risk|breaking|none] OLD NEW
//
// compares two versions of a spec as their generated clients see them and
// prints three sections: Resilience (every per-operation and
// dependency-wide policy value that changed, old → new with the origin of
// each, and the changes that raise risk, flagged RISK-*: retries enabled on
// an operation that was not idempotent, a total timeout below the declared
// p99, a fallback removed from a read, an operation now sent once, an
// idempotency key lost, a fallback now shared, a policy generation
// refuses), Go API (the generated package's exported declarations removed,
// added, changed or renamed, each breaking or compatible, and the semver
// bump they imply), and Wire (operations, parameters, bodies, responses
// and their headers and media types, security and its scopes, servers,
// properties, enums, nullability, validation keywords, defaults,
// readOnly and writeOnly, deprecation, in the direction each travels,
// breaking, warning or compatible). Package
// github.com/resilientgo/resilient/gen/diff lists every rule id and the
// JSON schema.
//
// OLD and NEW are spec files, or git:REV:PATH, a spec as it is at a git
// revision (PATH relative to the current folder, inside its git work tree):
// its folder (or -root) and the -policy file are read at REV too, with git
// archive, so the policy of each version goes with it. The flags of every
// command apply to both versions. -format text (the default) is for a
// terminal, markdown for a pull-request comment (a summary line, then one
// collapsible <details> section per part, open when it holds a breaking
// change or a risk), json a stable schema (resilient.diff/v1). A version
// whose policy breaks a rule generation refuses (E-RETRY-UNSAFE,
// E-TIMEOUT-BELOW-P99...) is still compared, the error reported as
// RISK-POLICY-REFUSED; warnings are not printed (check prints them).
//
// Exit status of diff: 0 nothing -fail-on names; 1 a breaking change or a
// flagged risk (-fail-on risk, the default), a breaking change
// (-fail-on breaking), never (-fail-on none); 2 unusable input, with the
// usual diagnostics, or bad flags.
//
// # The generated client
//
// NewClient(baseURL, opts...) takes an absolute http or https base URL
// without query, fragment or userinfo. By default it sends with
// runtime.NewHTTPClient: a redirect is followed only to the same origin
// for GET and HEAD, any other comes back as a *runtime.RemoteError with
// its Location, so request bodies and header parameters never reach
// another host (a client given with WithHTTPClient keeps its own policy).
// A server declared to read it (deadlineHeader: true, or a header name, in
// the spec's root x-resilience or the policy file's dependency entry)
// receives every attempt's remaining budget in X-Request-Deadline, or the
// header named; any other server receives none, and WithDeadlineHeader
// changes either. A total timeout that is a guess (no latency, no
// declaration) bounds only calls without a deadline: a caller's longer
// deadline is kept. Success bodies are bounded (WithMaxResponseBody, 32 MiB by
// default). A failed call returns a *runtime.CallError saying what ended
// it; a request that cannot be built or sent as given (a cookie or header
// value net/http would refuse or cut, a body that does not marshal) is
// runtime.ErrInvalidRequest, never sent. A path, query or header
// parameter whose schema is a oneOf or anyOf of primitives (an integer or
// a string, say) is sent in the plain form of the variant it holds: the
// string main.yml as main.yml, not as the JSON text "main.yml". A documented error answer comes
// back as the typed error its method's documentation names, wrapping the
// *runtime.RemoteError: operations that document the same answers share
// one type (APIError for the most shared), an operation with answers of its
// own has <Operation>Error. Cached fallback answers are
// kept per request, header and cookie parameters and credentials
// included; WithFallbackPartition partitions them further. When the
// policy declares a fleet (fleet.store, fleet.prefix), the client also has
// WithFleet(rdb), which shares the breaker and retry budget with the
// service's other replicas through the go-redis client rdb; the policy
// names the store and never holds an address or a credential
// (E-FLEET-NAME).
//
// Each security scheme of the spec gives NewClient an option
// (WithBearerToken, WithBasicAuth, WithAPIKey<Name>, WithOAuth2...); a
// secured operation sends the first alternative of its security
// requirement whose credentials were given, read afresh on every attempt,
// and without any fails with a *runtime.MissingCredentialError, nothing
// sent. WithRequestEditor edits every attempt's request; WithDoer takes
// any runtime.Doer. Each server of the spec is a constant (a function
// for a URL template with variables), and NewClient("") takes the first.
// Beside the client, Routes and NewRouteTransport(baseURL, base, opts...)
// give a client generated by another tool the same pipeline as its
// http.Client's Transport.
package main
