package protoir_test

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/compiler/protogen"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/protoir"
	"github.com/resilientgo/resilient/gen/protoir/prototest"
)

// googleapis is the folder of Google's API protos kept as test data.
const googleapis = "../testdata/googleapis"

// services builds the services of files, compiled with the given sources
// and the googleapis test data on the import path.
func services(t *testing.T, sources map[string]string, files ...string) []*ir.Service {
	t.Helper()
	req, err := prototest.Request([]string{googleapis}, sources, "", files...)
	if err != nil {
		t.Fatal(err)
	}
	plugin, err := protogen.Options{}.New(req)
	if err != nil {
		t.Fatal(err)
	}
	svcs, _, err := protoir.Files(plugin)
	if err != nil {
		t.Fatal(err)
	}
	return svcs
}

// TestIdempotencyPrecedence: idempotency_level wins over the HTTP binding,
// the binding over the conventions of standard methods; a PUT or DELETE
// that starts a long-running operation stays not idempotent, a GET that
// returns one is a read; each says where it came from.
func TestIdempotencyPrecedence(t *testing.T) {
	src := `syntax = "proto3";
package p.v1;
import "google/api/annotations.proto";
import "google/longrunning/operations.proto";
option go_package = "example.com/p/v1";
message Book { string name = 1; }
message GetBookRequest { string name = 1; }
message ListBooksRequest { string parent = 1; int32 page_size = 2; string page_token = 3; }
message ListBooksResponse { repeated Book books = 1; }
message DeleteBookRequest { string name = 1; }
message GetShelfRequest { string id = 1; }
service Library {
  rpc GetBook(GetBookRequest) returns (Book);
  rpc ListBooks(ListBooksRequest) returns (ListBooksResponse);
  rpc GetShelf(GetShelfRequest) returns (Book);
  rpc FetchBook(GetBookRequest) returns (Book) { option (google.api.http) = {get: "/v1/{name=books/*}"}; }
  rpc PutBook(Book) returns (Book) { option (google.api.http) = {put: "/v1/{name=books/*}" body: "*"}; }
  rpc DeleteBook(DeleteBookRequest) returns (Book) { option (google.api.http) = {delete: "/v1/{name=books/*}"}; }
  rpc PurgeBook(DeleteBookRequest) returns (google.longrunning.Operation) { option (google.api.http) = {delete: "/v1/{name=books/*}:purge"}; }
  rpc WatchBook(GetBookRequest) returns (google.longrunning.Operation) { option (google.api.http) = {get: "/v1/{name=books/*}:watch"}; }
  rpc CreateBook(Book) returns (Book) { option (google.api.http) = {post: "/v1/books" body: "*"}; }
  rpc UpdateBook(Book) returns (Book) { option (google.api.http) = {patch: "/v1/{name=books/*}" body: "*"}; }
  rpc TouchBook(Book) returns (Book) {
    option idempotency_level = IDEMPOTENT;
    option (google.api.http) = {post: "/v1/{name=books/*}:touch" body: "*"};
  }
  rpc SyncBook(Book) returns (Book) {
    option idempotency_level = IDEMPOTENCY_UNKNOWN;
    option (google.api.http) = {custom: {kind: "HEAD" path: "/v1/{name=books/*}"}};
  }
}
`
	want := map[string]string{
		"GetBook":    "read-only from AIP-131",
		"ListBooks":  "read-only from AIP-132",
		"GetShelf":   "not idempotent idempotency_level",
		"FetchBook":  "read-only from google.api.http GET",
		"PutBook":    "idempotent from google.api.http PUT",
		"DeleteBook": "idempotent from google.api.http DELETE",
		"PurgeBook":  "idempotent from google.api.http DELETE, long-running",
		"WatchBook":  "read-only from google.api.http GET",
		"CreateBook": "not idempotent from google.api.http POST",
		"UpdateBook": "not idempotent from google.api.http PATCH",
		"TouchBook":  "idempotent idempotency_level",
		"SyncBook":   "not idempotent from google.api.http custom HEAD",
	}
	svcs := services(t, map[string]string{"p/v1/library.proto": src}, "p/v1/library.proto")
	for _, op := range svcs[0].Operations {
		got := op.Idempotency.String() + " " + op.RPC.IdempotencyBasis
		if got != want[op.ID] {
			t.Errorf("%s: %q, want %q", op.ID, got, want[op.ID])
		}
		delete(want, op.ID)
	}
	if len(want) != 0 {
		t.Errorf("methods not seen: %v", want)
	}
}

// TestIdempotencyGoogleAPIs counts, on Google's own protos, the methods
// of each idempotency by its basis. Every GET-bound method is a read,
// every PUT- or DELETE-bound one that does not start a long-running
// operation is idempotent, POST and PATCH are sent once.
func TestIdempotencyGoogleAPIs(t *testing.T) {
	tests := []struct {
		file string
		want map[string]int
	}{
		{"google/pubsub/v1/pubsub.proto", map[string]int{
			"read-only from google.api.http GET":        8,
			"idempotent from google.api.http PUT":       3,
			"idempotent from google.api.http DELETE":    3,
			"not idempotent from google.api.http POST":  7,
			"not idempotent from google.api.http PATCH": 3,
			"not idempotent idempotency_level":          1,
		}},
		{"google/pubsub/v1/schema.proto", map[string]int{
			"read-only from google.api.http GET":       3,
			"idempotent from google.api.http DELETE":   2,
			"not idempotent from google.api.http POST": 5,
		}},
		{"google/spanner/v1/spanner.proto", map[string]int{
			"read-only from google.api.http GET":       2,
			"idempotent from google.api.http DELETE":   1,
			"not idempotent from google.api.http POST": 14,
		}},
		{"google/firestore/v1/firestore.proto", map[string]int{
			"read-only from google.api.http GET":        2,
			"idempotent from google.api.http DELETE":    1,
			"not idempotent from google.api.http POST":  13,
			"not idempotent from google.api.http PATCH": 1,
		}},
		{"google/spanner/admin/database/v1/spanner_database_admin.proto", map[string]int{
			"read-only from google.api.http GET":        10,
			"idempotent from google.api.http DELETE":    3,
			"not idempotent from google.api.http POST":  9,
			"not idempotent from google.api.http PATCH": 4,
			"not idempotent idempotency_level":          1,
		}},
		{"google/longrunning/operations.proto", map[string]int{
			"read-only from google.api.http GET":       2,
			"idempotent from google.api.http DELETE":   1,
			"not idempotent from google.api.http POST": 1,
			"not idempotent idempotency_level":         1,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got := map[string]int{}
			for _, svc := range services(t, nil, tt.file) {
				for _, op := range svc.Operations {
					got[op.Idempotency.String()+" "+op.RPC.IdempotencyBasis]++
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("counts = %v\nwant %v", got, tt.want)
			}
		})
	}
}
