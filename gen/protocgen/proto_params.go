package protocgen

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/resilientgo/resilient/policyspec/diag"
)

// protoParams are protoc-gen-resilient's own parameters; protogen handles
// paths=, module= and M.
type protoParams struct {
	// policy is the policy file (policy=), read with
	// [ProtoOptions.ReadFile]; empty for none.
	policy string
	// review is the name of the Markdown review to emit as an extra
	// generated file (review=), a relative slash-separated path inside
	// protoc's output directory; empty for none.
	review string
	// module is protogen's module= prefix, which the review's name is
	// given so that protogen can strip it as from every generated name.
	module string
	// serviceConfigs are the gRPC service config files (service_config=,
	// repeatable), relative to protoc's working directory, read with
	// [ProtoOptions.ReadFile].
	serviceConfigs []string
}

// reviewPackage in the review= name stands for the proto package of the
// services it reviews: each package gets its own review.
const reviewPackage = "{package}"

// moduleParam returns the value of the module= parameter in parameter,
// the comma-separated parameters of the request; protogen keeps it to
// itself.
func moduleParam(parameter string) string {
	module := ""
	for _, p := range strings.Split(parameter, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(p), "module="); ok {
			module = v
		}
	}
	return module
}

// set sets the parameter name to value, for protogen.Options.ParamFunc.
func (p *protoParams) set(name, value string) error {
	switch name {
	case "policy":
		p.policy = value
	case "service_config":
		if value == "" {
			return diag.Diagnostic{Rule: diag.RuleParameter, Message: "service_config= names no file",
				Fix: "name a gRPC service config JSON file, such as service_config=pubsub_grpc_service_config.json"}
		}
		p.serviceConfigs = append(p.serviceConfigs, value)
	case "review":
		review, err := reviewPath(value)
		if err != nil {
			return err
		}
		p.review = review
	default:
		return diag.Diagnostic{Rule: diag.RuleParameter, Message: fmt.Sprintf("unknown parameter %q", name),
			Fix: "use paths, module, M<file>, policy, service_config or review"}
	}
	return nil
}

// reviewPath returns the review= path cleaned, refusing one that would
// write outside protoc's output directory: an absolute path, a ".." that
// climbs out, a backslash or a drive letter (which Windows reads as
// separators or roots), or a control character. Empty stays empty (no
// review).
func reviewPath(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	bad := strings.ContainsAny(p, "\\:") || strings.ContainsFunc(p, func(r rune) bool { return r < ' ' || r == 0x7f })
	clean := path.Clean(p)
	if bad || !fs.ValidPath(clean) || clean == "." {
		return "", diag.Diagnostic{Rule: diag.RuleParameter, Message: fmt.Sprintf("review=%q is not a relative path inside the output directory", p),
			Fix: "name a file such as REVIEW.md or docs/REVIEW.md"}
	}
	return clean, nil
}
