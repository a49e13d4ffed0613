package runtime

import (
	"errors"
	"time"

	"github.com/resilientgo/resilient/runtime/outcome"
)

// retryable reports whether the class allows a retry of an eligible call.
func retryable(c outcome.Class) bool {
	return c == outcome.Transient || c == outcome.Throttled || c == outcome.Overloaded
}

// shed reports whether the class is a dependency's refusal for lack of
// capacity ([outcome.Throttled], [outcome.Overloaded]): a sign to send less.
func shed(c outcome.Class) bool { return c == outcome.Throttled || c == outcome.Overloaded }

// breakerFailure reports whether the breaker counts the class as a failure.
func breakerFailure(c outcome.Class) bool { return c == outcome.Transient || c == outcome.Failed }

// classify returns the class of an attempt's error. Attempt-timeout
// classification (which needs the contexts) is done by the caller.
func classify(err error) outcome.Class {
	if c, ok := err.(outcome.Classifier); ok {
		return c.Classify()
	}
	var c outcome.Classifier
	if errors.As(err, &c) {
		return c.Classify()
	}
	return outcome.Transient
}

// retryAfter returns the delay asked for by the dependency, if err carries one.
func retryAfter(err error) (time.Duration, bool) {
	var h outcome.RetryAfterHinter
	if errors.As(err, &h) {
		return h.RetryAfterHint()
	}
	return 0, false
}
