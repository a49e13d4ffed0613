// Package server is the server side of a service that runtime clients
// call: [DeadlineMiddleware] turns the caller's time budget, which a
// runtime.HTTPClient sends in [DefaultDeadlineHeader], into the deadline of
// the request's context, and a [Shedder] sheds the load the service cannot
// serve in time, with fast 503 (or 429) answers and Retry-After.
//
// Put the middleware outermost, then the shedder, then the handler:
//
//	shedder := server.NewShedder(server.ShedConfig{MaxConcurrent: 64,
//		Exempt: server.ExemptPaths("/healthz")})
//	http.ListenAndServe(addr, server.DeadlineMiddleware(shedder.Handler(mux)))
//
// It imports nothing of the runtime package: a service that is called,
// and calls nothing itself, needs only this package.
package server

// DefaultDeadlineHeader is the request header [DeadlineMiddleware] reads
// the caller's budget from unless [WithDeadlineHeader] says otherwise:
// runtime.DefaultDeadlineHeader, the header a runtime.HTTPClient sends.
const DefaultDeadlineHeader = "X-Request-Deadline"
