package golang

import "github.com/resilientgo/resilient/gen/ir"

// breakValueCycles finds the structs that contain each other by value
// (directly or through named aliases), which Go rejects as invalid
// recursive types, and marks the fields closing such a cycle as pointers.
// It is Tarjan's strongly connected components algorithm over the
// "holds by value" graph, visiting types in their sorted order.
func (m *models) breakValueCycles(types []*ir.Type) {
	comp := (&sccs{edges: m.valueEdges, index: map[*ir.Type]int{}, low: map[*ir.Type]int{},
		onStack: map[*ir.Type]bool{}, comp: map[*ir.Type]int{}}).components(types)
	for _, t := range types {
		if t.Kind != ir.TypeStruct {
			continue
		}
		for _, f := range t.Fields {
			if u := m.byValue(f.Type); u != nil && !m.fieldPointer(f, false) && comp[u] == comp[t] {
				m.cyclePtrs[f] = true
			}
		}
	}
}

// valueEdges returns the types t holds by value: those of a struct's
// fields that are not pointers, or an alias's target.
func (m *models) valueEdges(t *ir.Type) []*ir.Type {
	var out []*ir.Type
	switch t.Kind {
	case ir.TypeStruct:
		for _, f := range t.Fields {
			if m.fieldPointer(f, false) {
				continue
			}
			if u := m.byValue(f.Type); u != nil {
				out = append(out, u)
			}
		}
	case ir.TypeAlias:
		if t.Alias != nil {
			if u := m.byValue(t.Alias); u != nil {
				out = append(out, u)
			}
		}
	}
	return out
}

// sccs is the state of Tarjan's algorithm over the graph edges gives.
type sccs struct {
	edges      func(*ir.Type) []*ir.Type
	index, low map[*ir.Type]int
	onStack    map[*ir.Type]bool
	comp       map[*ir.Type]int
	stack      []*ir.Type
	next       int
	comps      int
}

// components returns the strongly connected component of every type
// reachable from types, visited in their order.
func (s *sccs) components(types []*ir.Type) map[*ir.Type]int {
	for _, t := range types {
		if _, seen := s.index[t]; !seen {
			s.connect(t)
		}
	}
	return s.comp
}

func (s *sccs) connect(t *ir.Type) {
	s.index[t], s.low[t] = s.next, s.next
	s.next++
	s.stack = append(s.stack, t)
	s.onStack[t] = true
	for _, u := range s.edges(t) {
		if _, seen := s.index[u]; !seen {
			s.connect(u)
			s.low[t] = min(s.low[t], s.low[u])
		} else if s.onStack[u] {
			s.low[t] = min(s.low[t], s.index[u])
		}
	}
	if s.low[t] != s.index[t] {
		return
	}
	for {
		u := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		s.onStack[u] = false
		s.comp[u] = s.comps
		if u == t {
			break
		}
	}
	s.comps++
}
