package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	goruntime "runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/resilientgo/resilient/runtime/fleetstore"
)

// WithFleet shares the dependency's circuit breaker and retry budget with
// the other replicas of the service through s (for Redis, see the
// redisfleet sub-package), as [DependencyPolicy.Fleet] configures. Nil,
// the default, keeps both local to the process.
//
// Nothing of it is on a call's path: calls count their outcomes in memory,
// and one goroutine per dependency pushes the counts to s and reads the
// fleet's state back every [FleetPolicy.SyncInterval], sooner after a
// failed attempt or a transition announced by s. So:
//
//   - the fleet's replicas count one failure rate over the window and
//     open together: a replica refuses attempts once it has learnt that
//     the fleet's breaker is open, within the propagation bound below;
//   - after the open period one replica, the prober, lets the half-open
//     probes through, and its verdict closes or reopens the breaker for
//     every replica;
//   - retries are paid from tokens leased from the fleet's budget (the
//     ratio of the fleet's calls, and the floor of MinPerSecond for the
//     whole fleet); a retry that finds the replica's lease empty asks
//     for a refill at once and waits for it (about one round trip, at
//     most two sync intervals; a hedge does not wait), and fails with
//     [ErrBudgetExhausted] when the fleet grants no token;
//   - a retry after a failed attempt waits, before its backoff, until
//     the synchronisation that carries the failure has ended (about one
//     round trip, at most two sync intervals; a hedge does not wait): the
//     fleet has counted every failure before it, so that however many
//     tokens the replicas hold, at most twice the minimum calls reach a
//     dependency that went down before the whole fleet is open.
//
// A transition reaches every replica within one round trip after s
// announces it, and at worst within SyncInterval plus one round trip
// (200 ms and a few milliseconds by default) when the announcement is
// lost. When s cannot be reached, answers slowly or answers something
// unreadable for [FleetPolicy.StaleAfter], the replica goes back to its
// local breaker and budget, which it kept counting all along, and rejoins
// the fleet at the next successful synchronisation. No call fails because
// of the store. A synchronisation is given up at its deadline (the
// smaller of SyncInterval and half of StaleAfter) whatever the store's
// client does with its context, and the next one is not held up by it.
// The outcomes a synchronisation carried are dropped when it fails, and
// so are those counted while the state was local: a stalled store that
// comes back receives none of them. A fleet breaker known to be open
// stays open locally until the end of its open period, never longer. Going local and rejoining are
// logged once each and reported to a [FleetObserver].
//
// The synchronisation goroutine ends with [Dependency.Close], when s
// returns [fleetstore.ErrClosed], or when the dependency is garbage collected.
func WithFleet(s fleetstore.Store) Option {
	return optionFunc(func(d *Dependency) { d.fleetStore = s })
}

// Close stops the synchronisation of a dependency with its fleet store
// and waits for it to end, and for the store's client to return from a
// synchronisation it was cancelled (a client that ignores its context's
// deadline returns at its own timeout); the dependency goes on with its
// local breaker and budget. It does nothing for a dependency without a store, and
// nothing when called again. It always returns nil.
func (d *Dependency) Close() error {
	if d.fleet != nil {
		d.fleet.close()
	}
	return nil
}

// Fleet returns the dependency's view of its fleet state.
func (d *Dependency) Fleet() FleetStatus {
	if d.fleet == nil {
		return FleetStatus{}
	}
	return d.fleet.snapshot()
}

// Views of the fleet breaker, as calls read them.
const (
	viewLocal    uint32 = iota // the local breaker decides
	viewClosed                 // the fleet's breaker is closed: the local one decides
	viewOpen                   // the fleet's breaker is open
	viewHalfOpen               // half-open, another replica probes
	viewProbing                // half-open, this replica probes
)

