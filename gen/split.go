package gen

import (
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/resilientgo/resilient/gen/golang"
	"github.com/resilientgo/resilient/gen/ir"
)

// emitSplit writes the client of a resolved service as several files of
// one package (see [OpenAPIOptions.Split]), rendered in parallel.
func emitSplit(s *state, opts OpenAPIOptions) ([]File, error) {
	pkg, source := s.fileNames(opts)
	files := map[string]*jen.File{}
	file := func(part string) *jen.File {
		f, ok := files[part]
		if !ok {
			f = golang.NewFile(pkg, source)
			files[part] = f
		}
		return f
	}
	core := file("")
	modelPart := make(map[*ir.Type]string, len(s.svc.Types))
	for i, t := range s.svc.Types {
		modelPart[t] = "models"
		if n := i / ModelsPerFile; n > 0 {
			modelPart[t] += "_" + strconv.Itoa(n+1)
		}
	}
	golang.EmitModelsTo(func(t *ir.Type) *jen.File { return file(modelPart[t]) }, s.svc)
	warnings, err := golang.EmitClient(core, s.resolved, golang.ClientOptions{
		DependencyName: s.dependency,
		Package:        pkg,
		OperationFile:  func(op *ir.Operation) *jen.File { return file(operationPart(op)) },
	})
	s.add(warnings, err)
	if err != nil {
		return nil, s.diags.Err()
	}

	out := make([]File, 0, len(files))
	for part := range files {
		out = append(out, File{Part: part})
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Part, b.Part) })
	errs := make([]error, len(out))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range out {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i].Code, errs[i] = render(files[out[i].Part])
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// operationPart is the part of a split client an operation is written
// to: its first tag in lower snake case, "" (the core) when it has none
// or the tag has no letter or digit.
func operationPart(op *ir.Operation) string {
	if len(op.Tags) == 0 {
		return ""
	}
	var b strings.Builder
	under := false
	for _, r := range op.Tags[0] {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(unicode.ToLower(r))
		default:
			under = true
		}
	}
	return b.String()
}
