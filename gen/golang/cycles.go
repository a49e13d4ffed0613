package golang

import "github.com/resilientgo/resilient/gen/ir"

// breakValueCycles finds the structs that contain each other by value
// (directly or through named aliases), which Go rejects as invalid
// recursive types, and marks the fields closing such a cycle as pointers.
// It is Tarjan's strongly connected components algorithm over the
// "holds by value" graph, visiting types in their sorted order.
func (m *models) breakValueCycles(types []*ir.Type) {
	edges := func(t *ir.Type) []*ir.Type {
		var out []*ir.Type
		switch t.Kind {
		case ir.TypeStruct:
			for _, f := range t.Fields {
				if !m.fieldPointer(f, false) {
					if u := m.byValue(f.Type); u != nil {
						out = append(out, u)
					}
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

	index := map[*ir.Type]int{}
	low := map[*ir.Type]int{}
	onStack := map[*ir.Type]bool{}
	comp := map[*ir.Type]int{}
	var stack []*ir.Type
	next, comps := 0, 0
	var connect func(t *ir.Type)
	connect = func(t *ir.Type) {
		index[t], low[t] = next, next
		next++
		stack = append(stack, t)
		onStack[t] = true
		for _, u := range edges(t) {
			if _, seen := index[u]; !seen {
				connect(u)
				low[t] = min(low[t], low[u])
			} else if onStack[u] {
				low[t] = min(low[t], index[u])
			}
		}
		if low[t] == index[t] {
			for {
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[u] = false
				comp[u] = comps
				if u == t {
					break
				}
			}
			comps++
		}
	}
	for _, t := range types {
		if _, seen := index[t]; !seen {
			connect(t)
		}
	}

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
