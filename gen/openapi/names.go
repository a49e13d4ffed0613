package openapi

import "strconv"

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
