package runtime

import (
	"context"
	"log/slog"
	"time"

	"github.com/resilientgo/resilient/runtime/fallbackstore"
)

// Option configures a [Dependency].
type Option interface {
	applyDependency(*Dependency)
}

type optionFunc func(*Dependency)

func (f optionFunc) applyDependency(d *Dependency) { f(d) }

// WithObserver sets the observer of the dependency's calls. The default
// observes nothing.
func WithObserver(o Observer) Option {
	return optionFunc(func(d *Dependency) {
		if o != nil {
			d.observer, d.observed = o, true
		}
	})
}

// WithLogger sets the logger that breaker transitions are written to. The
// default is [slog.Default] at the time of [NewDependency].
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(d *Dependency) {
		if l != nil {
			d.logger = l
		}
	})
}

// WithFallbackStore sets where last-known-good answers are kept for cached
// fallbacks. The default is a [fallbackstore.Memory] of
// [fallbackstore.DefaultMemorySize] entries per dependency.
func WithFallbackStore(s fallbackstore.Store) Option {
	return optionFunc(func(d *Dependency) {
		if s != nil {
			d.store = s
		}
	})
}

// WithFallbackPartition partitions the cached fallback answers of the
// dependency's operations by what f returns for the call's context, such
// as the signed-in user or tenant that a middleware put there: a cached
// answer is served only to a call whose partition is the one it was stored
// under. Use it when credentials reach the dependency in a way the request
// key cannot see (a Doer or per-RPC credentials that add them), or to keep
// users apart even for answers declared shared. f must be cheap and safe
// for concurrent use; it is called only by operations that cache. Nil, the
// default, partitions nothing.
func WithFallbackPartition(f func(context.Context) string) Option {
	return optionFunc(func(d *Dependency) { d.partition = f })
}

// CallOption overrides part of an operation's policy for the calls made
// with the [Operation] that [Operation.With] returns.
type CallOption interface {
	applyCall(*Operation)
}

type callOptionFunc func(*Operation)

func (f callOptionFunc) applyCall(o *Operation) { f(o) }

// WithTimeout overrides the total timeout (retries and backoff included).
// It is a declared timeout: it caps every call, a caller's later deadline
// included ([OperationPolicy.KeepCallerDeadline] no longer applies). Zero
// or a negative d leaves the operation's own. An attempt timeout that is
// then no longer below the total is dropped (see [Operation.With]).
func WithTimeout(d time.Duration) CallOption {
	return callOptionFunc(func(o *Operation) {
		if d > 0 {
			o.timeout, o.keepCallerDeadline, o.guessedAttempts = d, false, false
		}
	})
}

// WithAttemptTimeout overrides the per-attempt timeout; zero removes it,
// as zero in [OperationPolicy.AttemptTimeout] means none. One that is not
// below the total timeout is dropped (see [Operation.With]).
func WithAttemptTimeout(d time.Duration) CallOption {
	return callOptionFunc(func(o *Operation) {
		if d >= 0 {
			o.attemptTimeout, o.guessedAttempts = d, false
		}
	})
}

// WithMaxRetries overrides the number of retries after the first attempt.
// n is read as [RetryPolicy.MaxRetries] is: zero means
// [DefaultMaxRetries]. Turn retries off with [WithoutRetries] (a negative n,
// which a policy refuses, also means none). It never makes a
// non-idempotent operation retry.
func WithMaxRetries(n int) CallOption {
	return callOptionFunc(func(o *Operation) {
		switch {
		case n == 0:
			o.maxRetries = DefaultMaxRetries
		case n < 0:
			o.maxRetries = 0
		default:
			o.maxRetries = n
		}
	})
}

// WithoutRetries disables retries: the call makes one attempt (and its
// hedges, for a hedged read).
func WithoutRetries() CallOption {
	return callOptionFunc(func(o *Operation) { o.maxRetries = 0 })
}

// WithoutHedging disables hedging.
func WithoutHedging() CallOption {
	return callOptionFunc(func(o *Operation) { o.hedgeDelay = 0 })
}

// WithFallbackKey partitions the cached fallback answers of the calls
// made with this option by k, on top of the request key and the
// dependency's partition: a cached answer is served only to a call with
// the same k. Empty k partitions nothing.
func WithFallbackKey(k string) CallOption {
	return callOptionFunc(func(o *Operation) { o.fallbackKey = k })
}

// WithoutFallback disables the fallback: failures are returned as errors.
func WithoutFallback() CallOption {
	return callOptionFunc(func(o *Operation) { o.fallback = FallbackPolicy{} })
}
