// Package redistest starts a real redis-server for tests: on a free
// loopback port, in a temporary directory, without persistence, killed
// when the test ends. Tests that use it belong to the slow tier
// (internal/testtier). When redis-server is not installed or does not
// start, [Start] skips the test and says how to install it; .ci/run
// installs it (Debian's redis-server package).
package redistest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/resilientgo/resilient/internal/testtier"
	"time"
)

// Server is a redis-server started by [Start]. Its methods are safe for
// concurrent use.
type Server struct {
	t    testing.TB
	bin  string
	dir  string
	port int

	mu     sync.Mutex
	cmd    *exec.Cmd  // nil when not running
	exited chan error // receives the running server's exit
}

// Start starts a redis-server on 127.0.0.1 and a free port, and stops it
// when t ends. It fails t when redis-server is not installed
// ([testtier.Tool]) and skips it when the server cannot be started.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := testtier.Tool(t, "redis-server", "apt-get install -y redis-server")
	var err error
	s := &Server{t: t, bin: bin, dir: t.TempDir()}
	var last error
	for range 5 {
		s.port, err = freePort()
		if err != nil {
			last = err
			continue
		}
		if last = s.start(); last == nil {
			t.Cleanup(s.Kill)
			return s
		}
	}
	t.Skipf("redis-server did not start on 127.0.0.1: %v", last)
	return nil
}

// Addr returns the server's address, "127.0.0.1:port".
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Kill stops the server at once (SIGKILL) and waits for it to exit. It
// does nothing when the server is not running.
func (s *Server) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// Stop suspends the server (SIGSTOP): it keeps its connections, and the
// kernel goes on accepting new ones and queueing what clients send, but
// nothing is answered until [Server.Continue], as a stalled server or a
// partition looks. It fails the test when the server is not running.
func (s *Server) Stop() { s.signal(syscall.SIGSTOP) }

// Continue resumes a server suspended by [Server.Stop].
func (s *Server) Continue() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig os.Signal) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		s.t.Fatalf("redis-server on %s is not running", s.Addr())
		return
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("redis-server on %s: %v: %v", s.Addr(), sig, err)
	}
}

// Restart starts the server again on the same port, empty, after
// [Server.Kill]. It fails the test when it cannot.
func (s *Server) Restart() {
	s.t.Helper()
	var err error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err = s.start(); err == nil {
			return
		}
	}
	s.t.Fatalf("redis-server did not restart on %s: %v", s.Addr(), err)
}

// start runs redis-server and waits until it answers PING.
func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return nil
	}
	cmd := exec.Command(s.bin,
		"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir,
		"--protected-mode", "no", "--daemonize", "no",
		"--logfile", filepath.Join(s.dir, "redis.log"))
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if ping(s.Addr()) == nil {
			s.cmd, s.exited = cmd, exited
			return nil
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			return fmt.Errorf("redis-server exited: %v: %s", err, lastLine(string(log)))
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-exited
			return fmt.Errorf("redis-server did not answer PING on %s within 5 s", s.Addr())
		}
	}
}

// ping sends PING and reads the answer.
func ping(addr string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(200 * time.Millisecond))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "+PONG") {
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
