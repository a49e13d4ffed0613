package ir

import "github.com/resilientgo/resilient/policyspec/diag"

// Kind is the shape of a [TypeRef].
type Kind int

// Type kinds.
const (
	// KindAny is any JSON value, kept undecoded.
	KindAny Kind = iota + 1
	KindBool
	// KindInt is an integer without a format.
	KindInt
	KindInt32
	KindInt64
	KindFloat32
	// KindFloat64 is a number without a format or with format double.
	KindFloat64
	KindString
	// KindDateTime is an RFC 3339 date-time.
	KindDateTime
	// KindDate is an RFC 3339 full-date ("2006-01-02").
	KindDate
	// KindBytes is base64-encoded binary data inside JSON (format byte).
	KindBytes
	// KindBinary is raw binary data: a byte stream as a body, bytes in a
	// model.
	KindBinary
	// KindArray is a list of Elem.
	KindArray
	// KindMap is an object with string keys and Elem values.
	KindMap
	// KindNamed refers to the [Type] called Name in the same service.
	KindNamed
	// KindUUID is a string of format uuid (RFC 9562).
	KindUUID
	// KindUint is an integer of format uint (or a non-negative integer
	// kind written as such).
	KindUint
	// KindUint32 is an integer of format uint32 (uint8 and uint16 too).
	KindUint32
	// KindUint64 is an integer of format uint64.
	KindUint64
)

// TypeRef is a use of a type.
type TypeRef struct {
	Kind Kind
	// Elem is the element type of arrays and maps.
	Elem *TypeRef
	// Name is the referenced type of KindNamed.
	Name string
	// Format is the schema format as written ("uuid", "email"), kept for
	// documentation and validation; it does not change Kind.
	Format string
	// Nullable reports that JSON null is a valid value.
	Nullable bool
	// Constraints are the validation keywords of the schema (minimum,
	// maxLength, pattern...); nil when it has none. Generation does not
	// use them.
	Constraints *Constraints
	// Default is the schema's default value as compact JSON; empty when
	// it has none. Generation does not use it.
	Default string
}

// TypeKind is what a named [Type] is.
type TypeKind int

// Named type kinds.
const (
	// TypeStruct is an object with known properties.
	TypeStruct TypeKind = iota + 1
	// TypeEnum is a string or integer with a closed set of values.
	TypeEnum
	// TypeUnion holds exactly one of several variants (oneOf / anyOf).
	TypeUnion
	// TypeAlias is a named definition of another type (an array, a map, a
	// scalar or another named type).
	TypeAlias
)

// Type is a named type.
type Type struct {
	// Name is the exported Go identifier, unique in the service.
	Name string
	Kind TypeKind
	// Title and Doc come from the schema's title and description.
	Title string
	Doc   string
	// Deprecated reports the schema's deprecated flag.
	Deprecated bool
	// Fields of a TypeStruct, in source order (allOf parts in order).
	Fields []*Field
	// Enum describes a TypeEnum.
	Enum *Enum
	// Union describes a TypeUnion.
	Union *Union
	// Alias is the definition of a TypeAlias.
	Alias *TypeRef
	// Renamed says why Name is not the name the schema gives, for the
	// type's doc comment; empty when it is.
	Renamed string
	diag.Location
}

// Field is a property of a struct.
type Field struct {
	// Name is the exported Go identifier, unique in the struct.
	Name string
	// JSONName is the property name on the wire.
	JSONName string
	Type     *TypeRef
	// Required reports that the property must be present.
	Required   bool
	Doc        string
	ReadOnly   bool
	WriteOnly  bool
	Deprecated bool
	diag.Location
}

// Enum is the value set of a [TypeEnum].
type Enum struct {
	// Base is KindString or an integer kind.
	Base   Kind
	Values []*EnumValue
}

// EnumValue is one member of an enum.
type EnumValue struct {
	// Name is the constant's exported Go identifier, unique in the
	// service: the type name followed by the mangled value.
	Name string
	// Value is a string for string enums and an int64 for integer enums.
	Value any
}

// Union is the variant set of a [TypeUnion].
type Union struct {
	// OneOf is true for oneOf (exactly one variant matches) and false for
	// anyOf.
	OneOf bool
	// Variants are in document order.
	Variants []*Variant
	// Discriminator is the property naming the variant; empty when the
	// schema has no discriminator.
	Discriminator string
}

// Variant is one alternative of a union.
type Variant struct {
	// Name is the variant's exported identifier inside the union (used in
	// AsName / FromName), unique in the union.
	Name string
	Type *TypeRef
	// Tags are the discriminator values selecting this variant, sorted.
	Tags []string
}
