package diag

// Rule identifies the kind of a [Diagnostic]: "E-..." for errors, "W-..."
// for warnings. Every rule is one of the constants below, grouped by what
// they are about; [Rules] says in one line what each reports, and
// [Rule.Doc] looks one up.
type Rule string

// Input that cannot be used at all.
const (
	RuleRead     Rule = "E-READ"
	RuleYAML     Rule = "E-YAML"
	RuleVersion  Rule = "E-VERSION"
	RuleLoad     Rule = "E-LOAD"
	RuleOpenAPI  Rule = "E-OPENAPI"
	RuleDupOpID  Rule = "E-DUP-OPID"
	RuleInternal Rule = "E-INTERNAL"
	RuleEmit     Rule = "E-EMIT"
)

// References of an OpenAPI document.
const (
	RuleRefUnresolved Rule = "E-REF-UNRESOLVED"
	RuleRefExternal   Rule = "E-REF-EXTERNAL"
	RuleRefCycle      Rule = "E-REF-CYCLE"
)

// The policy vocabulary, wherever it is written.
const (
	RuleUnknownKey      Rule = "E-EXT-UNKNOWN"
	RuleType            Rule = "E-TYPE"
	RuleDuration        Rule = "E-DURATION"
	RuleRange           Rule = "E-RANGE"
	RuleBreakerWindow   Rule = "E-BREAKER-WINDOW"
	RuleScope           Rule = "E-SCOPE"
	RuleRetryUnsafe     Rule = "E-RETRY-UNSAFE"
	RuleHedgeUnsafe     Rule = "E-HEDGE-UNSAFE"
	RuleHedgeDelay      Rule = "E-HEDGE-DELAY"
	RuleFallbackUnsafe  Rule = "E-FALLBACK-UNSAFE"
	RuleFallbackValue   Rule = "E-FALLBACK-VALUE"
	RuleFallbackKind    Rule = "E-FALLBACK-KIND"
	RuleFallbackShared  Rule = "E-FALLBACK-SHARED"
	RuleFleetName       Rule = "E-FLEET-NAME"
	RuleTimeoutOrder    Rule = "E-TIMEOUT-ORDER"
	RuleTimeoutBelowP99 Rule = "E-TIMEOUT-BELOW-P99"
	RuleAttemptNeverCut Rule = "W-ATTEMPT-NEVER-CUT"
	RuleUnused          Rule = "E-POLICY-UNUSED"
	RuleShadowed        Rule = "W-SHADOWED"
	RuleFallbackJSON    Rule = "W-FALLBACK-STATIC"
)

// Names in generated Go code.
const (
	RuleNameCollision Rule = "E-NAME-COLLISION"
	RuleNameReserved  Rule = "E-NAME-RESERVED"
	RuleNameInvalid   Rule = "E-NAME-INVALID"
	RuleNameRenamed   Rule = "W-NAME-RENAMED"
)

// OpenAPI documents.
const (
	RuleOpenAPIWarning     Rule = "W-OPENAPI"
	RuleAllOfCycle         Rule = "E-ALLOF-CYCLE"
	RuleNoOpID             Rule = "E-NO-OPID"
	RuleNoOpIDWarning      Rule = "W-NO-OPID"
	RuleOpIDConfusable     Rule = "W-OPID-CONFUSABLE"
	RuleHeaderName         Rule = "E-HEADER-NAME"
	RuleMediaType          Rule = "E-MEDIA-TYPE"
	RuleMediaTypeIgnored   Rule = "W-MEDIA-TYPE"
	RulePathChar           Rule = "E-PATH-CHAR"
	RulePathDot            Rule = "E-PATH-DOT"
	RulePathTemplate       Rule = "E-PATH-TEMPLATE"
	RulePathQuery          Rule = "W-PATH-QUERY"
	RulePathFragment       Rule = "W-PATH-FRAGMENT"
	RulePathQueryStrict    Rule = "E-PATH-QUERY"
	RulePathFragmentStrict Rule = "E-PATH-FRAGMENT"
	RuleEnumRange          Rule = "W-ENUM-RANGE"
	RuleUnsupported        Rule = "W-UNSUPPORTED"
	RuleParamJSON          Rule = "W-PARAM-JSON"
	RuleBodyMultipart      Rule = "W-BODY-MULTIPART"
	RuleResponseRaw        Rule = "W-RESPONSE-RAW"
	RuleResponseTypes      Rule = "W-RESPONSE-TYPES"
	RuleResponseHeader     Rule = "W-RESPONSE-HEADER"
	RuleStreamPolicy       Rule = "W-STREAM-POLICY"
	RuleServer             Rule = "W-SERVER"
	RuleKeywordType        Rule = "W-KEYWORD-TYPE"
	RuleRefSchema          Rule = "W-REF-SCHEMA"
	RuleRefParameter       Rule = "W-REF-PARAMETER"
	RuleRefResponse        Rule = "W-REF-RESPONSE"
)

