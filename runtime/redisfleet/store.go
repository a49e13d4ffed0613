package redisfleet

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/runtime/fleetstore"
)

// Store is a [fleetstore.Store] on Redis or Valkey. It is safe for
// concurrent use, and one Store may serve any number of dependencies.
type Store struct {
	rdb    redis.UniversalClient
	script *redis.Script

	clocks sync.Map // channel → *clock: the server's time, as last read

	mu       sync.Mutex
	watchers map[string]map[uint64]func() // channel → id → notify
	nextID   uint64
	ps       *redis.PubSub // nil when nothing is watched
	cancel   context.CancelFunc
	done     chan struct{}
}

var _ fleetstore.Store = (*Store)(nil)

// New returns a store on rdb: a single node (*redis.Client), Sentinel
// (redis.NewFailoverClient) or Cluster (*redis.ClusterClient). Every key
// of one dependency carries the same hash tag, so that its script runs on
// one node of a cluster. The store does not close rdb; closing rdb ends
// the synchronisation of every dependency using the store (their state
// goes local).
func New(rdb redis.UniversalClient) *Store {
	return &Store{rdb: rdb, script: redis.NewScript(syncScript), watchers: map[string]map[uint64]func(){}}
}

// Keys returns the names of the keys that hold the shared state of the
// dependency under prefix: the breaker, its counts, the retry budget, and
// the channel on which transitions are announced.
func Keys(prefix, dependency string) (breaker, counts, budget, channel string) {
	base := prefix + "{" + dependency + "}"
	return base + ":breaker", base + ":counts", base + ":budget", base + ":events"
}

// Sync runs the synchronisation script: one EVALSHA (EVAL the first time
// a server sees it).
func (s *Store) Sync(ctx context.Context, req *fleetstore.Request) (fleetstore.Reply, error) {
	breaker, counts, budget, channel := Keys(req.Prefix, req.Dependency)
	br, bu := &req.Breaker, &req.Budget
	p := br
	bucket := max(br.Bucket.Milliseconds(), 1)
	buckets := max((p.Window.Milliseconds()+bucket-1)/bucket, 1)
	open := max(p.OpenFor.Milliseconds(), 1)
	ttl := 2*(p.Window.Milliseconds()+open) + time.Minute.Milliseconds()
	args := []any{
		req.Replica, strconv.FormatUint(br.Generation, 10),
		strconv.FormatUint(br.Successes, 10), strconv.FormatUint(br.Failures, 10),
		flag(br.WantProbe), int(br.Verdict),
		bucket, buckets, p.MinimumCalls, p.FailureRate, open, max(br.ProbeLease.Milliseconds(), 1),
		flag(bu.Disabled), strconv.FormatUint(bu.Calls, 10), bu.Want, bu.WantFloor,
		int64(bu.Ratio*1000 + 0.5), int64(bu.MaxBalance * 1000), bu.MinPerSecond,
		channel, ttl, s.expiry(ctx, channel),
	}
	v, err := s.script.Run(ctx, s.rdb, []string{breaker, counts, budget}, args...).Result()
	received := time.Now()
	if err != nil {
		if errors.Is(err, redis.ErrClosed) {
			return fleetstore.Reply{}, fmt.Errorf("redisfleet: %w: %w", fleetstore.ErrClosed, err)
		}
		return fleetstore.Reply{}, fmt.Errorf("redisfleet: sync of %s: %w", req.Dependency, err)
	}
	r, now, err := parseReply(v)
	if now > 0 {
		c, _ := s.clocks.LoadOrStore(channel, &clock{})
		c.(*clock).set(now, received)
	}
	if err != nil {
		return r, fmt.Errorf("redisfleet: sync of %s: %w", req.Dependency, err)
	}
	return r, nil
}

// clock is the server's time (Unix ms) as a reply last read it, and when
// that reply was received: the server's time now is estimated from it,
// never from the replica's wall clock.
type clock struct {
	mu sync.Mutex
	ms int64
	at time.Time
}

func (c *clock) set(ms int64, at time.Time) {
	c.mu.Lock()
	c.ms, c.at = ms, at
	c.mu.Unlock()
}

