package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// server is the bin/booking serve the benchmark started.
type server struct {
	cmd     *exec.Cmd
	base    string
	logPath string
	exited  chan struct{} // closed once the process has exited, err set
	err     error         // what cmd.Wait returned
}

// serveFlags are what the benchmark passes to serve beyond --addr: its rate limits, each off at 0. Every
// synthetic person calls from 127.0.0.1, and the benchmark measures the service, not its limits.
var serveFlags = []string{"--rate-per-user=0", "--rate-per-address=0"}

// listeningLine is the line serve prints on stdout once it listens.
var listeningLine = regexp.MustCompile(`listening on http://(\S+)`)

// startServer starts bin/booking serve on a loopback port of the system's choosing, with its logs in
// logPath, the environment variables env and the flags beyond serveFlags, reads where it listens from
// its stdout, and waits until /readyz answers 200.
func startServer(ctx context.Context, dbURL, logPath string, stdout io.Writer, env []string, flags ...string) (*server, error) {
	logs, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	addrs := make(chan string, 1)
	args := append(append([]string{"serve", "--addr", "127.0.0.1:0"}, serveFlags...), flags...)
	cmd := exec.Command("bin/booking", args...)
	cmd.Env = append(append(os.Environ(), "DATABASE_URL="+dbURL), env...)
	cmd.Stdout, cmd.Stderr = &addrWatch{w: logs, addrs: addrs}, logs
	// Wait returns soon after the server exits, even if something it started still holds its stdout.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		logs.Close()
		return nil, fmt.Errorf("start bin/booking serve: %w", err)
	}
	s := &server{cmd: cmd, logPath: logPath, exited: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		logs.Close()
		close(s.exited)
	}()
	deadline := time.NewTimer(serverReadyTimeout)
	defer deadline.Stop()
	select {
	case addr := <-addrs:
		s.base = "http://" + addr
		fmt.Fprintf(stdout, "bench: bin/booking %s (pid %d, listening on %s, logs in %s)\n", strings.Join(args, " "), cmd.Process.Pid, addr, logPath)
	case <-s.exited:
		return nil, fmt.Errorf("the server exited before it listened (%v): see %s", s.err, logPath)
	case <-ctx.Done():
		s.stop()
		return nil, ctx.Err()
	case <-deadline.C:
		s.stop()
		return nil, fmt.Errorf("the server did not say where it listens within %s: see %s", serverReadyTimeout, logPath)
	}
	// Each poll is bounded: a server that accepts the connection but never answers is polled again.
	hc := &http.Client{Timeout: time.Second}
	defer hc.CloseIdleConnections()
	for {
		if res, err := hc.Get(s.base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case <-s.exited:
			return nil, fmt.Errorf("the server exited before it was ready (%v): see %s", s.err, logPath)
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		case <-deadline.C:
			s.stop()
			return nil, fmt.Errorf("the server was not ready within %s: see %s", serverReadyTimeout, logPath)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// addrWatch passes the server's stdout on to w, and sends on addrs (buffered) the address of the first
// line saying where the server listens. Only the goroutine of exec that copies stdout calls it.
type addrWatch struct {
	w     io.Writer
	addrs chan<- string
	line  []byte // the part of a line not yet ended
	found bool
}

func (a *addrWatch) Write(p []byte) (int, error) {
	if !a.found {
		a.line = append(a.line, p...)
		for !a.found {
			end := bytes.IndexByte(a.line, '\n')
			if end < 0 {
				break
			}
			if m := listeningLine.FindSubmatch(a.line[:end]); m != nil {
				a.addrs <- string(m[1])
				a.found, a.line = true, nil
			} else {
				a.line = a.line[end+1:]
			}
		}
	}
	return a.w.Write(p)
}

// stop ends the server with SIGTERM (SIGKILL if it has not exited in time) and returns how it exited;
// stopping it again returns the same.
func (s *server) stop() error {
	select {
	case <-s.exited:
	default:
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(serverShutdownWindow):
			_ = s.cmd.Process.Kill()
			<-s.exited
			return errors.New("the server did not stop on SIGTERM: killed")
		}
	}
	var exit *exec.ExitError
	if errors.As(s.err, &exit) {
		return fmt.Errorf("the server exited with %v", s.err)
	}
	return s.err
}
