package faults

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"time"

	petstorehttp "github.com/resilientgo/resilient/examples/petstore/httpclient"
	"github.com/resilientgo/resilient/examples/petstore/petstorepb"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/runtime"
)

// Policy is what the harness needs of the resolved policy of one transport's
// resilient client: the dependency-wide policy, each operation's total
// timeout, the dependency's measured latency, and the review table.
type Policy struct {
	// Dependency is the name the policy was resolved under.
	Dependency string
	// Shared is the dependency-wide policy: bulkhead, breaker, retry budget.
	Shared runtime.DependencyPolicy
	// Ops are the operations' resolved policies, by operation name.
	Ops map[string]runtime.OperationPolicy
	// Latency is the measured latency of the policy file.
	Latency policyspec.Latency
	// Review is the resilience review generated beside the client.
	Review string
}

// MaxTimeout returns the longest total timeout of the operations.
func (p Policy) MaxTimeout() time.Duration {
	var m time.Duration
	for _, o := range p.Ops {
		m = max(m, o.Timeout)
	}
	return m
}

// Timeout returns op's total timeout.
func (p Policy) Timeout(op string) time.Duration { return p.Ops[op].Timeout }

// LoadPolicy returns the policies of both transports: the generated clients'
// DefaultPolicy tables (what the resilient clients run with), the measured
// latency from the example's policy files, and the generated reviews.
func LoadPolicy() (map[Transport]Policy, error) {
	dir, err := exampleDir()
	if err != nil {
		return nil, err
	}
	hp := petstorehttp.DefaultPolicy()
	gp := petstorepb.DefaultPetStorePolicy()
	out := map[Transport]Policy{
		HTTP: {
			Dependency: "petstore",
			Shared:     hp.Dependency,
			Ops:        opsOf(hp.ListPets, hp.GetPet, hp.CreatePet, hp.UpdatePet, hp.DeletePet, hp.AdoptPet),
		},
		GRPC: {
			Dependency: "petstore.v1.PetStore",
			Shared:     gp.Dependency,
			Ops:        opsOf(gp.ListPets, gp.GetPet, gp.CreatePet, gp.UpdatePet, gp.DeletePet, gp.AdoptPet),
		},
	}
	files := map[Transport][2]string{
		HTTP: {"policy.yaml", "httpclient/REVIEW.md"},
		GRPC: {"policy.grpc.yaml", "petstorepb/REVIEW.md"},
	}
	for t, f := range files {
		p := out[t]
		data, err := os.ReadFile(filepath.Join(dir, f[0]))
		if err != nil {
			return nil, fmt.Errorf("faults: policy file: %w", err)
		}
		file, err := policyspec.DecodeFile(f[0], data)
		if err != nil {
			return nil, fmt.Errorf("faults: %w", err)
		}
		dep, err := policyspec.ResolveDependency(p.Dependency, file.DependencyLayers(p.Dependency)...)
		if err != nil {
			return nil, fmt.Errorf("faults: %w", err)
		}
		p.Latency = dep.Latency
		if p.Latency.P99 <= 0 {
			return nil, fmt.Errorf("faults: %s: dependency %s has no measured p99", f[0], p.Dependency)
		}
		review, err := os.ReadFile(filepath.Join(dir, f[1]))
		if err != nil {
			return nil, fmt.Errorf("faults: review: %w", err)
		}
		p.Review = string(review)
		out[t] = p
	}
	return out, nil
}

// opsOf keys the policies of the six operations, given in the order of
// [Ops], by their Op names.
func opsOf(ps ...runtime.OperationPolicy) map[string]runtime.OperationPolicy {
	m := make(map[string]runtime.OperationPolicy, len(ps))
	for i, p := range ps {
		m[string(Ops[i])] = p
	}
	return m
}

// ReportDir returns where the demo writes its report by default: the
// folder faultdemo-report beside the pet store example (ignored by git),
// or in the current directory when the example's folder cannot be found.
func ReportDir() string {
	if dir, err := exampleDir(); err == nil {
		return filepath.Join(dir, "faultdemo-report")
	}
	return "faultdemo-report"
}

// exampleDir finds the pet store example's folder: from the working
// directory upwards (go run and go test start inside the module), else
// beside this source file.
func exampleDir() (string, error) {
	const rel = "examples/petstore"
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			if fileExists(filepath.Join(d, "go.mod")) && fileExists(filepath.Join(d, rel, "policy.yaml")) {
				return filepath.Join(d, rel), nil
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if _, file, _, ok := goruntime.Caller(0); ok {
		d := filepath.Dir(filepath.Dir(file))
		if fileExists(filepath.Join(d, "policy.yaml")) {
			return d, nil
		}
	}
	return "", errors.New("faults: cannot find examples/petstore (run inside the resilient module)")
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