// expiry returns the server time (Unix ms) after which the script drops
// a request made under ctx, or 0 when ctx has no deadline or the server's
// clock is not known yet. The estimate is low by the reply's trip back
// from the server, so the request expires a little before ctx does, never
// after.
func (s *Store) expiry(ctx context.Context, channel string) int64 {
	deadline, ok := ctx.Deadline()
	if !ok {
		return 0
	}
	v, ok := s.clocks.Load(channel)
	if !ok {
		return 0
	}
	c := v.(*clock)
	c.mu.Lock()
	ms, at := c.ms, c.at
	c.mu.Unlock()
	if at.IsZero() {
		return 0
	}
	return ms + deadline.Sub(at).Milliseconds()
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// parseReply reads the script's reply, refusing anything else, and
// returns the server's time it carries (0 when none).
func parseReply(v any) (fleetstore.Reply, int64, error) {
	a, _ := v.([]any)
	if len(a) == 2 {
		// {-1, now}: the request reached the server after its deadline.
		code, _ := a[0].(int64)
		now, _ := a[1].(int64)
		if code == -1 && now > 0 {
			return fleetstore.Reply{}, now, errors.New("the request reached the server after its deadline and was dropped")
		}
	}
	if len(a) != 8 {
		return fleetstore.Reply{}, 0, fmt.Errorf("unexpected reply %T of length %d, want 8 integers", v, len(a))
	}
	var n [8]int64
	for i, x := range a {
		k, ok := x.(int64)
		if !ok || k < 0 {
			return fleetstore.Reply{}, 0, fmt.Errorf("reply element %d is %v, want a non-negative integer", i, x)
		}
		n[i] = k
	}
	var r fleetstore.Reply
	switch n[1] {
	case 0:
		r.State = fleetstore.Closed
	case 1:
		r.State = fleetstore.HalfOpen
	case 2:
		r.State = fleetstore.Open
	default:
		return r, n[7], fmt.Errorf("reply breaker state %d, want 0, 1 or 2", n[1])
	}
	r.Generation = uint64(n[0])
	r.OpenLeft = time.Duration(n[2]) * time.Millisecond
	r.Prober = n[3] == 1
	r.Requests, r.Failures = uint64(n[4]), uint64(n[5])
	r.Granted = n[6]
	return r, n[7], nil
}

// Watch subscribes to the dependency's channel. All the watches of a
// Store share one pub/sub connection, opened by the first and closed
// with the last. notify is also called after the connection was
// re-established, when announcements may have been missed.
func (s *Store) Watch(prefix, dependency string, notify func()) func() {
	_, _, _, channel := Keys(prefix, dependency)
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextID
	s.nextID++
	w := s.watchers[channel]
	if w == nil {
		w = map[uint64]func(){}
		s.watchers[channel] = w
	}
	w[id] = notify
	if s.ps == nil {
		ctx, cancel := context.WithCancel(context.Background())
		// go-redis keeps the channel even when SUBSCRIBE fails, and
		// subscribes again whenever it reconnects.
		s.ps = s.rdb.Subscribe(ctx, channel)
		s.cancel, s.done = cancel, make(chan struct{})
		go s.receive(ctx, s.ps, s.done)
	} else if len(w) == 1 {
		_ = s.ps.Subscribe(context.Background(), channel)
	}
	return sync.OnceFunc(func() { s.unwatch(channel, id) })
}

func (s *Store) unwatch(channel string, id uint64) {
	s.mu.Lock()
	w := s.watchers[channel]
	delete(w, id)
	if len(w) > 0 {
		s.mu.Unlock()
		return
	}
	delete(s.watchers, channel)
	if len(s.watchers) > 0 {
		_ = s.ps.Unsubscribe(context.Background(), channel)
		s.mu.Unlock()
		return
	}
	ps, cancel, done := s.ps, s.cancel, s.done
	s.ps, s.cancel, s.done = nil, nil, nil
	s.mu.Unlock()
	cancel()
	_ = ps.Close()
	<-done
}

// receive hands announcements to the watchers until ctx is cancelled.
func (s *Store) receive(ctx context.Context, ps *redis.PubSub, done chan struct{}) {
	defer close(done)
	backoff := 10 * time.Millisecond
	for ctx.Err() == nil {
		msg, err := ps.ReceiveTimeout(ctx, time.Second)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			// The connection is gone: go-redis reconnects on the next
			// receive. Wait a little, longer each time, up to a second.
			t := time.NewTimer(backoff)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			backoff = min(2*backoff, time.Second)
			continue
		}
		backoff = 10 * time.Millisecond
		switch m := msg.(type) {
		case *redis.Message:
			s.notify(m.Channel)
		case *redis.Subscription:
			// (Re)subscribed: announcements may have been missed.
			if m.Kind == "subscribe" {
				s.notify(m.Channel)
			}
		}
	}
}

func (s *Store) notify(channel string) {
	s.mu.Lock()
	fs := make([]func(), 0, len(s.watchers[channel]))
	for _, f := range s.watchers[channel] {
		fs = append(fs, f)
	}
	s.mu.Unlock()
	for _, f := range fs {
		f()
	}
}
