package openapi

import (
	"fmt"
	"math"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// defineEnum fills in a string or integer enum. Each constant is named
// after the type and the value ("PetStatus" + "in-stock" →
// "PetStatusInStock"); values that give no name, or the same name as an
// earlier one, are numbered.
func (b *builder) defineEnum(t *ir.Type, s *openapi3.Schema) {
	base, _ := enumBase(s)
	base = b.enumWidth(t, base, enumValues(s))
	t.Kind = ir.TypeEnum
	t.Enum = &ir.Enum{Base: base}
	seen := map[string]bool{}
	for i, v := range enumValues(s) {
		var value any
		var word string
		if base == ir.KindString {
			str, _ := v.(string)
			value, word = str, naming.Part(str)
			if str == "" {
				word = "Empty"
			}
		} else {
			n, _ := asInt(v)
			value, word = n, fmt.Sprint(n)
			if n < 0 {
				word = "Minus" + fmt.Sprint(-n)
			}
		}
		if word == "" || seen[word] {
			word = "Value" + itoa(i)
		}
		seen[word] = true
		t.Enum.Values = append(t.Enum.Values, &ir.EnumValue{
			Name:  b.pkg.derive(t.Name+word, t.Location.Path),
			Value: value,
		})
	}
}

// enumWidth returns the Go kind of an integer enum: its own, unless a value
// does not fit in 32 bits, when a constant of an int32 (or of int, which
// has 32 bits on some platforms) would not compile; the enum is then an
// int64, with a warning (W-ENUM-RANGE).
func (b *builder) enumWidth(t *ir.Type, base ir.Kind, values []any) ir.Kind {
	if base != ir.KindInt32 && base != ir.KindInt {
		return base
	}
	for _, v := range values {
		n, _ := asInt(v)
		if n >= math.MinInt32 && n <= math.MaxInt32 {
			continue
		}
		what := "format int32"
		if base == ir.KindInt {
			what = "no format (Go int, 32 bits on some platforms)"
		}
		b.diags.Warnf(t.Location, diag.RuleEnumRange,
			fmt.Sprintf("enum %s has %s but the value %d does not fit in 32 bits; its Go type is int64", t.Name, what, n),
			"declare format: int64, or remove the value")
		return ir.KindInt64
	}
	return base
}