// fleet is a dependency's share of the fleet state: what calls read and
// count (atomics), and the goroutine that synchronises it with the store.
// It holds no reference to its Dependency, so that an unreachable
// dependency can stop it when collected.
type fleet struct {
	store    fleetstore.Store
	dep      string
	replica  string
	policy   FleetPolicy
	breakerP BreakerPolicy
	budgetP  BudgetPolicy
	bucket   time.Duration
	logger   *slog.Logger
	observer Observer // nil when none
	fobs     FleetObserver

	// Read and written by calls.
	view       atomic.Uint32
	successes  atomic.Uint64 // attempt outcomes since the last sync
	failures   atomic.Uint64
	calls      atomic.Uint64 // calls admitted since the last sync
	tokens     atomic.Int64  // retry tokens leased from the fleet
	used       atomic.Int64  // tokens spent since the last sync
	missed     atomic.Int64  // retries refused for want of a token
	refused    atomic.Bool   // calls refused by the fleet's breaker
	probes     atomic.Int64  // probes this replica may still send
	probeOK    atomic.Int64  // probes that succeeded
	probeBad   atomic.Bool   // a probe failed
	probeEpoch atomic.Uint64 // bumped when a probe round ends
	abandoned  atomic.Int32  // synchronisations abandoned, still running
	taken      atomic.Uint64 // requests taken: the number of the last
	failSeq    atomic.Uint64 // the request that carries the last failure
	repMu      sync.Mutex
	reported   uint64         // the last request whose synchronisation ended
	repCh      chan struct{}  // closed when reported moves; nil when none waits
	running    sync.WaitGroup // every synchronisation still running
	late       chan lateReply // the newest good answer to an abandoned one
	wake       chan struct{}  // an early sync, at most every SyncInterval/10
	heard      chan struct{}  // a transition announced: sync at once

	stop     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
	closed   atomic.Bool // close was called

	mu     sync.Mutex
	status FleetStatus

	// Owned by the synchronising goroutine.
	gen       uint64
	state     BreakerState
	openUntil time.Time
	lastOK    time.Time
	shared    bool
	applied   uint64 // the request whose answer was applied last
}

// lateReply is the answer to a synchronisation abandoned at its
// deadline, received later: the script ran in time (a request that
// reaches Redis after its deadline changes nothing and answers an error),
// so it is the fleet's state of one round trip ago, and it is applied
// unless a newer answer was.
type lateReply struct {
	seq uint64
	req *fleetstore.Request
	res syncResult
}