// The operations chosen for generation (-include, -exclude).
const (
	RuleSelectEmpty  Rule = "E-SELECT-EMPTY"
	RuleSelectUnused Rule = "W-SELECT-UNUSED"
)

// .proto files and the protoc plugin.
const (
	RuleRequest        Rule = "E-REQUEST"
	RuleParameter      Rule = "E-PARAMETER"
	RuleGoPackage      Rule = "E-GO-PACKAGE"
	RuleOutputPath     Rule = "E-OUTPUT-PATH"
	RuleEdition        Rule = "E-EDITION-UNSUPPORTED"
	RuleOption         Rule = "E-OPTION"
	RuleNoPackage      Rule = "W-NO-PACKAGE"
	RuleRetryStream    Rule = "E-RETRY-STREAM"
	RuleFallbackStatic Rule = "E-FALLBACK-STATIC"
	RuleFallbackStream Rule = "E-FALLBACK-STREAM"
	RuleKeyNotGRPC     Rule = "W-KEY-NOT-GRPC"
	RuleMetadataKey    Rule = "E-METADATA-KEY"
	RuleSvcConfig      Rule = "E-SVCCONFIG"
	RuleSvcUnsafe      Rule = "W-SVCCONFIG-UNSAFE"
	RuleSvcCodes       Rule = "W-SVCCONFIG-CODES"
	RuleSvcUnused      Rule = "W-SVCCONFIG-UNUSED"
	RuleSvcIgnored     Rule = "W-SVCCONFIG-IGNORED"
)

// Tools says which commands report a rule.
type Tools uint8

// The commands.
const (
	// OpenAPI is oapi-resilient.
	OpenAPI Tools = 1 << iota
	// Proto is protoc-gen-resilient.
	Proto
	// Both are both commands.
	Both = OpenAPI | Proto
)

// RuleDoc is one rule of the catalogue.
type RuleDoc struct {
	Rule Rule
	// Doc says in one line what the rule reports; the commands'
	// documentation repeats it word for word.
	Doc string
	// Tools are the commands that report the rule.
	Tools Tools
	// Unusable marks the rules of input that cannot be used at all (a
	// file that cannot be read or parsed, a document that is not a valid
	// OpenAPI document, a failure of the generator itself), as opposed to
	// a loadable input that breaks one of the generator's rules.
	// oapi-resilient exits with a different status for each.
	Unusable bool
}

