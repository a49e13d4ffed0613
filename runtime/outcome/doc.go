// Package outcome names what became of an attempt, as the pipeline of the
// core runtime package reads it from the attempt's error: its [Class]
// (whether it may be retried, whether the breaker counts it, whether the
// dependency is shedding load) and its [Delivery] (whether the request
// may have been applied). Errors say so by implementing [Classifier],
// [DeliveryReporter] and [RetryAfterHinter], as the runtime's own
// answers do; an attempt written by hand can mark its own side's failures
// with [MarkPermanent].
//
// Users meet its values in the runtime's errors and observer events
// (a RemoteError's Class, an AttemptEvent's Class), as gRPC users meet
// codes.Code. It imports nothing of the runtime.
package outcome
