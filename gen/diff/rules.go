package diff

// RuleDoc describes one rule of the diff.
type RuleDoc struct {
	// ID is the rule id ("WIRE-OP-REMOVED").
	ID string
	// Section is the section its changes go to.
	Section Section
	// Classes are the classes its changes may have.
	Classes []Class
	// Doc says in one sentence what it reports.
	Doc string
}

// Rules returns the catalogue of the diff's rules, by section; the
// package documentation lists the same.
func Rules() []RuleDoc {
	res, gapi, w := SectionResilience, SectionGoAPI, SectionWire
	b, wa, c, r, ch := Breaking, Warning, Compatible, Risk, Changed
	return []RuleDoc{
		{RuleResChanged, res, []Class{ch}, "a value of an operation's resolved policy, or of the dependency's, changed (old → new, with the origin of each)"},
		{RuleResOpAdded, res, []Class{ch}, "a new operation, with its policy"},
		{RuleResOpRemoved, res, []Class{ch}, "an operation is gone, with its policy"},
		{RuleRiskRetryUnsafe, res, []Class{r}, "retries enabled on an operation that was not idempotent"},
		{RuleRiskSentOnce, res, []Class{r}, "an operation that was retried is now sent once"},
		{RuleRiskTimeoutBelowP99, res, []Class{r}, "the total timeout is now below the declared p99 latency"},
		{RuleRiskFallbackRemoved, res, []Class{r}, "a read lost its fallback: callers relying on degraded answers get errors"},
		{RuleRiskKeyLost, res, []Class{r}, "an operation lost its idempotency key"},
		{RuleRiskFallbackShared, res, []Class{r}, "a cached fallback is now shared by all callers"},
		{RuleRiskPolicyRefused, res, []Class{r}, "the new policy breaks a rule generation refuses (E-RETRY-UNSAFE, E-TIMEOUT-BELOW-P99, ...)"},
		{RuleGoRemoved, gapi, []Class{b}, "an exported declaration (type, field, method, function, constant) is gone"},
		{RuleGoAdded, gapi, []Class{c, b}, "an exported declaration is new; breaking when it is a method of an interface"},
		{RuleGoChanged, gapi, []Class{b}, "an exported declaration's type or signature changed"},
		{RuleGoRenamed, gapi, []Class{b}, "an operation's Go method has a new name (W-NAME-RENAMED or a new operationId)"},
		{RuleWireOpRemoved, w, []Class{b}, "an operation or RPC is gone"},
		{RuleWireOpAdded, w, []Class{c}, "a new operation or RPC"},
		{RuleWireOpDeprecated, w, []Class{c}, "an operation or RPC became deprecated"},
		{RuleWireParamAdded, w, []Class{b, c}, "a new parameter: breaking when required"},
		{RuleWireParamRemoved, w, []Class{wa}, "a parameter is gone"},
		{RuleWireParamRequired, w, []Class{b, c}, "a parameter became required (breaking) or optional"},
		{RuleWireParamStyle, w, []Class{b}, "a parameter's style, explode or content type changed"},
		{RuleWireBodyAdded, w, []Class{b, c}, "a request body appeared: breaking when required"},
		{RuleWireBodyRemoved, w, []Class{b}, "the request body is gone: the server may reject requests that send one"},
		{RuleWireBodyRequired, w, []Class{b, c}, "the request body became required (breaking) or optional"},
		{RuleWireMediaAdded, w, []Class{c}, "a new media type of a body"},
		{RuleWireMediaRemoved, w, []Class{b}, "a media type of a body is gone"},
		{RuleWireResponseAdded, w, []Class{wa, c}, "a new response: a warning for a success, compatible for an error"},
		{RuleWireResponseRemoved, w, []Class{b, wa}, "a response is gone: breaking for a success"},
		{RuleWireHeaderRemoved, w, []Class{b, wa}, "a response header is gone (warning) or no longer required (breaking)"},
		{RuleWireTypeChanged, w, []Class{b, wa, c}, "a type, format or union variant changed"},
		{RuleWireNullable, w, []Class{b, c}, "null became possible in an answer, or refused in a request (breaking), or the reverse"},
		{RuleWirePropAdded, w, []Class{b, c}, "a new property: breaking when required in a request"},
		{RuleWirePropRemoved, w, []Class{b, wa, c}, "a property is gone: breaking when it was required in an answer, compatible when it was write-only"},
		{RuleWirePropRequired, w, []Class{b, c}, "a request property became required, or an answer's optional (breaking); the reverse"},
		{RuleWireEnumAdded, w, []Class{wa, c}, "a new enum value: a warning in answers"},
		{RuleWireEnumRemoved, w, []Class{b, c}, "an enum value is gone: breaking in requests, and in answers when none of the old values is left (a const changed)"},
		{RuleWireSecurity, w, []Class{b, c}, "the credentials an operation accepts changed: breaking when the old ones no longer do"},
		{RuleWireServerAdded, w, []Class{c}, "a new server"},
		{RuleWireServerRemoved, w, []Class{wa}, "a server is gone"},
		{RuleWireConstraint, w, []Class{b, wa, c}, "a validation keyword (minimum, maximum, multipleOf, minLength, maxLength, pattern, minItems, maxItems, uniqueItems, minProperties, maxProperties), a JSON Schema 2020 subschema (not, if/then/else, contains, prefixItems, propertyNames, unevaluated*, contentSchema, dependentSchemas, patternProperties, and what is inside them) or an allOf part changed: breaking when stricter in a request or looser in an answer, a warning when a pattern is replaced"},
		{RuleWireDefault, w, []Class{wa, c}, "a default value changed, appeared or is gone: a warning in requests, whose callers leaving the value out get another behaviour"},
		{RuleWireHeaderAdded, w, []Class{c}, "a response header is new"},
		{RuleWireMediaChanged, w, []Class{b, wa, c}, "an answer's media type is written differently: breaking when a parameter (a charset) is gone or changed or a structured suffix dropped, compatible when one is added"},
		{RuleWireReadOnly, w, []Class{b, c}, "a property's readOnly or writeOnly changed: breaking when a required request property is no longer read-only, or a required answer property became write-only"},
		{RuleWireDeprecated, w, []Class{c}, "a parameter or property became deprecated"},
		{RuleProtoFieldRemoved, w, []Class{b, wa}, "a message field is gone: breaking unless its number is reserved (buf FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED)"},
		{RuleProtoFieldAdded, w, []Class{c}, "a new message field"},
		{RuleProtoFieldType, w, []Class{b, wa}, "a field's type changed: a warning within one wire encoding (buf FIELD_WIRE_COMPATIBLE_TYPE)"},
		{RuleProtoFieldName, w, []Class{wa}, "a field number has a new name: JSON and Go break, the binary wire does not (buf FIELD_SAME_NAME, FIELD_SAME_JSON_NAME)"},
		{RuleProtoFieldCardinality, w, []Class{b}, "a field became repeated, singular or a map (buf FIELD_WIRE_COMPATIBLE_CARDINALITY)"},
		{RuleProtoFieldOneof, w, []Class{b}, "a field moved into or out of a oneof (buf FIELD_SAME_ONEOF)"},
		{RuleProtoEnumValueRemoved, w, []Class{b, wa, c}, "an enum value is gone: breaking in requests unless its number is reserved (buf ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED)"},
		{RuleProtoEnumValueAdded, w, []Class{wa, c}, "a new enum value: a warning in answers"},
		{RuleProtoMethodType, w, []Class{b}, "an RPC takes or returns another message (buf RPC_SAME_REQUEST_TYPE, RPC_SAME_RESPONSE_TYPE)"},
		{RuleProtoStreaming, w, []Class{b}, "an RPC's streaming changed (buf RPC_SAME_CLIENT_STREAMING, RPC_SAME_SERVER_STREAMING)"},
		{RuleProtoIdempotency, w, []Class{b}, "an RPC's idempotency_level changed (buf RPC_SAME_IDEMPOTENCY_LEVEL)"},
	}
}
