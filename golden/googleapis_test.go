package golden

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/resilientgo/resilient/gen/protocgen"
	"github.com/resilientgo/resilient/gen/protoir/prototest"
	"github.com/resilientgo/resilient/internal/testtier"
)

// googleapisData is Google's API protos kept as test data (see its
// MANIFEST), relative to this folder.
const googleapisData = "../gen/testdata/googleapis"

// TestGoogleAPIsGenerateBuildVet generates Google's Pub/Sub, Spanner,
// Firestore and Spanner database admin services with protoc-gen-go,
// protoc-gen-go-grpc and protoc-gen-resilient into one module, builds and
// vets it, and counts in each package's review the methods whose
// idempotency comes from their google.api.http binding: every GET-bound
// method is a read, every PUT or DELETE that starts no long-running
// operation is idempotent, POST and PATCH are sent once. Their gRPC
// service configs (googleapis' *_grpc_service_config.json) are passed
// with service_config=: every method one of them names takes its timeout
// from it, and the review says so; the retry attempts come from it where
// it writes maxAttempts (Pub/Sub's and Firestore's). Nothing but the IAM
// mixin methods that Pub/Sub's names, generated from their own .proto
// files, is unmatched, and every warning is one of the service config's.
func TestGoogleAPIsGenerateBuildVet(t *testing.T) {
	testtier.Slow(t)
	files := []string{
		"google/pubsub/v1/pubsub.proto",
		"google/pubsub/v1/schema.proto",
		"google/spanner/v1/spanner.proto",
		"google/firestore/v1/firestore.proto",
		"google/spanner/admin/database/v1/spanner_database_admin.proto",
	}
	// want counts, by review file, the Idempotent cells of each basis.
	want := map[string]map[string]int{
		"reviews/google.pubsub.v1.md": {
			"yes (from google.api.http GET)": 11, "yes (from google.api.http PUT)": 3, "yes (from google.api.http DELETE)": 5,
			"no (from google.api.http POST)": 12, "no (from google.api.http PATCH)": 3,
		},
		"reviews/google.spanner.v1.md": {
			"yes (from google.api.http GET)": 2, "yes (from google.api.http DELETE)": 1, "no (from google.api.http POST)": 14,
		},
		"reviews/google.firestore.v1.md": {
			"yes (from google.api.http GET)": 2, "yes (from google.api.http DELETE)": 1,
			"no (from google.api.http POST)": 13, "no (from google.api.http PATCH)": 1,
		},
		"reviews/google.spanner.admin.database.v1.md": {
			"yes (from google.api.http GET)": 10, "yes (from google.api.http DELETE)": 3,
			"no (from google.api.http POST)": 9, "no (from google.api.http PATCH)": 4,
		},
	}
	// wantConfig counts, by review file, the methods whose total timeout
	// and whose retries a service config set: every method but
	// Spanner's FetchCacheUpdate and the database admin's
	// InternalUpdateGraphOperation, which their configs do not name.
	wantConfig := map[string][2]int{
		"reviews/google.pubsub.v1.md":                 {35, 19},
		"reviews/google.spanner.v1.md":                {16, 0},
		"reviews/google.firestore.v1.md":              {17, 3},
		"reviews/google.spanner.admin.database.v1.md": {26, 0},
	}
	configs := []string{
		"google/pubsub/v1/pubsub_grpc_service_config.json",
		"google/spanner/v1/spanner_grpc_service_config.json",
		"google/firestore/v1/firestore_grpc_service_config.json",
		"google/spanner/admin/database/v1/spanner_admin_database_grpc_service_config.json",
	}
	out := newBuildModule(t)
	grpcBin := goGRPCPlugin(t)
	req, err := prototest.Request([]string{googleapisData}, nil, "", files...)
	if err != nil {
		t.Fatal(err)
	}
	var params []string
	var all []string
	for _, f := range req.ProtoFile {
		if strings.HasPrefix(f.GetName(), "google/protobuf/") {
			continue
		}
		params = append(params, "M"+f.GetName()+"="+goPath(0, "googleapis", f.GetName(), f.GetOptions().GetGoPackage()))
		all = append(all, f.GetName())
	}
	req.Parameter = proto.String("module=example.com/built," + strings.Join(params, ","))
	messages := proto.CloneOf(req)
	messages.FileToGenerate = all
	writeResponse(t, out, generateGo(t, messages))
	writeResponse(t, out, runPlugin(t, grpcBin, req))
	ours := proto.CloneOf(req)
	ours.Parameter = proto.String(req.GetParameter() + ",review=reviews/{package}.md")
	for _, c := range configs {
		ours.Parameter = proto.String(ours.GetParameter() + ",service_config=" + googleapisData + "/" + c)
	}
	resp, warnings := protocgen.Proto(ours, protocgen.ProtoOptions{})
	if resp.Error != nil {
		t.Fatal(resp.GetError())
	}
	for _, w := range warnings {
		switch {
		case !strings.HasPrefix(string(w.Rule), "W-SVCCONFIG-"):
			t.Errorf("warning of another rule: %v", w)
		case w.Rule == "W-SVCCONFIG-UNUSED" && !strings.Contains(w.Message, "IamPolicy, but") && !strings.Contains(w.Message, "TestIamPermissions, but"):
			t.Errorf("a name of a service config matches no method: %v", w)
		}
	}
	reviews := map[string]string{}
	for _, f := range resp.File {
		if strings.HasSuffix(f.GetName(), ".md") {
			reviews[strings.TrimPrefix(f.GetName(), "example.com/built/")] = f.GetContent()
		}
	}
	writeResponse(t, out, resp)
	for name, counts := range want {
		review, ok := reviews[name]
		if !ok {
			t.Errorf("no review %s among %d", name, len(reviews))
			continue
		}
		for cell, n := range counts {
			if got := strings.Count(review, "| "+cell+" |\n"); got != n {
				t.Errorf("%s: %d methods %q, want %d", name, got, cell, n)
			}
		}
	}
	for name, n := range wantConfig {
		review := reviews[name]
		timeouts, retries := 0, 0
		for _, row := range strings.Split(review, "\n") {
			cells := strings.Split(row, " | ")
			if len(cells) < 3 || !strings.HasSuffix(cells[0], "(gRPC)") {
				continue
			}
			if strings.HasSuffix(cells[1], "(service config "+path.Base(configFor(name, configs))+")") {
				timeouts++
			}
			if strings.Contains(cells[2], " (service config "+path.Base(configFor(name, configs))+"), ") {
				retries++
			}
		}
		if timeouts != n[0] || retries != n[1] {
			t.Errorf("%s: %d timeouts and %d retries from the service config, want %d and %d", name, timeouts, retries, n[0], n[1])
		}
	}
	if len(reviews) != len(want) {
		t.Errorf("%d reviews, want one per proto package (%d)", len(reviews), len(want))
	}
	goBuild(t, out)
	vet := exec.Command("go", "vet", "./...")
	vet.Dir = out
	vet.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOWORK=off")
	if b, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet ./... in %s: %v\n%s", filepath.Base(out), err, b)
	}
}

// configFor returns the service config, among configs, of the package
// whose review is name ("reviews/google.pubsub.v1.md").
func configFor(name string, configs []string) string {
	pkg := strings.TrimSuffix(strings.TrimPrefix(name, "reviews/"), ".md")
	dir := strings.ReplaceAll(pkg, ".", "/") + "/"
	for _, c := range configs {
		if strings.HasPrefix(c, dir) && !strings.Contains(c[len(dir):], "/") {
			return c
		}
	}
	return ""
}
