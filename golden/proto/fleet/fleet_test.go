package fleet

import (
	"context"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/resilientgo/resilient/internal/redistest"
	"github.com/resilientgo/resilient/internal/testtier"
	"github.com/resilientgo/resilient/runtime"
)

// TestMain checks that no goroutine outlives the tests: the fleet's
// synchronisation ends once its Redis client is closed.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// stock answers every GetStock with a count of 3.
type stock struct{ UnimplementedStockServer }

func (stock) GetStock(context.Context, *StockRequest) (*StockReply, error) {
	return &StockReply{Count: 3}, nil
}

// fleetEvents is an observer that passes on where the dependency keeps
// its breaker and budget state.
type fleetEvents struct {
	runtime.NopObserver
	events chan runtime.FleetEvent
}

func (o fleetEvents) FleetChange(e runtime.FleetEvent) { o.events <- e }

// dialStock serves Stock on an in-memory listener and returns a
// connection to it; both end with the test.
func dialStock(t *testing.T) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 16)
	srv := grpc.NewServer()
	RegisterStockServer(srv, stock{})
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	cc, err := grpc.NewClient("passthrough:///stock",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	return cc
}

// TestWithStockFleet: WithStockFleet hands the Redis client to the
// dependency, whose state becomes the fleet's in a redis-server on the
// loopback while calls are answered; closing the Redis client hands the
// state back to the replica and ends the synchronisation. Without the
// option, or given nil, calls are answered on local state.
func TestWithStockFleet(t *testing.T) {
	testtier.Slow(t)
	srv := redistest.Start(t)
	cc := dialStock(t)
	quiet := WithStockLogger(slog.New(slog.DiscardHandler))
	ctx := context.Background()

	for _, opts := range [][]StockOption{{quiet}, {quiet, WithStockFleet(nil)}} {
		reply, err := NewResilientStockClient(cc, opts...).GetStock(ctx, &StockRequest{Sku: "a"})
		if err != nil || reply.GetCount() != 3 {
			t.Fatalf("without a Redis client: GetStock = %v, %v; want a count of 3", reply, err)
		}
	}

	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	obs := fleetEvents{events: make(chan runtime.FleetEvent, 8)}
	c := NewResilientStockClient(cc, quiet, WithStockObserver(obs), WithStockFleet(rdb))
	next := func(what string) runtime.FleetEvent {
		t.Helper()
		select {
		case e := <-obs.events:
			return e
		case <-time.After(10 * time.Second):
			t.Fatalf("no fleet event within 10s after %s", what)
			return runtime.FleetEvent{}
		}
	}
	if e := next("NewResilientStockClient"); !e.Shared || e.Store != "sessions-redis" || e.Dependency != "golden.fleet.Stock" {
		t.Errorf("first fleet event = %+v, want shared in sessions-redis for golden.fleet.Stock", e)
	}
	reply, err := c.GetStock(ctx, &StockRequest{Sku: "a"})
	if err != nil || reply.GetCount() != 3 {
		t.Fatalf("with the fleet: GetStock = %v, %v; want a count of 3", reply, err)
	}
	rdb.Close()
	if e := next("closing the Redis client"); e.Shared {
		t.Errorf("fleet event after closing the Redis client = %+v, want local", e)
	}
}
