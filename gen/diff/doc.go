// Package diff compares two versions of an API, OpenAPI documents or
// .proto descriptor sets, as the clients generated from them see it, and
// reports the changes in three sections:
//
//   - Resilience: every value of each operation's resolved policy that
//     changed (idempotency, attempts, backoff, total and attempt timeouts,
//     hedging, fallback and its partition, idempotency key, credentials)
//     and of the dependency's (breaker, bulkhead, retry budget, fleet,
//     deadline header), old → new, each with its origin as the review
//     table gives it ("operation at openapi.yaml:40:7", "derived: p99.9
//     350ms × 1.2, rounded up"), and the changes that raise risk, flagged
//     RISK-*;
//   - Go API: the exported declarations of the generated package that
//     were removed, added, changed or renamed, each breaking or
//     compatible, and the semver bump they imply ([Report.Semver]);
//   - Wire: what a client sends and receives: operations, parameters,
//     bodies, responses and their headers, security and its scopes,
//     servers, property by property with their validation keywords
//     (ranges, lengths, patterns, item counts) and defaults, in the
//     direction each travels (a property removed from an answer is not the
//     same change as one removed from a request), modelled on oasdiff's
//     rules for what concerns a client; for proto, fields by number, types,
//     methods and streaming, after buf breaking's FILE and WIRE
//     categories.
//
// [Compare] compares OpenAPI versions ([Input], from openapigen.Snapshot),
// [CompareProto] proto versions ([ProtoInput], from
// protocgen.NewProtoSnapshot). Operations are matched by method and path
// template (path parameter names aside) or by gRPC full method; properties
// by JSON name, proto fields by number. A named type is compared once per
// pair of versions and direction, and its changes reported at every
// operation that uses it.
//
// # Classes
//
// breaking: a caller's code stops compiling, or what the old client sends
// or expects is no longer valid; warning: may break some callers;
// compatible: nothing a caller relies on changes; risk: a resilience
// change that can hurt the dependency or the caller; changed: a
// resilience change with no known risk. [Report.Fails] fails on breaking
// and risk ([FailOnRisk]), breaking only, or nothing.
//
// # Rules
//
// Each rule id, with the classes it may give.
//
// Resilience:
//
//	RES-CHANGED                  a value of an operation's resolved policy, or of
//	                             the dependency's, changed (old → new, with the
//	                             origin of each) [changed]
//	RES-OP-ADDED                 a new operation, with its policy [changed]
//	RES-OP-REMOVED               an operation is gone, with its policy [changed]
//	RISK-RETRY-NOT-IDEMPOTENT    retries enabled on an operation that was not
//	                             idempotent [risk]
//	RISK-SENT-ONCE               an operation that was retried is now sent once
//	                             [risk]
//	RISK-TIMEOUT-BELOW-P99       the total timeout is now below the declared p99
//	                             latency [risk]
//	RISK-FALLBACK-REMOVED        a read lost its fallback: callers relying on
//	                             degraded answers get errors [risk]
//	RISK-IDEMPOTENCY-KEY-LOST    an operation lost its idempotency key [risk]
//	RISK-FALLBACK-SHARED         a cached fallback is now shared by all callers
//	                             [risk]
//	RISK-POLICY-REFUSED          the new policy breaks a rule generation refuses
//	                             (E-RETRY-UNSAFE, E-TIMEOUT-BELOW-P99, ...) [risk]
//
// Go API:
//
//	GO-REMOVED                   an exported declaration (type, field, method,
//	                             function, constant) is gone [breaking]
//	GO-ADDED                     an exported declaration is new; breaking when it
//	                             is a method of an interface [compatible/breaking]
//	GO-CHANGED                   an exported declaration's type or signature
//	                             changed [breaking]
//	GO-RENAMED                   an operation's Go method has a new name (W-NAME-
//	                             RENAMED or a new operationId) [breaking]
//
// Wire:
//
//	WIRE-OP-REMOVED              an operation or RPC is gone [breaking]
//	WIRE-OP-ADDED                a new operation or RPC [compatible]
//	WIRE-OP-DEPRECATED           an operation or RPC became deprecated [compatible]
//	WIRE-PARAM-ADDED             a new parameter: breaking when required
//	                             [breaking/compatible]
//	WIRE-PARAM-REMOVED           a parameter is gone [warning]
//	WIRE-PARAM-REQUIRED          a parameter became required (breaking) or optional
//	                             [breaking/compatible]
//	WIRE-PARAM-STYLE             a parameter's style, explode or content type
//	                             changed [breaking]
//	WIRE-BODY-ADDED              a request body appeared: breaking when required
//	                             [breaking/compatible]
//	WIRE-BODY-REMOVED            the request body is gone: the server may reject
//	                             requests that send one [breaking]
//	WIRE-BODY-REQUIRED           the request body became required (breaking) or
//	                             optional [breaking/compatible]
//	WIRE-MEDIA-TYPE-ADDED        a new media type of a body [compatible]
//	WIRE-MEDIA-TYPE-REMOVED      a media type of a body is gone [breaking]
//	WIRE-RESPONSE-ADDED          a new response: a warning for a success,
//	                             compatible for an error [warning/compatible]
//	WIRE-RESPONSE-REMOVED        a response is gone: breaking for a success
//	                             [breaking/warning]
//	WIRE-RESPONSE-HEADER-REMOVED a response header is gone (warning) or no longer
//	                             required (breaking) [breaking/warning]
//	WIRE-TYPE-CHANGED            a type, format or union variant changed
//	                             [breaking/warning/compatible]
//	WIRE-NULLABLE                null became possible in an answer, or refused in a
//	                             request (breaking), or the reverse
//	                             [breaking/compatible]
//	WIRE-PROPERTY-ADDED          a new property: breaking when required in a
//	                             request [breaking/compatible]
//	WIRE-PROPERTY-REMOVED        a property is gone: breaking when it was required
//	                             in an answer, compatible when it was write-only
//	                             [breaking/warning/compatible]
//	WIRE-PROPERTY-REQUIRED       a request property became required, or an answer's
//	                             optional (breaking); the reverse
//	                             [breaking/compatible]
//	WIRE-ENUM-VALUE-ADDED        a new enum value: a warning in answers
//	                             [warning/compatible]
//	WIRE-ENUM-VALUE-REMOVED      an enum value is gone: breaking in requests, and
//	                             in answers when none of the old values is left
//	                             (a const changed) [breaking/compatible]
//	WIRE-SECURITY                the credentials an operation accepts changed:
//	                             breaking when the old ones no longer do
//	                             [breaking/compatible]
//	WIRE-MEDIA-TYPE-CHANGED      an answer's media type is written differently:
//	                             breaking when a parameter (a charset) is gone or
//	                             changed or a structured suffix dropped,
//	                             compatible when one is added
//	                             [breaking/warning/compatible]
//	WIRE-RESPONSE-HEADER-ADDED   a response header is new [compatible]
//	WIRE-PROPERTY-READ-ONLY      a property's readOnly or writeOnly changed:
//	                             breaking when a required request property is no
//	                             longer read-only, or a required answer property
//	                             became write-only [breaking/compatible]
//	WIRE-DEPRECATED              a parameter or property became deprecated
//	                             [compatible]
//	WIRE-CONSTRAINT              a validation keyword (minimum, maximum,
//	                             multipleOf, minLength, maxLength, pattern,
//	                             minItems, maxItems, uniqueItems, minProperties,
//	                             maxProperties), a JSON Schema 2020 subschema (not,
//	                             if/then/else, contains, prefixItems,
//	                             propertyNames, unevaluated*, contentSchema,
//	                             dependentSchemas, patternProperties, and what is
//	                             inside them) or an allOf part changed: breaking
//	                             when stricter in a request or looser in an
//	                             answer, a warning when a pattern is replaced
//	                             [breaking/warning/compatible]
//	WIRE-DEFAULT                 a default value changed, appeared or is gone: a
//	                             warning in requests, whose callers leaving the
//	                             value out get another behaviour
//	                             [warning/compatible]
//	WIRE-SERVER-ADDED            a new server [compatible]
//	WIRE-SERVER-REMOVED          a server is gone [warning]
//	PROTO-FIELD-REMOVED          a message field is gone: breaking unless its
//	                             number is reserved (buf
//	                             FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED)
//	                             [breaking/warning]
//	PROTO-FIELD-ADDED            a new message field [compatible]
//	PROTO-FIELD-TYPE             a field's type changed: a warning within one wire
//	                             encoding (buf FIELD_WIRE_COMPATIBLE_TYPE)
//	                             [breaking/warning]
//	PROTO-FIELD-NAME             a field number has a new name: JSON and Go break,
//	                             the binary wire does not (buf FIELD_SAME_NAME,
//	                             FIELD_SAME_JSON_NAME) [warning]
//	PROTO-FIELD-CARDINALITY      a field became repeated, singular or a map (buf
//	                             FIELD_WIRE_COMPATIBLE_CARDINALITY) [breaking]
//	PROTO-FIELD-ONEOF            a field moved into or out of a oneof (buf
//	                             FIELD_SAME_ONEOF) [breaking]
//	PROTO-ENUM-VALUE-REMOVED     an enum value is gone: breaking in requests unless
//	                             its number is reserved (buf
//	                             ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED)
//	                             [breaking/warning/compatible]
//	PROTO-ENUM-VALUE-ADDED       a new enum value: a warning in answers
//	                             [warning/compatible]
//	PROTO-METHOD-TYPE            an RPC takes or returns another message (buf
//	                             RPC_SAME_REQUEST_TYPE, RPC_SAME_RESPONSE_TYPE)
//	                             [breaking]
//	PROTO-STREAMING              an RPC's streaming changed (buf
//	                             RPC_SAME_CLIENT_STREAMING,
//	                             RPC_SAME_SERVER_STREAMING) [breaking]
//	PROTO-IDEMPOTENCY-LEVEL      an RPC's idempotency_level changed (buf
//	                             RPC_SAME_IDEMPOTENCY_LEVEL) [breaking]
//
// # JSON
//
// [Report.JSON] writes one object, schema "resilient.diff/v1"
// ([SchemaVersion]; the JSON Schema is report.schema.json beside this
// file); fields are only ever added under this name:
//
//	{
//	  "schema":  "resilient.diff/v1",
//	  "old":     "OLD as given",
//	  "new":     "NEW as given",
//	  "summary": {"breaking": 0, "risk": 0, "warning": 0, "compatible": 0,
//	              "changed": 0, "semver": "none|patch|minor|major"},
//	  "changes": [{
//	    "section":   "resilience|goapi|wire",
//	    "rule":      "RULE-ID",
//	    "class":     "breaking|warning|compatible|risk|changed",
//	    "operation": "GET /pets/{id}, /pkg.Service/Method, or the Go declaration (\"method Client.GetPet\"); absent for the whole API",
//	    "subject":   "what changed within it (\"query parameter limit\"); may be absent",
//	    "old":       "value before; absent when none",
//	    "new":       "value after; absent when none",
//	    "oldOrigin": "where the old resilience value came from; may be absent",
//	    "newOrigin": "where the new one comes from; may be absent",
//	    "message":   "one sentence: what the change means"
//	  }]
//	}
//
// Changes are sorted by section (resilience, goapi, wire), operation,
// subject and rule.
package diff
