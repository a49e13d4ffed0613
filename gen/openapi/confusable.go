package openapi

import (
	"fmt"
	"strings"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// ruleConfusable: two operationIds that differ only in letters of other
// scripts that look like Latin ones.
const ruleConfusable = diag.RuleOpIDConfusable

// lookAlikes maps Cyrillic and Greek letters to the Latin letter they are
// drawn like in most fonts.
var lookAlikes = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x',
	'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ӏ': 'l', 'ɡ': 'g',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P',
	'С': 'C', 'Т': 'T', 'Х': 'X', 'У': 'Y', 'І': 'I', 'Ј': 'J', 'Ѕ': 'S', 'Ԛ': 'Q', 'Ԝ': 'W',
	// Greek
	'α': 'a', 'ο': 'o', 'ν': 'v', 'ρ': 'p', 'ι': 'i', 'κ': 'k', 'υ': 'u', 'χ': 'x',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M',
	'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
}

// skeleton returns s with each look-alike letter replaced by the Latin
// letter it resembles, and fullwidth ASCII forms by ASCII.
func skeleton(s string) string {
	return strings.Map(func(r rune) rune {
		if l, ok := lookAlikes[r]; ok {
			return l
		}
		if r >= '！' && r <= '～' {
			return r - '！' + '!'
		}
		return r
	}, s)
}

// checkConfusableIDs warns about each operationId that reads the same as
// an earlier one while differing in look-alike letters: a caller would
// take one method for the other.
func (b *builder) checkConfusableIDs(ops []*ir.Operation) {
	first := map[string]*ir.Operation{}
	for _, o := range ops {
		if o.ID == "" {
			continue
		}
		key := skeleton(o.ID)
		prev, ok := first[key]
		if !ok {
			first[key] = o
			continue
		}
		if prev.ID == o.ID {
			continue
		}
		b.diags.Warnf(o.Location, ruleConfusable,
			fmt.Sprintf("operationId %q (%s %s) looks like operationId %q (%s %s): they differ only in look-alike letters (%s)",
				o.ID, o.Method, o.Path, prev.ID, prev.Method, prev.Path, differing(prev.ID, o.ID)),
			"rename one of them with letters that look different")
	}
}

// differing lists the code points of a and b that are not alike, as U+XXXX.
func differing(a, b string) string {
	var out []string
	seen := map[rune]bool{}
	for _, s := range []string{a, b} {
		for _, r := range s {
			if _, ok := lookAlikes[r]; (ok || r >= '！' && r <= '～') && !seen[r] {
				seen[r] = true
				out = append(out, fmt.Sprintf("%q is U+%04X", string(r), r))
			}
		}
	}
	return strings.Join(out, ", ")
}
