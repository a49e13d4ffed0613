package policyspec

import (
	"fmt"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// Origin says how a resolved value was chosen.
type Origin uint8

const (
	// OriginDefault is a built-in default of the resilience-patterns table,
	// or the idempotency the caller gave for the operation's method.
	OriginDefault Origin = iota
	// OriginGuess is a value that should come from measured latency but was
	// chosen without it.
	OriginGuess
	// OriginDerived is computed from measured latency or from other
	// settings; Basis says how.
	OriginDerived
	// OriginSet is written at a layer; Layer and Loc say where.
	OriginSet
)

// String returns "default", "guess", "derived" or "set".
func (o Origin) String() string {
	switch o {
	case OriginGuess:
		return "guess"
	case OriginDerived:
		return "derived"
	case OriginSet:
		return "set"
	}
	return "default"
}

// Source is the provenance of one resolved value, for the review and for
// messages.
type Source struct {
	// Origin says how the value was chosen.
	Origin Origin
	// Layer is the layer that set the value (OriginSet).
	Layer LayerKind
	// Loc is where the value was written (OriginSet).
	Loc diag.Location
	// Basis says how a derived or guessed value was computed, such as
	// "p99.9 350ms × 1.2, rounded up".
	Basis string
}

// String describes the source: "operation at api.yaml:12:5",
// "derived: p99.9 350ms × 1.2, rounded up", "guess: no latency data" or
// "default".
func (s Source) String() string {
	switch s.Origin {
	case OriginSet:
		if loc := s.Loc.String(); loc != "" {
			return fmt.Sprintf("%s at %s", s.Layer, loc)
		}
		return s.Layer.String()
	case OriginDefault:
		if s.Basis != "" {
			return "default: " + s.Basis
		}
		return "default"
	}
	return s.Origin.String() + ": " + s.Basis
}

// sourceOf returns the source of a merged field: where it was set, or a
// built-in default.
func sourceOf(f field) Source {
	if loc, set := f.where(); set {
		return Source{Origin: OriginSet, Layer: f.from(), Loc: loc}
	}
	return Source{Origin: OriginDefault}
}
