package openapi

import (
	"strconv"
	"strings"
)

// reservedOwner owns the names the generated client declares for itself.
const reservedOwner = "the generated client"

// namespace hands out Go identifiers in one scope. Names written in the
// spec are claimed and clash as errors; names the generator derives get a
// numeric suffix instead.
type namespace struct {
	owners map[string]string
}

func newNamespace() *namespace { return &namespace{owners: map[string]string{}} }

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
	name := base
	for i := 2; ; i++ {
		if _, ok := n.claim(name, owner); ok {
			return name
		}
		name = base + strconv.Itoa(i)
	}
}
