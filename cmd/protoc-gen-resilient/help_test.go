package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestHelpAndVersion: -h lists the parameters and -version names the
// plugin, both on standard output with status 0; any other argument is
// refused with a pointer to -h.
func TestHelpAndVersion(t *testing.T) {
	for _, arg := range []string{"-h", "--help", "-version", "--version"} {
		var out, errw bytes.Buffer
		if code := run([]string{arg}, strings.NewReader(""), &out, &errw); code != 0 {
			t.Errorf("%s: status %d, stderr %q", arg, code, errw.String())
		}
		if !strings.Contains(out.String(), "protoc-gen-resilient") {
			t.Errorf("%s: output %q does not name the plugin", arg, out.String())
		}
	}
	var out, errw bytes.Buffer
	if code := run([]string{"-x"}, strings.NewReader(""), &out, &errw); code != 1 || !strings.Contains(errw.String(), "-h lists them") {
		t.Errorf("-x: status %d, stderr %q", code, errw.String())
	}
}

// TestHelpListsEveryParameter: every parameter of the package
// documentation's table is in the -h text.
func TestHelpListsEveryParameter(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	params := regexp.MustCompile(`(?m)^//\t([A-Za-z_<>]+)=`).FindAllStringSubmatch(string(doc), -1)
	if len(params) < 4 {
		t.Fatalf("found %d parameters in doc.go's table", len(params))
	}
	for _, p := range params {
		if !strings.Contains(help, "  "+p[1]+"=") {
			t.Errorf("-h does not list %s=", p[1])
		}
	}
}
