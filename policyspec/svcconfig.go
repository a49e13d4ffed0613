package policyspec

import (
	"fmt"

	"github.com/resilientgo/resilient/runtime"
)

// fitServiceConfigCap keeps a backoff cap that a gRPC service config set
// below the total timeout that a layer above it sets. The cap was written
// for the service config's own timeout; under a shorter one, written for
// this client, it would leave no time to retry. It becomes the built-in
// cap, or half the timeout when that is shorter, and the base at most the
// cap; the source says why. A cap written anywhere else that is not below
// the timeout is an error, E-RANGE (see checkTimeouts).
func (r *resolution) fitServiceConfigCap() {
	rs, p := &r.s.Retry, &r.op.Policy.Retry
	t := r.s.Timeout
	if !rs.Cap.Set || rs.Cap.from() != LayerServiceConfig || !t.Set || t.from() == LayerServiceConfig || p.Cap < t.Value {
		return
	}
	was := p.Cap
	p.Cap = min(runtime.DefaultBackoffCap, t.Value/2)
	r.op.Sources["retry.cap"] = Source{Origin: OriginDerived,
		Basis: fmt.Sprintf("the service config's %s is not below the timeout %s set by the %s", was, t.Value, t.from())}
	if p.Base > p.Cap {
		p.Base = p.Cap
		r.op.Sources["retry.base"] = Source{Origin: OriginDerived, Basis: "at most the cap"}
	}
}
