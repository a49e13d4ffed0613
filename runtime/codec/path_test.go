package codec

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckPath(t *testing.T) {
	tests := []struct {
		name, path string
		// segment is the refused segment; empty when the path is fine.
		segment string
	}{
		{"plain", "/tenants/acme/files/report.txt", ""},
		{"dots inside a segment", "/files/a..b/.hidden/v1.0/...", ""},
		{"escaped slash stays in its segment", "/files/..%2F..%2Fadmin", ""},
		{"empty path", "", ""},
		{"root", "/", ""},
		{"empty segments", "/a//b/", ""},
		{"matrix value", "/files;name=..", ""},
		{"double-escaped dots", "/files/%252e%252e", ""},
		{"parent", "/tenants/acme/files/..", ".."},
		{"current", "/tenants/acme/files/.", "."},
		{"parent in the middle", "/a/../b", ".."},
		{"relative parent", "../a", ".."},
		{"escaped upper", "/files/%2E%2E", "%2E%2E"},
		{"escaped lower", "/files/%2e", "%2e"},
		{"escaped mixed", "/files/.%2E/x", ".%2E"},
		{"escaped mixed case", "/files/%2e%2E", "%2e%2E"},
		{"path parameter after dots", "/files/..;jsessionid=1/admin", "..;jsessionid=1"},
		{"path parameter after one dot", "/files/.;x", ".;x"},
		{"label style of an empty value", "/files/.", "."},
		{"three dots", "/files/.../x", ""},
		{"escaped three dots", "/files/%2e%2e%2e", ""},
		{"truncated escape", "/files/.%2", ""},
		{"percent two", "/files/%2", ""},
		{"other escape", "/files/%2F", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckPath(tt.path)
			if tt.segment == "" {
				if err != nil {
					t.Fatalf("CheckPath(%q) = %v, want nil", tt.path, err)
				}
				return
			}
			var de *DotSegmentError
			if !errors.As(err, &de) {
				t.Fatalf("CheckPath(%q) = %v, want a *DotSegmentError", tt.path, err)
			}
			if de.Segment != tt.segment || de.Path != tt.path {
				t.Errorf("CheckPath(%q) refused segment %q of %q, want %q", tt.path, de.Segment, de.Path, tt.segment)
			}
			if !errors.Is(err, ErrDotSegment) {
				t.Errorf("errors.Is(%v, ErrDotSegment) = false", err)
			}
		})
	}
}

func TestCheckPathMessage(t *testing.T) {
	err := CheckPath("/tenants/acme/files/..")
	want := `resilient: path "/tenants/acme/files/.." has the dot segment "..", which a server resolves to another resource; a path value must not be "." or ".."`
	if err == nil || err.Error() != want {
		t.Errorf("CheckPath error = %v, want %s", err, want)
	}
}

// TestCheckPathAllocations: a path without dot segment costs no allocation.
func TestCheckPathAllocations(t *testing.T) {
	path := "/tenants/acme%20corp/files/report.v1.txt;rev=.."
	if n := testing.AllocsPerRun(100, func() {
		if CheckPath(path) != nil {
			t.Fatal("refused")
		}
	}); n != 0 {
		t.Errorf("CheckPath allocates %v times per call, want 0", n)
	}
}

// FuzzCheckPath compares CheckPath with a plain restatement of the rule:
// split at "/", cut each segment at ";", decode "%2E", compare with "."
// and "..".
func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"/a/b", "/a/..", "/%2e%2E/x", "/..;x", "/.%2", ".", "", "/a//b"} {
		f.Add(s)
	}
	dots := strings.NewReplacer("%2e", ".", "%2E", ".")
	f.Fuzz(func(t *testing.T, path string) {
		want := ""
		for seg := range strings.SplitSeq(path, "/") {
			head, _, _ := strings.Cut(seg, ";")
			if d := dots.Replace(head); d == "." || d == ".." {
				want = seg
				break
			}
		}
		err := CheckPath(path)
		var de *DotSegmentError
		switch {
		case want == "" && err != nil:
			t.Fatalf("CheckPath(%q) = %v, want nil", path, err)
		case want != "" && (!errors.As(err, &de) || de.Segment != want):
			t.Fatalf("CheckPath(%q) = %v, want segment %q refused", path, err, want)
		}
	})
}

func BenchmarkCheckPath(b *testing.B) {
	path := "/tenants/acme/files/report.txt"
	for b.Loop() {
		if CheckPath(path) != nil {
			b.Fatal("refused")
		}
	}
}
