package gen

import (
	"bytes"
	"slices"
	"strings"
)

// joinFiles joins two rendered files of one package, with the same
// header, into the file jennifer renders from the declarations of a then
// those of b: the header, the package clause, the union of the imports
// sorted by path as jennifer writes them, a's declarations, b's. Each
// declaration was formatted on its own and gofmt lays out top-level
// declarations independently, so the result is gofmt-clean. ok is false
// when the files differ in header or name one import path or one name
// differently, or do not have the shape jennifer gives.
func joinFiles(a, b []byte) (code []byte, ok bool) {
	headA, importsA, bodyA, okA := splitFile(a)
	headB, importsB, bodyB, okB := splitFile(b)
	if !okA || !okB || !bytes.Equal(headA, headB) {
		return nil, false
	}
	byPath, ok := mergeImports(append(importsA, importsB...))
	if !ok {
		return nil, false
	}
	var out bytes.Buffer
	out.Grow(len(a) + len(b))
	out.Write(headA)
	writeImports(&out, byPath)
	out.Write(bodyA)
	if len(bodyA) > 0 && len(bodyB) > 0 {
		out.WriteByte('\n')
	}
	out.Write(bodyB)
	return out.Bytes(), true
}

// mergeImports returns the alias ("" for none) of each import path of
// imports; ok is false when one path has two aliases or one name stands
// for two paths.
func mergeImports(imports []importSpec) (byPath map[string]string, ok bool) {
	byPath = map[string]string{}
	byName := map[string]string{}
	for _, imp := range imports {
		if prev, seen := byPath[imp.path]; seen {
			if prev != imp.alias {
				return nil, false
			}
			continue
		}
		name := imp.alias
		if name == "" {
			name = imp.path[strings.LastIndex(imp.path, "/")+1:]
		}
		if other, taken := byName[name]; taken && other != imp.path {
			return nil, false
		}
		byPath[imp.path], byName[name] = imp.alias, imp.path
	}
	return byPath, true
}

// writeImports writes the import declaration of byPath as jennifer
// writes it: none, one line, or a block, sorted by path, followed by a
// blank line.
func writeImports(out *bytes.Buffer, byPath map[string]string) {
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	spec := func(p string) string {
		if alias := byPath[p]; alias != "" {
			return alias + ` "` + p + `"`
		}
		return `"` + p + `"`
	}
	switch len(paths) {
	case 0:
	case 1:
		out.WriteString("import " + spec(paths[0]) + "\n\n")
	default:
		out.WriteString("import (\n")
		for _, p := range paths {
			out.WriteString("\t" + spec(p) + "\n")
		}
		out.WriteString(")\n\n")
	}
}

// importSpec is one import of a rendered file.
type importSpec struct{ alias, path string }

// splitFile cuts a file jennifer rendered into its header (comments and
// package clause, with the blank line after it), its imports and its
// declarations.
func splitFile(src []byte) (head []byte, imports []importSpec, body []byte, ok bool) {
	i := bytes.Index(src, []byte("\npackage "))
	if i < 0 {
		return nil, nil, nil, false
	}
	end := bytes.IndexByte(src[i+1:], '\n')
	if end < 0 {
		return src, nil, nil, true
	}
	head, rest := src[:i+1+end+1], src[i+1+end+1:]
	if len(rest) > 0 {
		if rest[0] != '\n' {
			return nil, nil, nil, false
		}
		head, rest = src[:len(head)+1], rest[1:]
	}
	switch {
	case bytes.HasPrefix(rest, []byte("import (\n")):
		close := bytes.Index(rest, []byte("\n)\n"))
		if close < 0 {
			return nil, nil, nil, false
		}
		for line := range strings.SplitSeq(string(rest[len("import (\n"):close]), "\n") {
			imp, ok := parseImport(strings.TrimPrefix(line, "\t"))
			if !ok {
				return nil, nil, nil, false
			}
			imports = append(imports, imp)
		}
		rest = rest[close+len("\n)\n"):]
	case bytes.HasPrefix(rest, []byte("import ")):
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return nil, nil, nil, false
		}
		imp, ok := parseImport(string(rest[len("import "):nl]))
		if !ok {
			return nil, nil, nil, false
		}
		imports = append(imports, imp)
		rest = rest[nl+1:]
	default:
		return head, nil, rest, true
	}
	if len(rest) > 0 {
		if rest[0] != '\n' {
			return nil, nil, nil, false
		}
		rest = rest[1:]
	}
	return head, imports, rest, true
}

// parseImport reads `"path"` or `alias "path"`.
func parseImport(s string) (importSpec, bool) {
	alias, quoted, found := strings.Cut(s, " ")
	if !found {
		alias, quoted = "", s
	}
	if len(quoted) < 2 || quoted[0] != '"' || quoted[len(quoted)-1] != '"' || strings.ContainsAny(quoted[1:len(quoted)-1], "\" \t") {
		return importSpec{}, false
	}
	return importSpec{alias: alias, path: quoted[1 : len(quoted)-1]}, true
}
