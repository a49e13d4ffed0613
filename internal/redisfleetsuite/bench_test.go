package redisfleetsuite_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/sony/gobreaker/v2"

	"github.com/resilientgo/resilient/internal/redistest"
	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/redisfleet"
)

// BenchmarkFleetCall measures one successful call against a real
// redis-server on loopback (it fails when redis-server is not installed):
//
//   - local: runtime.Do, breaker and budget in process;
//   - fleet: runtime.Do with the breaker and budget shared through this
//     package's Store;
//   - distributed: gobreaker/v2's DistributedCircuitBreaker on the same
//     Redis (GET, SET NX lock, SET, DEL around every call), with the same
//     deadline context, and nothing else of the pipeline.
//
// Run it with
//
//	go test ./internal/redisfleetsuite -run '^$' -bench FleetCall -benchmem -count 6
func BenchmarkFleetCall(b *testing.B) {
	srv := redistest.Start(b)
	rdb := newClient(srv.Addr())
	defer rdb.Close()
	attempt := func(context.Context) (int, error) { return 42, nil }
	p := breakerPolicy()
	p.Fleet.Prefix = "bench:"
	quiet := runtime.WithLogger(slog.New(slog.DiscardHandler))
	do := func(opts ...runtime.Option) func(b *testing.B) {
		return func(b *testing.B) {
			dep, err := runtime.NewDependency("bench", p, append(opts, quiet)...)
			if err != nil {
				b.Fatal(err)
			}
			defer dep.Close()
			op, err := dep.Operation(runtime.OperationPolicy{Name: "Get", Idempotency: runtime.Idempotent, Timeout: time.Second})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := runtime.Do(ctx, op, "", attempt); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("local", do())
	b.Run("fleet", do(runtime.WithFleet(redisfleet.New(rdb))))
	b.Run("distributed", func(b *testing.B) {
		dcb, err := gobreaker.NewDistributedCircuitBreaker[int](&redisShared{rdb: rdb}, gobreaker.Settings{
			Name: "bench", MaxRequests: 5, Interval: 10 * time.Second, BucketPeriod: time.Second, Timeout: 30 * time.Second,
		})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			cctx, cancel := context.WithTimeout(ctx, time.Second)
			_, err := dcb.Execute(func() (int, error) { return attempt(cctx) })
			cancel()
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// redisShared is the gobreaker.SharedDataStore of gobreaker's own
// example, on go-redis: a SET NX lock and a plain key.
type redisShared struct{ rdb *redis.Client }

var errLocked = errors.New("locked")

func (s *redisShared) Lock(name string) error {
	ok, err := s.rdb.SetNX(context.Background(), name, "1", 5*time.Second).Result()
	if err == nil && !ok {
		err = errLocked
	}
	return err
}

func (s *redisShared) Unlock(name string) error {
	return s.rdb.Del(context.Background(), name).Err()
}

func (s *redisShared) GetData(name string) ([]byte, error) {
	v, err := s.rdb.Get(context.Background(), name).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	return v, err
}

func (s *redisShared) SetData(name string, data []byte) error {
	return s.rdb.Set(context.Background(), name, data, 0).Err()
}
