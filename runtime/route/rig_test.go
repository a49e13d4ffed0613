package route

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/resilientgo/resilient/runtime"
)

// pipeListener is an in-memory listener: Dial hands one end of a net.Pipe
// to Accept. Inside a synctest bubble it gives real HTTP on the fake clock.
// It counts the server side's connections that are still open.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	open  atomic.Int64
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return &net.UnixAddr{Name: "pipe", Net: "pipe"} }

func (l *pipeListener) Dial(ctx context.Context, _, _ string) (net.Conn, error) {
	server, client := net.Pipe()
	select {
	case l.conns <- &countedConn{Conn: server, l: l}:
		l.open.Add(1)
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type countedConn struct {
	net.Conn
	l    *pipeListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.l.open.Add(-1) })
	return c.Conn.Close()
}

// countingTransport counts the response bodies it hands out and those
// closed.
type countingTransport struct {
	next           http.RoundTripper
	opened, closed atomic.Int64
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	if err == nil {
		c.opened.Add(1)
		resp.Body = &countedBody{ReadCloser: resp.Body, n: &c.closed}
	}
	return resp, err
}

type countedBody struct {
	io.ReadCloser
	n    *atomic.Int64
	once sync.Once
}

func (c *countedBody) Close() error {
	c.once.Do(func() { c.n.Add(1) })
	return c.ReadCloser.Close()
}

// httpRig is a server and a transport talking over a pipeListener. Create
// it inside a synctest bubble; its cleanup checks that every response
// body was closed and that no connection is left in use.
type httpRig struct {
	tr *countingTransport
}

func newHTTPRig(t *testing.T, h http.Handler) *httpRig {
	t.Helper()
	l := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	base := &http.Transport{DialContext: l.Dial}
	tr := &countingTransport{next: base}
	t.Cleanup(func() {
		synctest.Wait() // let abandoned attempts finish
		if o, c := tr.opened.Load(), tr.closed.Load(); o != c {
			t.Errorf("response bodies: %d opened, %d closed", o, c)
		}
		base.CloseIdleConnections()
		synctest.Wait()
		if n := l.open.Load(); n != 0 {
			t.Errorf("%d connections still open after closing idle ones", n)
		}
		srv.Close()
	})
	return &httpRig{tr: tr}
}

func testDependency(t *testing.T) *runtime.Dependency {
	t.Helper()
	d, err := runtime.NewDependency("pets", runtime.DependencyPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func testOperation(t *testing.T, d *runtime.Dependency, p runtime.OperationPolicy) *runtime.Operation {
	t.Helper()
	if p.Name == "" {
		p.Name = "op"
	}
	op, err := d.Operation(p)
	if err != nil {
		t.Fatal(err)
	}
	return op
}
