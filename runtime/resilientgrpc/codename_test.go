package resilientgrpc

import (
	"testing"

	"google.golang.org/grpc/codes"
)

// TestCodeNames checks each code's canonical name against the names gRPC
// itself reads, and that a code beyond them keeps gRPC's own spelling.
func TestCodeNames(t *testing.T) {
	for c := codes.OK; c <= codes.Unauthenticated; c++ {
		var back codes.Code
		if err := back.UnmarshalJSON([]byte(`"` + codeName(c) + `"`)); err != nil || back != c {
			t.Errorf("codeName(%d) = %q, which gRPC reads as %v (%v)", c, codeName(c), back, err)
		}
	}
	if got, want := codeName(codes.Code(99)), codes.Code(99).String(); got != want {
		t.Errorf("codeName(99) = %q, want %q", got, want)
	}
}
