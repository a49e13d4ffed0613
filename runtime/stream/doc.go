// Package stream reads the items of a streamed HTTP answer as they
// arrive: server-sent events ([NewEvents]), JSON Lines and NDJSON
// ([NewJSONLines]) and JSON text sequences ([NewJSONSeq]), each item
// decoded into a typed value and handed over by a [Stream].
//
// The answer usually comes from the core runtime's DoHTTPStream, which
// ends its call, and gives back the bulkhead permit, when the stream ends;
// its body bounds each item by the client's MaxResponseBody. Generated
// clients import this package as stream: the result of a method whose
// answer is streamed carries a *Stream. The package imports nothing of the
// core runtime.
package stream
