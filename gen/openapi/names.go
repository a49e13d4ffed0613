package openapi

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// reservedOwner owns the names the generated client declares for itself.
const reservedOwner = "the generated client"

// maxDerivedName bounds the length of a name the generator derives. An
// inline schema is named after the type holding it plus one word, so
// without a bound every level of nesting would repeat the whole path
// before it and the generated file would grow with the square of the
// depth. The longest names of the corpus (Stripe's, 177 bytes) stay
// below it.
const maxDerivedName = 200

// namespace hands out Go identifiers in one scope. Names written in the
// spec are claimed and clash as errors; names the generator derives get a
// numeric suffix instead.
type namespace struct {
	owners map[string]string
	// next is, per base, the first numeric suffix derive has not tried,
	// so that many names derived from one base cost linear time.
	next map[string]int
}

func newNamespace() *namespace {
	return &namespace{owners: map[string]string{}, next: map[string]int{}}
}

// claim takes name for owner, a description of where it comes from. When
// the name is taken it returns the previous owner and false.
func (n *namespace) claim(name, owner string) (string, bool) {
	if prev, ok := n.owners[name]; ok {
		return prev, false
	}
	n.owners[name] = owner
	return "", true
}

// rename takes another name for owner, whose name is taken by prev:
// base+suffix (then numbered) when the generated client holds the name,
// else base2, base3... It returns the name and why it was chosen, in a
// phrase for a warning and a doc comment.
func (n *namespace) rename(base, suffix, prev, owner string) (string, string) {
	if prev == reservedOwner {
		return n.derive(base+suffix, owner), "the generated client declares " + base + " itself"
	}
	return n.derive(base, owner), base + " is the Go name of " + strings.TrimSpace(prev)
}

// derive takes base, or base2, base3... when base is taken.
func (n *namespace) derive(base, owner string) string {
	i, tried := n.next[base]
	if !tried {
		if _, ok := n.claim(base, owner); ok {
			n.next[base] = 2
			return base
		}
		i = 2
	}
	for ; ; i++ {
		if _, ok := n.claim(base+strconv.Itoa(i), owner); ok {
			n.next[base] = i + 1
			return base + strconv.Itoa(i)
		}
	}
}

// boundName cuts a name longer than maxDerivedName, at the start of a
// word (an upper-case letter) in its second half when there is one, so
// that "…ChildChild" does not become "…ChildCh". Names cut to the same
// text are told apart by derive's numeric suffix. It applies to the
// names of types met inline, which grow with the nesting; a name the
// spec writes is never cut.
func boundName(name string) string {
	if len(name) <= maxDerivedName {
		return name
	}
	cut := maxDerivedName
	for i := maxDerivedName; i > maxDerivedName/2; i-- {
		if c := name[i]; c >= 'A' && c <= 'Z' {
			return name[:i]
		}
	}
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return name[:cut]
}