// Rules returns the catalogue: every rule, with what it reports, in the
// order of the constants. It is a new slice on every call.
func Rules() []RuleDoc {
	return []RuleDoc{
		{RuleRead, "a file that cannot be read: missing, not a regular file, too large, or a link out of its folder", Both, true},
		{RuleYAML, "a file that is not valid YAML, or a mapping with a key written twice", Both, true},
		{RuleVersion, "a document that is neither OpenAPI 3.0/3.1 nor Swagger 2.0", OpenAPI, true},
		{RuleLoad, "a document that kin-openapi cannot load", OpenAPI, true},
		{RuleOpenAPI, "a validation finding after which no correct client can exist (or any, with -strict)", OpenAPI, true},
		{RuleDupOpID, "an operationId that two operations share", OpenAPI, true},
		{RuleInternal, "a failure of the generator itself; please report it with the input", Both, true},
		{RuleEmit, "generated code that does not format; please report it with the input", Both, true},

		{RuleRefUnresolved, "a $ref that does not resolve, names a file that cannot be read, or stands for a schema and names no schema", OpenAPI, true},
		{RuleRefExternal, "a $ref to a URL, or to a file outside the folder the spec may reach (-root)", OpenAPI, true},
		{RuleRefCycle, "a chain of $refs that never reaches a definition", OpenAPI, true},

		{RuleUnknownKey, "a key that is not part of the policy vocabulary, with a did-you-mean", Both, false},
		{RuleType, "a policy value of the wrong kind, such as a list where a number belongs", Both, false},
		{RuleDuration, "a duration that does not parse, has no unit, or is negative, zero or too long", Both, false},
		{RuleRange, "a number out of range, base above cap, cap not below timeout, percentiles out of order", Both, false},
		{RuleBreakerWindow, "a breaker window that is not a positive whole number of seconds", Both, false},
		{RuleScope, "a key written at a level where it has no meaning, such as a breaker on one operation", Both, false},
		{RuleRetryUnsafe, "an operation that asks for retries but is not idempotent and sends no key", Both, false},
		{RuleHedgeUnsafe, "an operation that asks for hedging but is not a read", Both, false},
		{RuleHedgeDelay, "hedging without a delay or a measured p95, or a delay the attempt timeout never reaches", Both, false},
		{RuleFallbackUnsafe, "an operation that asks for a fallback but is not a read", Both, false},
		{RuleFallbackValue, "a static fallback without a value, or whose value the response schema rejects", Both, false},
		{RuleFallbackKind, "a fallback setting its kind does not use: a value when not static, shared when not cached", Both, false},
		{RuleFallbackShared, "a cached fallback not declared shared on an operation whose credentials the request does not carry", OpenAPI, false},
		{RuleFleetName, "a fleet store name or key prefix that is empty, too long, of other characters, or an address or credential", Both, false},
		{RuleTimeoutOrder, "an attempt timeout not below the total timeout", Both, false},
		{RuleTimeoutBelowP99, "a timeout or attempt timeout below the measured p99 latency", Both, false},
		{RuleAttemptNeverCut, "a declared attempt timeout that never cuts an attempt: the operation is sent once, or the total leaves no room for a retry after it", Both, false},
		{RuleUnused, "a policy file entry that names no dependency or operation of the input", Both, false},
		{RuleShadowed, "a policy file value that the spec or .proto file overrides, so that it does nothing", Both, false},
		{RuleFallbackJSON, "a static fallback on an operation whose result is not JSON, left out of the client", OpenAPI, false},

		{RuleNameCollision, "two things of the input that map to one Go name", Proto, false},
		{RuleNameReserved, "a name of the input that the generated client uses for itself", Both, false},
		{RuleNameInvalid, "an x-go-name that is not an exported Go identifier, or no name to derive", OpenAPI, false},
		{RuleNameRenamed, "a name of the input, or of the client's own, renamed because another declaration has it", OpenAPI, false},

		{RuleOpenAPIWarning, "a validation finding that leaves the client correct: the document is sloppy but usable", OpenAPI, false},
		{RuleAllOfCycle, "an allOf cycle that cannot be flattened into Go structs", OpenAPI, false},
		{RuleNoOpID, "an operation without operationId, with -strict", OpenAPI, false},
		{RuleNoOpIDWarning, "an operation without operationId, named after its method and path", OpenAPI, false},
		{RuleOpIDConfusable, "two operationIds that differ only in look-alike letters of other scripts", OpenAPI, false},
		{RuleHeaderName, "a header or cookie parameter whose name is not an HTTP token", OpenAPI, false},
		{RuleMediaType, "a sent media type that is not printable ASCII or does not parse, with no valid one beside it (or any, with -strict)", OpenAPI, false},
		{RuleMediaTypeIgnored, "a media type that does not parse beside valid ones, or an empty one, left out", OpenAPI, false},
		{RulePathChar, `a "?" in a path template followed by neither a fixed query nor name={variable} pairs, a "%" that starts no escape`, OpenAPI, false},
		{RulePathDot, `a literal "." or ".." segment in a path template, which servers resolve before routing`, OpenAPI, false},
		{RulePathTemplate, "a path template variable that names no path parameter of the operation", OpenAPI, false},
		{RulePathQuery, `a query after "?" in a path template: fixed pairs sent with every request, name={variable} pairs sent as query parameters`, OpenAPI, false},
		{RulePathFragment, `a fragment after "#" in a path template, which no request carries, left out`, OpenAPI, false},
		{RulePathQueryStrict, `a query after "?" in a path template, with -strict`, OpenAPI, false},
		{RulePathFragmentStrict, `a fragment after "#" in a path template that holds a template variable, whose parameter no request could carry (any fragment, with -strict)`, OpenAPI, false},
		{RuleEnumRange, "an integer enum with a value beyond 32 bits, typed int64", OpenAPI, false},
		{RuleUnsupported, "a construct the client cannot type, kept as raw JSON or left out", OpenAPI, false},
		{RuleParamJSON, "a parameter style the client cannot serialize, sent as JSON text", OpenAPI, false},
		{RuleBodyMultipart, "a multipart request body, sent as raw bytes the caller encodes", OpenAPI, false},
		{RuleResponseRaw, "a form or multipart response body, returned as raw bytes", OpenAPI, false},
		{RuleResponseHeader, "a documented response header of a type the client does not parse, left as text in the result's Header", OpenAPI, false},
		{RuleStreamPolicy, "a hedge or fallback in the policy of a streamed operation, which is never hedged and has no fallback", OpenAPI, false},
		{RuleResponseTypes, "a success response whose body differs from the first success's, decoded as that one", OpenAPI, false},
		{RuleServer, "a relative server URL with no document URL to resolve it", OpenAPI, false},
		{RuleKeywordType, "a schema's pattern written as a number or a boolean, which the loader refuses, left out (E-LOAD with -strict)", OpenAPI, false},
		{RuleRefSchema, "a $ref that stands for a schema and names a parameter, read as the parameter's schema (its items', at the items of an array; E-LOAD with -strict)", OpenAPI, false},
		{RuleRefParameter, "a $ref that stands for a parameter and names a parameter object written under the schemas, read as that object (E-LOAD with -strict)", OpenAPI, false},
		{RuleRefResponse, "a response's $ref that names a schema, read as the response of the same name, or as a JSON answer of that schema (E-LOAD with -strict)", OpenAPI, false},

		{RuleSelectEmpty, "-include and -exclude filters that leave no operation to generate", OpenAPI, false},
		{RuleSelectUnused, "an -include or -exclude filter that selects no operation", OpenAPI, false},

		{RuleRequest, "a request from protoc that the plugin cannot read, such as one with invalid descriptors", Proto, true},
		{RuleParameter, "a plugin parameter that is unknown, or whose value is refused", Proto, false},
		{RuleGoPackage, "a .proto file without a valid Go import path (go_package or an M parameter)", Proto, false},
		{RuleOutputPath, "a Go import path that would put the generated file outside the output directory", Proto, false},
		{RuleEdition, "an edition above 2023", Proto, false},
		{RuleOption, "a resilience option that cannot be read", Proto, false},
		{RuleNoPackage, "a service without a proto package", Proto, false},
		{RuleRetryStream, "retry or hedge settings on a method whose client streams", Proto, false},
		{RuleFallbackStatic, "a static fallback on an RPC, whose value a policy cannot spell as a message", Proto, false},
		{RuleFallbackStream, "a fallback on a streaming method", Proto, false},
		{RuleKeyNotGRPC, "connectTimeout or deadlineHeader written for a gRPC service, left out", Proto, false},
		{RuleMetadataKey, "an idempotency key name that gRPC cannot send as a metadata key", Proto, false},
		{RuleSvcConfig, "a gRPC service config that is not valid JSON, has an unknown field, a value of the wrong type, or names a method twice", Proto, true},
		{RuleSvcUnsafe, "a service config retry or hedging policy on a method that is not idempotent (or, for hedging, not a read), not applied", Proto, false},
		{RuleSvcCodes, "service config retryable status codes the client never retries (AIP-194)", Proto, false},
		{RuleSvcUnused, "a service config name, or an entry without one, that matches no method of the services generated", Proto, false},
		{RuleSvcIgnored, "a service config field the client has no counterpart for, or service configs named in an OpenAPI run, left out", Both, false},
	}
}

