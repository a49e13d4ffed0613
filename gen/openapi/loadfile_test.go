package openapi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadFileConfined: LoadFile follows no symbolic link out of the
// spec's folder, and reads only regular files.
func TestLoadFileConfined(t *testing.T) {
	base := t.TempDir()
	for name, data := range map[string]string{
		"outside/common.yaml": "Secret: {type: string, description: hunter2}\n",
		"spec/api.yaml": head + `paths:
  /a:
    get:
      operationId: getA
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "common.yaml#/Secret"}}}}
`,
	} {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../outside/common.yaml", filepath.Join(base, "spec", "common.yaml")); err != nil {
		t.Fatal(err)
	}
	doc, _, err := LoadFile(filepath.Join(base, "spec", "api.yaml"))
	if doc != nil || err == nil || !strings.Contains(err.Error(), `E-REF-EXTERNAL: $ref "common.yaml#/Secret": cannot read `) ||
		!strings.Contains(err.Error(), "the file is a symbolic link that leads outside the spec's folder") {
		t.Fatalf("LoadFile = %v, %v; want E-REF-EXTERNAL for the link", doc, err)
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Error("the error holds the content of a file outside the folder")
	}
}
