package openapi

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/resilientgo/resilient/gen/golang/naming"
	"github.com/resilientgo/resilient/gen/ir"
)

// defineEnum fills in a string or integer enum. Each constant is named
// after the type and the value ("PetStatus" + "in-stock" →
// "PetStatusInStock"); values that give no name, or the same name as an
// earlier one, are numbered.
func (b *builder) defineEnum(t *ir.Type, s *openapi3.Schema) {
	base, _ := enumBase(s)
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
