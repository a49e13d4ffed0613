package diff

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// GoAPI is the exported API of a generated Go package: each exported
// declaration by key ("func NewClient", "type Pet", "field Pet.Name",
// "method Client.GetPet", "const PetStatusSold"), with its type as text
// (parameter names left out, which callers do not see).
type GoAPI struct {
	decls map[string]string
}

// Len returns the number of declarations.
func (a *GoAPI) Len() int { return len(a.decls) }

// NewGoAPI returns an empty API to which Add adds declarations, for
// front ends that know their API without Go source.
func NewGoAPI() *GoAPI { return &GoAPI{decls: map[string]string{}} }

// Add records a declaration: key as [GoAPI] describes, text its type.
func (a *GoAPI) Add(key, text string) { a.decls[key] = text }

// ParseGoAPI reads the exported API of Go source files of one package,
// named name for errors.
func ParseGoAPI(name string, files ...[]byte) (*GoAPI, error) {
	a := NewGoAPI()
	fset := token.NewFileSet()
	for _, src := range files {
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, d := range f.Decls {
			a.decl(d)
		}
	}
	return a, nil
}

func (a *GoAPI) decl(d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() {
			return
		}
		if d.Recv == nil {
			a.decls["func "+d.Name.Name] = funcText(d.Type)
			return
		}
		recv := receiver(d.Recv.List[0].Type)
		if ast.IsExported(recv) {
			a.decls["method "+recv+"."+d.Name.Name] = funcText(d.Type)
		}
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					a.typeSpec(s)
				}
			case *ast.ValueSpec:
				kind := "var "
				if d.Tok == token.CONST {
					kind = "const "
				}
				for _, n := range s.Names {
					if n.IsExported() {
						text := ""
						if s.Type != nil {
							text = types.ExprString(s.Type)
						}
						a.decls[kind+n.Name] = text
					}
				}
			}
		}
	}
}

func (a *GoAPI) typeSpec(s *ast.TypeSpec) {
	name := s.Name.Name
	if s.TypeParams != nil {
		name += "[" + fieldTypes(s.TypeParams) + "]"
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		a.decls["type "+s.Name.Name] = "struct"
		for _, f := range t.Fields.List {
			typ := types.ExprString(f.Type)
			if len(f.Names) == 0 {
				embedded := strings.TrimPrefix(typ, "*")
				if i := strings.LastIndex(embedded, "."); i >= 0 {
					embedded = embedded[i+1:]
				}
				if ast.IsExported(embedded) {
					a.decls["field "+s.Name.Name+"."+embedded] = typ + " (embedded)"
				}
			}
			for _, n := range f.Names {
				if n.IsExported() {
					a.decls["field "+s.Name.Name+"."+n.Name] = typ
				}
			}
		}
	case *ast.InterfaceType:
		a.decls["type "+s.Name.Name] = "interface"
		for _, m := range t.Methods.List {
			for _, n := range m.Names {
				if ft, ok := m.Type.(*ast.FuncType); ok && n.IsExported() {
					a.decls["method "+s.Name.Name+"."+n.Name] = funcText(ft)
				}
			}
		}
	default:
		text := types.ExprString(s.Type)
		if s.Assign.IsValid() {
			text = "= " + text
		}
		a.decls["type "+s.Name.Name] = strings.TrimPrefix(name, s.Name.Name) + text
	}
}

// receiver returns the name of a method's receiver type.
func receiver(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return types.ExprString(e)
		}
	}
}

// funcText prints a function type without parameter names.
func funcText(ft *ast.FuncType) string {
	s := "func(" + fieldTypes(ft.Params) + ")"
	if ft.Results != nil && len(ft.Results.List) > 0 {
		res := fieldTypes(ft.Results)
		if len(ft.Results.List) == 1 && len(ft.Results.List[0].Names) <= 1 {
			s += " " + res
		} else {
			s += " (" + res + ")"
		}
	}
	return s
}

func fieldTypes(fl *ast.FieldList) string {
	var parts []string
	for _, f := range fl.List {
		n := max(len(f.Names), 1)
		for range n {
			parts = append(parts, types.ExprString(f.Type))
		}
	}
	return strings.Join(parts, ", ")
}

