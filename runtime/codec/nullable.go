package codec

import (
	"bytes"
	"encoding/json"
)

// Nullable is a value that JSON can leave out, set to null, or set: the
// three states of an OpenAPI property that is both optional and nullable
// (3.0 nullable: true, 3.1 type: [T, "null"]), which a pointer cannot
// tell apart. The zero value is absent.
//
// Declare the field with the omitzero option, so that an absent value is
// left out when marshalling, and a null one written as null:
//
//	Nickname codec.Nullable[string] `json:"nickname,omitzero"`
//
// With omitempty instead (which never leaves out a struct), or with no
// option, an absent value is written as null, like a null one. Unmarshalling
// tells the three apart either way: a missing key leaves the zero value
// (absent), null gives a null one, anything else a set one.
//
// A Nullable is a value type; it is safe for concurrent reads.
type Nullable[T any] struct {
	value T
	state nullState
}

type nullState uint8

const (
	nullAbsent nullState = iota
	nullNull
	nullSet
)

// NewNullable returns a Nullable set to v.
func NewNullable[T any](v T) Nullable[T] { return Nullable[T]{value: v, state: nullSet} }

// Null returns a Nullable set to null.
func Null[T any]() Nullable[T] { return Nullable[T]{state: nullNull} }

// Get returns the value and true when it is set; the zero T and false when
// it is null or absent.
func (n Nullable[T]) Get() (T, bool) { return n.value, n.state == nullSet }

// IsNull reports whether the value is null.
func (n Nullable[T]) IsNull() bool { return n.state == nullNull }

// IsSet reports whether the value is present: set or null.
func (n Nullable[T]) IsSet() bool { return n.state != nullAbsent }

// IsZero reports whether the value is absent, for the omitzero option of
// encoding/json.
func (n Nullable[T]) IsZero() bool { return n.state == nullAbsent }

// Ptr returns a pointer to a copy of the value when it is set, nil when it
// is null or absent.
func (n Nullable[T]) Ptr() *T {
	if n.state != nullSet {
		return nil
	}
	v := n.value
	return &v
}

// MarshalJSON writes the value, or null when it is null or absent.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if n.state != nullSet {
		return []byte("null"), nil
	}
	return json.Marshal(n.value)
}

// UnmarshalJSON reads null as a null value and anything else as a set
// one.
func (n *Nullable[T]) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		var zero T
		n.value, n.state = zero, nullNull
		return nil
	}
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	n.value, n.state = v, nullSet
	return nil
}
