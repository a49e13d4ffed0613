package runtime

import (
	"net/http"
	"slices"
)

// ResponseInfo is what a call's answer said besides its body: the status
// code and the header of the response that gave the result. Fill one with
// [WithResponseInfo].
type ResponseInfo struct {
	// Status is the answer's status code; zero when no answer of the
	// dependency gave the result (a fallback answered, or the call failed).
	Status int
	// Header is the answer's header.
	Header http.Header
}

// WithResponseInfo makes the call store the status code and header of the
// answer that gave its result in info, for the methods that return only
// the decoded body: after a successful call, info describes the attempt
// whose body was decoded. A call with this option is not hedged, so that
// one attempt's answer is the result. info is written by the call only,
// before it returns; a nil info records nothing.
func WithResponseInfo(info *ResponseInfo) CallOption {
	return callOptionFunc(func(o *Operation) {
		if info != nil {
			o.respInfo = info
			o.hedgeDelay = 0
		}
	})
}

// AcceptStatus makes answers with the given statuses outside 2xx results
// rather than errors: [DoHTTP] hands them to decode like a 2xx answer, and
// the breaker counts them as successes. Generated clients use it for a
// documented 304 Not Modified, the answer to a conditional request.
// Statuses in 2xx are always accepted; one below 100 is ignored.
func AcceptStatus(statuses ...int) CallOption {
	s := slices.Clone(statuses)
	return callOptionFunc(func(o *Operation) {
		for _, code := range s {
			if code >= 100 && (code < 200 || code > 299) && !slices.Contains(o.accept, code) {
				o.accept = append(slices.Clip(o.accept), code)
			}
		}
	})
}

// accepts reports whether an answer with status is a result.
func (o *Operation) accepts(status int) bool {
	return status >= 200 && status <= 299 || slices.Contains(o.accept, status)
}
