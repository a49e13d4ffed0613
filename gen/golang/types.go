package golang

import (
	"github.com/dave/jennifer/jen"

	"github.com/resilientgo/resilient/gen/ir"
)

// goType returns the Go type of a type use inside a model: binary data is
// []byte here (bodies stream it instead), any JSON value is
// json.RawMessage, a uuid is a uuid.UUID (github.com/google/uuid), a date
// a runtime Date, a date-time a time.Time, and nullable elements of
// arrays and maps are pointers.
//
// Its complexity is that of a switch dispatch: one case of one line per
// kind of the IR, which reads best as one table.
func (m *models) goType(t *ir.TypeRef) *jen.Statement {
	switch t.Kind {
	case ir.KindBool:
		return jen.Bool()
	case ir.KindInt:
		return jen.Int()
	case ir.KindInt32:
		return jen.Int32()
	case ir.KindInt64:
		return jen.Int64()
	case ir.KindFloat32:
		return jen.Float32()
	case ir.KindFloat64:
		return jen.Float64()
	case ir.KindUint:
		return jen.Uint()
	case ir.KindUint32:
		return jen.Uint32()
	case ir.KindUint64:
		return jen.Uint64()
	case ir.KindString:
		return jen.String()
	case ir.KindUUID:
		return jen.Qual(uuidPath, "UUID")
	case ir.KindDate:
		return cd("Date")
	case ir.KindDateTime:
		return jen.Qual("time", "Time")
	case ir.KindBytes, ir.KindBinary:
		return jen.Index().Byte()
	case ir.KindArray:
		return jen.Index().Add(m.elemType(t.Elem))
	case ir.KindMap:
		return jen.Map(jen.String()).Add(m.elemType(t.Elem))
	case ir.KindNamed:
		return jen.Id(t.Name)
	}
	return jen.Qual("encoding/json", "RawMessage")
}

// uuidPath is the package of the UUID type of format uuid.
const uuidPath = "github.com/google/uuid"

// elemType is the type of an array or map element.
func (m *models) elemType(t *ir.TypeRef) *jen.Statement {
	if t.Nullable && !m.nilable(t) {
		return jen.Op("*").Add(m.goType(t))
	}
	return m.goType(t)
}

// nilable reports whether the Go type of t already has nil (slices, maps,
// raw JSON), so that it needs no pointer to be absent or null.
func (m *models) nilable(t *ir.TypeRef) bool {
	switch t.Kind {
	case ir.KindArray, ir.KindMap, ir.KindAny, ir.KindBytes, ir.KindBinary:
		return true
	case ir.KindNamed:
		if nt := m.types[t.Name]; nt != nil && nt.Kind == ir.TypeAlias && nt.Alias != nil && nt.Alias != t {
			return m.nilable(nt.Alias)
		}
	}
	return false
}

// byValue returns the named type a field or alias holds by value (not
// behind a slice, map or pointer), or nil.
func (m *models) byValue(t *ir.TypeRef) *ir.Type {
	if t.Kind != ir.KindNamed {
		return nil
	}
	nt := m.types[t.Name]
	if nt == nil || nt.Kind == ir.TypeEnum || nt.Kind == ir.TypeUnion {
		return nil
	}
	return nt
}
