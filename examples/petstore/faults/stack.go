package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
	"google.golang.org/grpc"

	"github.com/resilientgo/resilient/examples/petstore"
	"github.com/resilientgo/resilient/runtime/server"
)

// Transport is the protocol a client speaks to the store.
type Transport string

// The two transports of the pet store.
const (
	HTTP Transport = "HTTP"
	GRPC Transport = "gRPC"
)

// quietToxiproxy silences zerolog's global logger, which Toxiproxy's toxics
// write to, once per process.
var quietToxiproxy = sync.OnceFunc(func() { zerolog.SetGlobalLevel(zerolog.Disabled) })

// Stack is one run's system under test: the store with its faults and
// counters, one server (HTTP or gRPC) on a loopback port, and, for network
// faults, a Toxiproxy proxy in front of it. Clients connect to Addr.
type Stack struct {
	Transport Transport
	Faults    *petstore.Faults
	Counters  *petstore.Counters

	// Addr is where clients connect, host:port on 127.0.0.1: the proxy's
	// address, or the server's when the stack has no proxy.
	Addr string

	ln        *countingListener
	httpSrv   *http.Server
	grpcSrv   *grpc.Server
	proxy     *toxiproxy.Proxy
	served    chan struct{}
	closeOnce sync.Once
}

// StartStack starts the store's server for transport on 127.0.0.1:0, with
// shed as its load shedder, and, with proxy, a Toxiproxy proxy in front of
// it (a stack without one costs the machine less, and cannot take toxics).
func StartStack(transport Transport, shed server.ShedConfig, proxy bool) (*Stack, error) {
	quietToxiproxy()
	s := &Stack{
		Transport: transport,
		Faults:    new(petstore.Faults),
		Counters:  new(petstore.Counters),
		served:    make(chan struct{}),
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("faults: listen: %w", err)
	}
	s.ln = &countingListener{Listener: l}
	store := petstore.NewStore(s.Faults, s.Counters)
	switch transport {
	case HTTP:
		s.httpSrv = &http.Server{
			Handler:           petstore.NewHTTPServer(store, shed),
			ReadHeaderTimeout: 5 * time.Second,
		}
		go func() { defer close(s.served); _ = s.httpSrv.Serve(s.ln) }()
	case GRPC:
		s.grpcSrv = petstore.NewGRPCServer(store, shed)
		go func() { defer close(s.served); _ = s.grpcSrv.Serve(s.ln) }()
	default:
		l.Close()
		return nil, fmt.Errorf("faults: unknown transport %q", transport)
	}
	if !proxy {
		s.Addr = l.Addr().String()
		return s, nil
	}
	api := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	s.proxy = toxiproxy.NewProxy(api, "petstore-"+string(transport), "127.0.0.1:0", l.Addr().String())
	if err := s.proxy.Start(); err != nil {
		s.stopServer()
		return nil, fmt.Errorf("faults: start proxy: %w", err)
	}
	s.Addr = s.proxy.Listen
	return s, nil
}

// Toxic adds a Toxiproxy toxic named name of type typ on the downstream
// (server to client) direction, applied to a share toxicity of connections.
// It fails on a stack without a proxy.
func (s *Stack) Toxic(name, typ string, toxicity float32, attrs map[string]any) error {
	if s.proxy == nil {
		return errors.New("faults: a toxic needs a stack with a proxy (Scenario.Network)")
	}
	b, err := json.Marshal(map[string]any{
		"name": name, "type": typ, "stream": "downstream",
		"toxicity": toxicity, "attributes": attrs,
	})
	if err != nil {
		return err
	}
	_, err = s.proxy.Toxics.AddToxicJson(bytes.NewReader(b))
	return err
}

// RemoveToxic removes the toxic named name; a missing one is not an error.
func (s *Stack) RemoveToxic(name string) {
	if s.proxy == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = s.proxy.Toxics.RemoveToxic(ctx, name)
}

// OpenConns returns the connections the server has open now.
func (s *Stack) OpenConns() int64 { return s.ln.open.Load() }

// Close removes every toxic, stops the proxy (closing its connections) and
// the server, and waits for the server to stop serving.
func (s *Stack) Close() {
	s.closeOnce.Do(func() {
		if s.proxy != nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			s.proxy.Toxics.ResetToxics(ctx)
			cancel()
			s.proxy.Stop()
		}
		s.stopServer()
	})
}

func (s *Stack) stopServer() {
	if s.httpSrv != nil {
		_ = s.httpSrv.Close()
	}
	if s.grpcSrv != nil {
		s.grpcSrv.Stop()
	}
	select {
	case <-s.served:
	case <-time.After(5 * time.Second):
	}
}

// countingListener counts the connections it accepted that are still open.
type countingListener struct {
	net.Listener
	open atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.open.Add(1)
	return &countedConn{Conn: c, l: l}, nil
}

type countedConn struct {
	net.Conn
	l    *countingListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.l.open.Add(-1) })
	return c.Conn.Close()
}
