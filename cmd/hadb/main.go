// Command hadb runs a highly available PostgreSQL for local development with pg_auto_failover: a
// monitor and two nodes under .data/ha/, the second a synchronous copy of the first, which the monitor
// promotes when the first is lost.
//
//	DATABASE_URL=$(go run ./cmd/hadb) ./bin/booking serve   # start (or reuse) it; print its URL
//	go run ./cmd/hadb read-url                             # the URL for DATABASE_READ_URL
//	go run ./cmd/hadb state                                # the nodes as the monitor sees them
//	go run ./cmd/hadb stop                                 # stop the nodes and the monitor
//
// It prints exactly one line on stdout when it starts the formation: the URL that lists both nodes.
// Progress and errors go to stderr.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/workspacebooking/booking/cmd/internal/hacluster"
)

// The formation's folder and ports, beside devdb's private server (54329).
const (
	root        = ".data/ha"
	monitorPort = 54330
)

var nodePorts = [2]int{54331, 54332}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hadb:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := hacluster.New(root, monitorPort, nodePorts, stderr)
	if err != nil {
		return err
	}
	cmd := "start"
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "start":
		if !f.Running() {
			fmt.Fprintf(stderr, "Starting a pg_auto_failover monitor (port %d) and two nodes (ports %d, %d) under %s/; "+
				"stop them with: go run ./cmd/hadb stop\n", monitorPort, nodePorts[0], nodePorts[1], root)
		}
		if err := f.Start(ctx); err != nil {
			return fmt.Errorf("%w\n(the logs are in %s/*.log)", err, root)
		}
		_, err = fmt.Fprintln(stdout, f.URL())
		return err
	case "read-url":
		_, err = fmt.Fprintln(stdout, f.ReadURL())
		return err
	case "state":
		nodes, err := f.Nodes(ctx)
		if err != nil {
			return fmt.Errorf("the monitor does not answer (is the formation started?): %w", err)
		}
		for _, n := range nodes {
			fmt.Fprintf(stdout, "%s  127.0.0.1:%d  %s (assigned %s)\n", n.Name, n.Port, n.Reported, n.Goal)
		}
		return nil
	case "stop":
		return f.Stop(ctx)
	}
	return errors.New("usage: hadb [start|read-url|state|stop]")
}
