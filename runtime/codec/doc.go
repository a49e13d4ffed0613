// Package codec holds what generated clients call to put a request on the
// wire and read an answer back: parameter text ([ParamText]), path checks
// ([CheckPath]), form and multipart bodies ([AddFormJSON], [Multipart],
// [File], [PartHeader]), bodies the pipeline can replay ([SetBody]),
// cookies ([AddCookie]), credentials placed in a header, a query
// parameter or a cookie ([BearerToken], [BasicAuth], [APIKeyHeader] and
// the like, each a runtime.RequestEditor), typed header fields of an
// answer ([HeaderDecoder]), the checked base URL of a client
// ([ParseBaseURL]), idempotency keys ([NewIdempotencyKey]), and the model
// types [Nullable] (absent, null or set) and [Date] (a civil date in the
// "date" format).
//
// Generated code imports it under the fixed name codec. Its values appear
// in generated models and options, so users meet [Nullable], [Date] and
// [File]; the rest is for the generated code. It imports nothing of the
// runtime package, which runs the calls (and imports it for the keys).
package codec
