package gen

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBackEndsNeverSeeTheDocument: everything after the IR (this
// package's driver, the Go back end and the gRPC back end) builds without
// kin-openapi, protogen or either front end; front ends hand over the IR and
// answer the driver through [FrontEnd].
func TestBackEndsNeverSeeTheDocument(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".", "./golang", "./golang/grpcgen").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/getkin/kin-openapi") || pkg == "google.golang.org/protobuf/compiler/protogen" ||
			pkg == "github.com/resilientgo/resilient/gen/openapi" || pkg == "github.com/resilientgo/resilient/gen/openapigen" ||
			pkg == "github.com/resilientgo/resilient/gen/protoir" || pkg == "github.com/resilientgo/resilient/gen/protocgen" {
			t.Errorf("the back ends depend on %s", pkg)
		}
	}
}
