package policyspec

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// maxQuoted is the most characters of a written value or key that a
// diagnostic quotes.
const maxQuoted = 120

// quoted quotes text from a policy for a message: its first line only, and
// at most maxQuoted characters of that, followed by "…" when cut. A
// diagnostic about a file that is not a policy at all (a key, a
// certificate, a document pointed at by mistake) thus echoes no more than
// the start of its offending line.
func quoted(s string) string { return quotedIn(s, -1) }

// quotedIn is quoted for text written where rest bytes of its source line
// are left (-1 when unknown): text longer than that continues on other
// lines (a folded scalar), and is cut where the line ends.
func quotedIn(s string, rest int) string {
	cut := false
	if rest >= 0 && len(s) > rest {
		for rest > 0 && !utf8.RuneStart(s[rest]) {
			rest--
		}
		s, cut = strings.TrimRight(s[:rest], " "), true
	}
	short, more := firstLine(s)
	q := strconv.Quote(short)
	if cut || more {
		q += "…"
	}
	return q
}

// firstLine returns the first line of s, at most maxQuoted characters of
// it, and whether anything was cut.
func firstLine(s string) (string, bool) { return diag.FirstLine(s, maxQuoted) }
