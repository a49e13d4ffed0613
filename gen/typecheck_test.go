package gen

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// generatedImports are the packages generated clients may import.
var generatedImports = []string{
	"github.com/resilientgo/resilient/runtime", "github.com/resilientgo/resilient/runtime/codec",
	"github.com/resilientgo/resilient/runtime/route", "github.com/resilientgo/resilient/runtime/stream",
	"github.com/resilientgo/resilient/runtime/fallbackstore",
	// Only for a dependency whose policy declares a fleet.
	"github.com/resilientgo/resilient/runtime/redisfleet", "github.com/redis/go-redis/v9",
	// Format uuid.
	"github.com/google/uuid",
	// Only for a document with an OAuth 2.0 or OpenID Connect scheme.
	"golang.org/x/oauth2",
	"bytes", "context", "encoding/base64", "encoding/json", "errors", "fmt", "io", "log/slog",
	"maps", "mime", "mime/multipart", "net/http", "net/url", "slices", "strconv", "strings", "time",
}

// checker type-checks generated files against the export data of the
// runtime and the standard library, listed once per process with
// "go list -export", so that each check costs milliseconds. It is safe for
// concurrent use.
type checker struct {
	once    sync.Once
	err     error
	exports map[string]string

	mu  sync.Mutex
	imp types.Importer
}

var typeChecker checker

func (c *checker) init() {
	c.once.Do(func() {
		cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}"}, generatedImports...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			c.err = fmt.Errorf("go list -export: %v\n%s", err, stderr.String())
			return
		}
		c.exports = map[string]string{}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			if path, file, ok := strings.Cut(sc.Text(), "="); ok && file != "" {
				c.exports[path] = file
			}
		}
		c.imp = importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
			file, ok := c.exports[path]
			if !ok {
				return nil, fmt.Errorf("generated code imports %s, which the type checker does not know", path)
			}
			return os.Open(file)
		})
	})
}

// check parses and type-checks one generated file.
func (c *checker) check(name string, code []byte) error {
	return c.checkFiles([]File{{Part: name, Code: code}})
}

// checkFiles parses and type-checks the files of one generated package,
// each named by its Part.
func (c *checker) checkFiles(files []File) error {
	c.init()
	if c.err != nil {
		return c.err
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, file := range files {
		f, err := parser.ParseFile(fset, file.Part+".go", file.Code, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		parsed = append(parsed, f)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	conf := types.Config{Importer: c.imp}
	_, err := conf.Check(parsed[0].Name.Name, fset, parsed, nil)
	return err
}