// compareGoAPI adds the Go API section. A method whose operation both
// versions have but under another Go name is reported once, as renamed.
func compareGoAPI(r *Report, old, new *GoAPI, pairs []opPair) {
	renamed := reportRenamed(r, old, new, pairs)
	for _, k := range declKeys(old, new) {
		if !renamed[k] {
			compareDecl(r, k, old, new)
		}
	}
}

// reportRenamed adds a change for each Client method whose operation both
// versions have under another Go name, and returns the keys of those
// methods, old and new.
func reportRenamed(r *Report, old, new *GoAPI, pairs []opPair) map[string]bool {
	renamed := map[string]bool{}
	for _, p := range pairs {
		if p.old == nil || p.new == nil || p.old.Name == p.new.Name {
			continue
		}
		ok, nk := methodKey(old, p.old.Name), methodKey(new, p.new.Name)
		if ok == "" || nk == "" {
			continue
		}
		renamed[ok], renamed[nk] = true, true
		msg := "the operation's Go method has a new name: callers must be changed"
		if p.new.Renamed != "" {
			msg += " (W-NAME-RENAMED: " + p.new.Renamed + ")"
		}
		r.add(Change{Section: SectionGoAPI, Rule: RuleGoRenamed, Class: Breaking, Operation: p.name,
			Old: strings.TrimPrefix(ok, "method "), New: strings.TrimPrefix(nk, "method "), Message: msg})
	}
	return renamed
}

// declKeys returns the keys of the declarations of old and new, sorted,
// each once.
func declKeys(old, new *GoAPI) []string {
	keys := make([]string, 0, len(old.decls)+len(new.decls))
	for k := range old.decls {
		keys = append(keys, k)
	}
	for k := range new.decls {
		if _, ok := old.decls[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// compareDecl adds the change of the declaration k, if any: removed,
// added or changed (a member of a type removed or added whole aside).
func compareDecl(r *Report, k string, old, new *GoAPI) {
	o, inOld := old.decls[k]
	n, inNew := new.decls[k]
	switch {
	case !inNew:
		if !parentGone(k, old, new) {
			r.add(Change{Section: SectionGoAPI, Rule: RuleGoRemoved, Class: Breaking, Operation: k, Old: o,
				Message: "removed: code that uses it no longer compiles"})
		}
	case !inOld:
		if !parentGone(k, new, old) {
			cls, msg := addedClass(k, new)
			r.add(Change{Section: SectionGoAPI, Rule: RuleGoAdded, Class: cls, Operation: k, New: n, Message: msg})
		}
	case o != n:
		r.add(Change{Section: SectionGoAPI, Rule: RuleGoChanged, Class: Breaking, Operation: k, Old: o, New: n,
			Message: "its type changed: code that uses it may no longer compile"})
	}
}

// addedClass returns the class and the message of the declaration k added
// in new: compatible, unless it is a method of an interface.
func addedClass(k string, new *GoAPI) (Class, string) {
	if strings.HasPrefix(k, "method ") && new.decls["type "+typeOf(k)] == "interface" {
		return Breaking, "added to an interface: a type of the caller's that implements it (a test double) no longer does"
	}
	return Compatible, "added"
}

// methodKey returns the key of the Client method called name, or "".
func methodKey(a *GoAPI, name string) string {
	k := "method Client." + name
	if _, ok := a.decls[k]; ok {
		return k
	}
	return ""
}

// typeOf returns the type a field or method key belongs to.
func typeOf(key string) string {
	_, rest, _ := strings.Cut(key, " ")
	t, _, _ := strings.Cut(rest, ".")
	return t
}

// parentGone reports whether key is a field or method of a type that is
// in a but not in b: the type's own change says it all.
func parentGone(key string, a, b *GoAPI) bool {
	if !strings.HasPrefix(key, "field ") && !strings.HasPrefix(key, "method ") {
		return false
	}
	t := "type " + typeOf(key)
	_, inA := a.decls[t]
	_, inB := b.decls[t]
	return inA && !inB
}
