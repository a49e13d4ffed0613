package gen

import (
	goruntime "runtime"
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
	opPart := operationParts(s.svc.Operations)
	warnings, err := golang.EmitClient(core, s.resolved, golang.ClientOptions{
		DependencyName: s.dependency,
		Package:        pkg,
		OperationFile: func(op *ir.Operation) (string, *jen.File) {
			return opPart[op], file(opPart[op])
		},
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
	sem := make(chan struct{}, goruntime.GOMAXPROCS(0))
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

// operationParts assigns each operation the part of a split client it is
// written to: the part its first tag names ([operationPart]), or for an
// operation without one, the first segment of its path prefixed "path_"
// (so that a spec that tags nothing is still split); a part that would hold
// more than [OperationsPerFile] operations continues in "_2", "_3" and so
// on, in the operations' order.
func operationParts(ops []*ir.Operation) map[*ir.Operation]string {
	parts := make(map[*ir.Operation]string, len(ops))
	count := map[string]int{}
	for _, op := range ops {
		part := operationPart(op)
		if part == "" {
			if seg := partName(firstSegment(op.Path)); seg != "" {
				part = "path_" + seg
			}
		}
		n := count[part]
		count[part]++
		if k := n / OperationsPerFile; k > 0 {
			if part == "" {
				part = "operations"
			}
			part += "_" + strconv.Itoa(k+1)
		}
		parts[op] = part
	}
	return parts
}

// firstSegment returns the first segment of a path template that is not
// a variable: "me" for "/me/messages", "" for "/{id}" or "/".
func firstSegment(path string) string {
	seg, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if strings.HasPrefix(seg, "{") {
		return ""
	}
	seg, _, _ = strings.Cut(seg, "?")
	return seg
}

// operationPart is the part of a split client an operation is written
// to by its tag: its first tag in lower snake case, "" when it has none
// or the tag has no letter or digit.
func operationPart(op *ir.Operation) string {
	if len(op.Tags) == 0 {
		return ""
	}
	return partName(op.Tags[0])
}

// partName turns a tag or a path segment into a file name part: its ASCII
// letters and digits in lower case, runs of anything else as one "_".
func partName(name string) string {
	var b strings.Builder
	under := false
	for _, r := range name {
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
