package petstore

import "maps"

// Snapshot returns a copy of the counters.
func (c *Counters) Snapshot() CountersSnapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CountersSnapshot{
		Requests:     c.requests.Load(),
		PerOperation: maps.Clone(nonNil(c.perOp)),
		Applied:      maps.Clone(nonNil(c.applied)),
		Adopts:       maps.Clone(nonNil(c.adopts)),
		AdoptsByCall: maps.Clone(nonNil(c.adoptsByCall)),
		InFlight:     c.inFlight.Load(),
		MaxInFlight:  c.maxInFlight.Load(),
		Shed:         c.shed.Load(),
		SlowWaited:   c.slowWaited.Load(),
		SlowCut:      c.slowCut.Load(),
	}
}

// Reset sets every counter to zero except InFlight, which counts requests
// still being handled; MaxInFlight restarts from it.
func (c *Counters) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests.Store(0)
	c.shed.Store(0)
	c.slowWaited.Store(0)
	c.slowCut.Store(0)
	c.maxInFlight.Store(c.inFlight.Load())
	c.perOp, c.applied, c.adopts, c.adoptsByCall = nil, nil, nil, nil
}

// MaxApplied returns the highest number of times one idempotency key's
// create was applied: 1 when there was no duplicate, 0 with no creates.
func (s CountersSnapshot) MaxApplied() int64 {
	var m int64
	for _, n := range s.Applied {
		m = max(m, n)
	}
	return m
}

// DuplicateEffects returns the side effects applied more than once for
// one logical call: for each idempotency key, the creates applied beyond
// the first, and for each call id, the adopts applied beyond the first.
// Creates without a key and adopts without a call id cannot be told apart
// and are not counted; the clients of this package always send both.
func (s CountersSnapshot) DuplicateEffects() int64 {
	var n int64
	for key, applied := range s.Applied {
		if key != "" && applied > 1 {
			n += applied - 1
		}
	}
	for id, applied := range s.AdoptsByCall {
		if id != "" && applied > 1 {
			n += applied - 1
		}
	}
	return n
}

// TotalAdopts returns the adopts applied, all pets together.
func (s CountersSnapshot) TotalAdopts() int64 {
	var t int64
	for _, n := range s.Adopts {
		t += n
	}
	return t
}

// enter counts a request reaching the handler for op and returns the
// function that counts it done.
func (c *Counters) enter(op string) func() {
	c.requests.Add(1)
	c.add(&c.perOp, op)
	n := c.inFlight.Add(1)
	for {
		m := c.maxInFlight.Load()
		if n <= m || c.maxInFlight.CompareAndSwap(m, n) {
			break
		}
	}
	return func() { c.inFlight.Add(-1) }
}

func (c *Counters) countShed() { c.shed.Add(1) }

// countSlow counts a request the tail made slow when it ends: waited when
// it slept its whole delay, cut when its context ended first (the caller
// stopped waiting for it, as when a hedge answered).
func (c *Counters) countSlow(waited bool) {
	if waited {
		c.slowWaited.Add(1)
	} else {
		c.slowCut.Add(1)
	}
}
func (c *Counters) countApplied(key string) { c.add(&c.applied, key) }
func (c *Counters) countAdopt(id, callID string) {
	c.add(&c.adopts, id)
	c.add(&c.adoptsByCall, callID)
}

func (c *Counters) add(m *map[string]int64, k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if *m == nil {
		*m = make(map[string]int64)
	}
	(*m)[k]++
}

func nonNil(m map[string]int64) map[string]int64 {
	if m == nil {
		return map[string]int64{}
	}
	return m
}