func newFleet(d *Dependency, s fleetstore.Store) *fleet {
	host, _ := os.Hostname()
	f := &fleet{
		store:    s,
		dep:      d.name,
		replica:  host + "/" + strconv.Itoa(os.Getpid()) + "/" + strconv.FormatUint(rand.Uint64(), 36),
		policy:   d.policy.Fleet,
		breakerP: d.policy.Breaker,
		budgetP:  d.policy.Budget,
		bucket:   min(DefaultBreakerBucket, d.policy.Breaker.Window),
		logger:   d.logger,
		wake:     make(chan struct{}, 1),
		heard:    make(chan struct{}, 1),
		late:     make(chan lateReply, 1),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	if d.observed {
		f.observer = d.observer
		f.fobs, _ = d.observer.(FleetObserver)
	}
	f.status.Enabled = true
	return f
}

// start runs the synchronising goroutine, stopped by [Dependency.Close]
// or, failing that, when d is collected.
func (f *fleet) start(d *Dependency) {
	go f.run()
	goruntime.AddCleanup(d, func(f *fleet) {
		if !f.closed.Load() {
			f.stopOnce.Do(func() { close(f.stop) })
		}
	}, f)
}

// close stops the goroutine and waits for it.
func (f *fleet) close() {
	f.closed.Store(true)
	f.stopOnce.Do(func() { close(f.stop) })
	<-f.done
}

// poke asks the goroutine for an early synchronisation.
func (f *fleet) poke() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// hear is the store's notification of a transition: the state is read at
// once, without waiting out the gap between early syncs, so that a
// transition reaches the replica one round trip after it is announced.
func (f *fleet) hear() {
	select {
	case f.heard <- struct{}{}:
	default:
	}
}

// shared reports whether the fleet's budget is in use.
func (f *fleet) sharedView() bool { return f.view.Load() != viewLocal }

// count records one attempt outcome told to the local breaker: nil is a
// success, anything else a failure.
func (f *fleet) count(err error) {
	if err == nil {
		f.successes.Add(1)
		return
	}
	// The failure goes in the next request taken, or in the one being
	// taken now: the sequence is read after the failure is counted.
	f.failures.Add(1)
	seq := f.taken.Load() + 1
	for {
		old := f.failSeq.Load()
		if old >= seq || f.failSeq.CompareAndSwap(old, seq) {
			break
		}
	}
	f.poke()
}

// awaitReported waits until the synchronisation that carries the
// replica's last failure has ended, at most two sync intervals: a retry
// is not sent before the fleet has counted the failures
// before it, so that a fleet whose replicas hold retry tokens still opens
// after at most twice the minimum calls. It costs nothing while no
// attempt fails, and about one round trip after a failure (the failure
// asks for an early synchronisation).
func (f *fleet) awaitReported() {
	if f.breakerP.Disabled {
		return
	}
	if want := f.failSeq.Load(); want > 0 {
		f.awaitEnded(want)
	}
}

// awaitEnded waits until the synchronisation of request want has ended,
// at most two sync intervals, or the fleet is closed.
func (f *fleet) awaitEnded(want uint64) {
	var t *time.Timer
	for {
		f.repMu.Lock()
		if f.reported >= want {
			f.repMu.Unlock()
			break
		}
		if f.repCh == nil {
			f.repCh = make(chan struct{})
		}
		ch := f.repCh
		f.repMu.Unlock()
		if t == nil {
			t = time.NewTimer(2 * f.policy.SyncInterval)
			defer t.Stop()
		}
		select {
		case <-ch:
			continue
		case <-t.C:
		case <-f.stop:
		}
		return
	}
}

// ended records the end of request seq's synchronisation, whatever became
// of it, and wakes the calls waiting for it.
func (f *fleet) ended(seq uint64) {
	f.repMu.Lock()
	f.reported = seq
	ch := f.repCh
	f.repCh = nil
	f.repMu.Unlock()
	if ch != nil {
		close(ch)
	}
}

// allow decides an attempt while the fleet's breaker is not closed (v is
// neither viewLocal nor viewClosed).
func (f *fleet) allow(b *breaker, v uint32) (func(error), bool) {
	if v != viewProbing {
		if !f.refused.Load() {
			f.refused.Store(true)
		}
		return nil, false
	}
	for {
		n := f.probes.Load()
		if n <= 0 {
			return nil, false
		}
		if f.probes.CompareAndSwap(n, n-1) {
			break
		}
	}
	epoch := f.probeEpoch.Load()
	done, err := b.cb.Allow()
	if err != nil {
		f.probes.Add(1)
		return nil, false
	}
	return func(err error) {
		done(err)
		f.probeDone(epoch, err)
	}, true
}

// probeDone records a probe's outcome, unless its round has ended.
func (f *fleet) probeDone(epoch uint64, err error) {
	if f.probeEpoch.Load() != epoch {
		return
	}
	switch err {
	case nil:
		if f.probeOK.Add(1) >= int64(f.breakerP.HalfOpenProbes) {
			f.poke()
		}
	case errBreakerExcluded:
		f.probes.Add(1) // says nothing: another call may probe
	default:
		f.probeBad.Store(true)
		f.poke()
	}
}

// withdraw takes one retry token from the replica's lease. An empty
// lease asks for a refill at once, carried by the next synchronisation.
func (f *fleet) withdraw() bool {
	if f.take() {
		return true
	}
	f.refill()
	return false
}

// withdrawWaiting is withdraw for a retry, which may wait: on an empty
// lease it waits for the synchronisation that carries the refill (about
// one round trip, at most two sync intervals) and takes a token from what
// it granted.
func (f *fleet) withdrawWaiting() bool {
	if f.take() {
		return true
	}
	f.awaitEnded(f.refill())
	return f.take()
}

// refill asks the next synchronisation for tokens and returns its
// sequence.
func (f *fleet) refill() uint64 {
	f.missed.Add(1)
	seq := f.taken.Load() + 1 // read after the miss is counted: see count
	f.poke()
	return seq
}

// take takes one retry token from the replica's lease, if it holds one.
func (f *fleet) take() bool {
	for {
		n := f.tokens.Load()
		if n <= 0 {
			return false
		}
		if f.tokens.CompareAndSwap(n, n-1) {
			f.used.Add(1)
			return true
		}
	}
}

// refund gives back a token withdrawn but not spent.
func (f *fleet) refund() {
	f.tokens.Add(1)
	f.used.Add(-1)
}

// leaseMax bounds the tokens a replica asks to hold.
func (f *fleet) leaseMax() int64 {
	return max(1, int64(f.budgetP.MaxBalance)/10)
}

// run is the synchronising goroutine.
func (f *fleet) run() {
	defer close(f.done)
	// Synchronisations abandoned at their deadline were cancelled; a
	// store's client that ignores its context ends them at its own
	// timeout.
	defer f.running.Wait()
	stopWatch := f.store.Watch(f.policy.Prefix, f.dep, f.hear)
	defer stopWatch()
	minGap := f.policy.SyncInterval / 10
	timer := time.NewTimer(0)
	defer timer.Stop()
	var last time.Time
	for {
		select {
		case <-f.stop:
			f.goLocal(nil, "closed")
			return
		case <-timer.C:
		case <-f.heard:
		case l := <-f.late:
			if l.seq > f.applied && checkReply(l.req, l.res.reply) == nil {
				f.applied = l.seq
				f.apply(l.res.reply)
			}
			continue
		case <-f.wake:
			if gap := minGap - time.Since(last); gap > 0 && !last.IsZero() {
				t := time.NewTimer(gap)
				select {
				case <-f.stop:
					t.Stop()
					f.goLocal(nil, "closed")
					return
				case <-t.C:
				}
			}
		}
		f.expireOpen()
		last = time.Now()
		if !f.syncOnce() {
			return
		}
		timer.Reset(f.next())
	}
}

// next returns the time until the next periodic synchronisation: the
// interval, or the end of the open period when that is sooner.
func (f *fleet) next() time.Duration {
	d := f.policy.SyncInterval
	if f.view.Load() == viewOpen {
		if left := time.Until(f.openUntil) + time.Millisecond; left < d {
			d = max(left, 0)
		}
	}
	return d
}

// expireOpen ends a fleet open state honoured after the store went quiet,
// at the end of its open period.
func (f *fleet) expireOpen() {
	if !f.shared && f.view.Load() == viewOpen && !time.Now().Before(f.openUntil) {
		f.view.Store(viewLocal)
	}
}

type syncResult struct {
	reply fleetstore.Reply
	err   error
}

// maxAbandoned bounds the synchronisations abandoned at their deadline
// that may still be running in the store (a client that ignores its
// context's deadline blocks until the store answers or its own timeout):
// past it, a synchronisation fails at once rather than pile up more.
const maxAbandoned = 32

// syncOnce makes one synchronisation and reports whether the goroutine
// goes on. It waits for the store until the synchronisation's deadline
// and no longer, whatever the store's client does with its context: a
// synchronisation still running then is abandoned, and what its request
// carried is dropped (the store drops a request that reaches it after its
// deadline), so that counts are never sent twice nor late. A good answer
// that comes after all is applied then (see lateReply).
func (f *fleet) syncOnce() bool {
	seq := f.taken.Add(1) // before the counts are taken: see count
	defer f.ended(seq)
	req := f.request()
	timeout := min(f.policy.SyncInterval, f.policy.StaleAfter/2)
	if n := f.abandoned.Load(); n >= maxAbandoned {
		return f.handle(req, syncResult{err: fmt.Errorf("resilient: fleet store has not answered %d synchronisations abandoned at their deadline", n)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	res := make(chan syncResult, 1)
	f.running.Go(func() {
		r, err := f.store.Sync(ctx, req)
		res <- syncResult{r, err}
	})
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var stale <-chan time.Time
	if f.shared {
		t := time.NewTimer(max(f.policy.StaleAfter-time.Since(f.lastOK), 0))
		defer t.Stop()
		stale = t.C
	}
	abandon := func() {
		cancel()
		f.abandoned.Add(1)
		f.running.Go(func() {
			r := <-res
			f.abandoned.Add(-1)
			if r.err != nil {
				return
			}
			l := lateReply{seq, req, r}
			for { // keep the newest
				select {
				case f.late <- l:
					return
				default:
				}
				select {
				case old := <-f.late:
					if old.seq > l.seq {
						l = old
					}
				default:
				}
			}
		})
	}
	for {
		select {
		case r := <-res:
			cancel()
			if r.err == nil {
				f.applied = seq
			}
			return f.handle(req, r)
		case <-deadline.C:
			abandon()
			return f.handle(req, syncResult{err: fmt.Errorf("resilient: fleet store did not answer within %v", timeout)})
		case <-stale:
			stale = nil
			f.goLocal(fmt.Errorf("resilient: fleet store did not answer for %v", f.policy.StaleAfter), "store too slow")
		case <-f.stop:
			abandon()
			f.goLocal(nil, "closed")
			return false
		}
	}
}

// request takes what the calls counted since the last synchronisation.
func (f *fleet) request() *fleetstore.Request {
	req := &fleetstore.Request{Prefix: f.policy.Prefix, Dependency: f.dep, Replica: f.replica}
	br := &req.Breaker
	br.Generation = f.gen
	// While a synchronisation abandoned at its deadline may still reach
	// the store, the outcomes counted since stay with the replica: sent
	// once it has ended, or dropped if the replica goes local first. A
	// store too slow for a moment delays them; a stall drops them; so
	// only the first synchronisation of a stall carries counts, the
	// outcomes of one interval before it.
	hold := f.shared && f.abandoned.Load() > 0
	if !hold {
		br.Successes = f.successes.Swap(0)
		br.Failures = f.failures.Swap(0)
	}
	br.WantProbe = f.refused.Swap(false)
	if f.view.Load() == viewProbing {
		switch {
		case f.probeBad.Load():
			br.Verdict = fleetstore.VerdictReopen
		case f.probeOK.Load() >= int64(f.breakerP.HalfOpenProbes):
			br.Verdict = fleetstore.VerdictClose
		}
	}
	br.FailureRate, br.MinimumCalls = f.breakerP.FailureRate, f.breakerP.MinimumCalls
	br.Window, br.OpenFor = f.breakerP.Window, f.breakerP.OpenFor
	br.Bucket = f.bucket
	br.ProbeLease = max(f.policy.StaleAfter, 2*f.policy.SyncInterval)

	bu := &req.Budget
	if !hold {
		bu.Calls = f.calls.Swap(0)
	}
	bu.Disabled, bu.Ratio = f.budgetP.Disabled, f.budgetP.Ratio
	bu.MinPerSecond, bu.MaxBalance = f.budgetP.MinPerSecond, f.budgetP.MaxBalance
	if !f.shared {
		// Counted while the state was local, maybe long ago: the fleet's
		// window must not receive them all at once when the store is
		// back.
		br.Successes, br.Failures, bu.Calls = 0, 0, 0
	}
	if !f.budgetP.Disabled {
		used, missed := f.used.Swap(0), f.missed.Swap(0)
		demand := max(used, 0) + missed
		target := min(f.leaseMax(), 1+demand)
		bu.Want = max(target-f.tokens.Load(), 0)
		bu.WantFloor = min(bu.Want, demand)
	}
	return req
}

// handle applies the result of a synchronisation.
func (f *fleet) handle(req *fleetstore.Request, r syncResult) bool {
	err := r.err
	if err == nil {
		err = checkReply(req, r.reply)
	}
	if err != nil {
		// The counts the request carried are dropped: the store may
		// have applied them before failing, and a request that reaches
		// it late is dropped there. A wish to probe still holds.
		if req.Breaker.WantProbe {
			f.refused.Store(true)
		}
		f.setErr(err)
		if errors.Is(err, fleetstore.ErrClosed) {
			f.goLocal(err, "store closed")
			return false
		}
		if f.shared && time.Since(f.lastOK) >= f.policy.StaleAfter {
			f.goLocal(err, "store unreachable")
		}
		return true
	}
	f.apply(r.reply)
	return true
}

// checkReply refuses a reply that cannot be the fleet's state: a stale or
// malformed shared state is never trusted.
func checkReply(req *fleetstore.Request, r fleetstore.Reply) error {
	switch {
	case r.State != fleetstore.Closed && r.State != fleetstore.Open && r.State != fleetstore.HalfOpen:
		return fmt.Errorf("resilient: fleet store answered breaker state %d", r.State)
	case r.OpenLeft < 0 || r.OpenLeft > req.Breaker.OpenFor:
		return fmt.Errorf("resilient: fleet store answered an open period of %v, outside [0, %v]", r.OpenLeft, req.Breaker.OpenFor)
	case r.Prober && r.State != fleetstore.HalfOpen:
		return errors.New("resilient: fleet store made this replica a prober outside a half-open state")
	case r.Granted < 0 || r.Granted > req.Budget.Want:
		return fmt.Errorf("resilient: fleet store granted %d retry tokens of %d asked", r.Granted, req.Budget.Want)
	case r.Failures > r.Requests:
		return fmt.Errorf("resilient: fleet store counted %d failures of %d requests", r.Failures, r.Requests)
	}
	return nil
}

// breakerState is the breaker state a reply's state stands for; checkReply
// has made sure it is one of the three.
func breakerState(s fleetstore.State) BreakerState {
	switch s {
	case fleetstore.Open:
		return BreakerOpen
	case fleetstore.HalfOpen:
		return BreakerHalfOpen
	default:
		return BreakerClosed
	}
}

// apply adopts the fleet's state.
func (f *fleet) apply(r fleetstore.Reply) {
	now := time.Now()
	state := breakerState(r.State)
	if r.Generation != f.gen || !f.shared {
		// Counts and probes of the previous generation mean nothing now;
		// and outcomes counted while the state was local, before this
		// reply, stay local.
		f.successes.Store(0)
		f.failures.Store(0)
		f.endProbes()
	}
	if !f.shared {
		f.calls.Store(0)
	}
	from := f.state
	f.gen, f.state = r.Generation, state
	if state == BreakerOpen {
		f.openUntil = now.Add(r.OpenLeft)
	}
	f.setView(replyView(state, r.Prober))
	f.tokens.Add(r.Granted)
	f.lastOK = now
	f.record(r, state, now)
	if !f.shared {
		f.shared = true
		f.announceShared(now)
	}
	if from != state {
		f.announceChange(from, state, now)
	}
}

// replyView is the view calls take of a fleet breaker in state, prober
// telling whether this replica probes it when it is half-open.
func replyView(state BreakerState, prober bool) uint32 {
	switch {
	case state == BreakerOpen:
		return viewOpen
	case state == BreakerHalfOpen && prober:
		return viewProbing
	case state == BreakerHalfOpen:
		return viewHalfOpen
	}
	return viewClosed
}

// setView makes view the one calls take, starting this replica's probe
// round as it becomes the prober and ending it as it stops being one.
func (f *fleet) setView(view uint32) {
	switch prev := f.view.Load(); {
	case view == viewProbing && prev != viewProbing:
		f.probes.Store(int64(f.breakerP.HalfOpenProbes))
	case view != viewProbing && prev == viewProbing:
		f.endProbes()
	}
	f.view.Store(view)
}

// record writes the reply r, whose breaker is in state, into the status
// [Dependency.Fleet] reports, synced at now.
func (f *fleet) record(r fleetstore.Reply, state BreakerState, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.Shared = true
	f.status.State, f.status.Generation = state, r.Generation
	f.status.Requests, f.status.Failures = r.Requests, r.Failures
	f.status.LastSync, f.status.Err = now, nil
}

// announceShared tells the log and the fleet observer that the state is
// shared since now.
func (f *fleet) announceShared(now time.Time) {
	f.logger.Info("fleet state shared",
		slog.String("dependency", f.dep), slog.String("store", f.policy.Store))
	if f.fobs != nil {
		f.fobs.FleetChange(FleetEvent{Dependency: f.dep, Store: f.policy.Store, Shared: true, At: now})
	}
}

// announceChange tells the log and the observer that the fleet breaker
// went from one state to another at now.
func (f *fleet) announceChange(from, to BreakerState, now time.Time) {
	f.logger.Info("circuit breaker state change",
		slog.String("dependency", f.dep), slog.String("from", from.String()),
		slog.String("to", to.String()), slog.String("scope", "fleet"))
	if f.observer != nil {
		f.observer.BreakerChange(BreakerEvent{Dependency: f.dep, From: from, To: to, At: now, Fleet: true})
	}
}

// endProbes ends this replica's probe round.
func (f *fleet) endProbes() {
	f.probeEpoch.Add(1)
	f.probes.Store(0)
	f.probeOK.Store(0)
	f.probeBad.Store(false)
}

// goLocal hands the breaker and budget back to the replica's local ones,
// once per stretch without the store. A fleet breaker known to be open
// stays open until the end of its open period.
func (f *fleet) goLocal(err error, why string) {
	if !f.shared {
		return
	}
	f.shared = false
	if f.view.Load() == viewOpen && time.Now().Before(f.openUntil) {
		// expireOpen ends it at openUntil.
	} else {
		f.view.Store(viewLocal)
	}
	f.endProbes()
	f.successes.Store(0)
	f.failures.Store(0)
	f.calls.Store(0)
	f.state = BreakerClosed
	f.mu.Lock()
	f.status.Shared = false
	if err != nil {
		f.status.Err = err
	}
	f.mu.Unlock()
	attrs := []any{slog.String("dependency", f.dep), slog.String("store", f.policy.Store), slog.String("reason", why)}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
		f.logger.Warn("fleet state unavailable, using local breaker and budget", attrs...)
	} else {
		f.logger.Info("fleet state no longer shared, using local breaker and budget", attrs...)
	}
	if f.fobs != nil {
		f.fobs.FleetChange(FleetEvent{Dependency: f.dep, Store: f.policy.Store, Shared: false, Err: err, At: time.Now()})
	}
}

func (f *fleet) setErr(err error) {
	f.mu.Lock()
	f.status.Err = err
	f.mu.Unlock()
}

func (f *fleet) snapshot() FleetStatus {
	f.mu.Lock()
	s := f.status
	f.mu.Unlock()
	s.Tokens = f.tokens.Load()
	return s
}

// FleetEvent describes a change of where a dependency keeps its breaker
// and budget state: shared with the fleet, or local to the replica.
type FleetEvent struct {
	Dependency string
	// Store is the store's name from the policy ([FleetPolicy.Store]).
	Store string
	// Shared is true when the state is now the fleet's, false when the
	// replica went back to its local breaker and budget.
	Shared bool
	// Err is why the state went local: the store's last error (nil when
	// the dependency was closed).
	Err error
	At  time.Time
}

// FleetObserver is an [Observer] that also wants to know when a
// dependency's state goes from fleet to local and back. [NewDependency]
// looks for it on the observer given with [WithObserver].
type FleetObserver interface {
	// FleetChange is called once for every change, from the dependency's
	// background goroutine.
	FleetChange(FleetEvent)
}

// FleetChange does nothing.
func (NopObserver) FleetChange(FleetEvent) {}

// FleetStatus is a dependency's view of its fleet state, from
// [Dependency.Fleet].
type FleetStatus struct {
	// Enabled is true when the dependency was given a store.
	Enabled bool
	// Shared is true while the breaker and budget are the fleet's; false
	// while the replica uses its local ones (no store, or the store is
	// unreachable, slow or unreadable).
	Shared bool
	// State is the fleet breaker's state as last synchronised.
	State BreakerState
	// Generation is the fleet breaker's generation as last synchronised.
	Generation uint64
	// Requests and Failures are the fleet's counts in its window as last
	// synchronised.
	Requests, Failures uint64
	// Tokens is the number of retry tokens the replica holds from the
	// fleet's budget.
	Tokens int64
	// LastSync is when the last successful synchronisation ended; zero
	// before any.
	LastSync time.Time
	// Err is the last synchronisation's error, nil when it succeeded.
	Err error
}