// Doc returns what r reports, from [Rules]; empty for a rule that is not
// in the catalogue.
func (r Rule) Doc() RuleDoc {
	for _, d := range Rules() {
		if d.Rule == r {
			return d
		}
	}
	return RuleDoc{}
}

// IsWarning reports whether r is a warning rule ("W-...").
func (r Rule) IsWarning() bool { return len(r) > 2 && r[:2] == "W-" }

// Strict returns the error rule that the warning r becomes when sloppy
// input is refused (oapi-resilient -strict): the warnings of a document
// that breaks the OpenAPI specification or names operations carelessly,
// in ways the client works around. It is empty for every other rule,
// warnings about what the client cannot express included.
func (r Rule) Strict() Rule {
	switch r {
	case RuleOpenAPIWarning:
		return RuleOpenAPI
	case RuleNoOpIDWarning:
		return RuleNoOpID
	case RulePathQuery:
		return RulePathQueryStrict
	case RulePathFragment:
		return RulePathFragmentStrict
	case RuleMediaTypeIgnored:
		return RuleMediaType
	case RuleKeywordType, RuleRefSchema, RuleRefParameter, RuleRefResponse:
		// What the front end repaired is what kin-openapi refuses.
		return RuleLoad
	}
	return ""
}

// Strictly returns d as an error of its rule's [Rule.Strict] rule when it
// is a warning of sloppy input, else d unchanged.
func (d Diagnostic) Strictly() Diagnostic {
	if d.Severity == Warning {
		if s := d.Rule.Strict(); s != "" {
			d.Rule, d.Severity = s, Error
		}
	}
	return d
}
