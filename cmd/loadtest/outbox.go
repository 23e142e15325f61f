package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/mail"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/google/uuid"
)

// The outbox measurement: what recording a booking's events costs, and how long its e-mail takes from
// the booking's commit to the mail server's acceptance. The standard data set's server sends its e-mails
// to a mail server in this process (go-smtp); a second server on the same data set runs with
// --no-events. Before each run of book, the same run is made on that second server, so the two are
// measured side by side, in turn, on a machine whose speed drifts.

// outboxResult is one pair of runs of book, with the outbox on and off, and the e-mails of the first.
type outboxResult struct {
	Run int
	// On and Off are the bookings a second of book with the outbox on and off.
	On, Off float64
	// Mails is how many e-mails the run's bookings sent; Drain how long after the run the last went out.
	Mails int
	Drain time.Duration
	// LagP50 and LagP99 are the delays from a booking's commit to its e-mail's acceptance.
	LagP50, LagP99 time.Duration
}

// ratio is the throughput with the outbox as a share of the throughput without it.
func (o outboxResult) ratio() float64 {
	if o.Off == 0 {
		return 0
	}
	return o.On / o.Off
}

// outboxBench is what the measurement keeps between its steps.
type outboxBench struct {
	sink  *mailSink
	quiet *server // bin/booking serve --no-events on the standard data set
	off   float64 // the bookings a second of the last run on quiet
	from  time.Time
}

// prepareOutbox starts the mail server and tells the servers to come to send there.
func prepareOutbox(ctx context.Context, b *benchRun) error {
	sink, err := startMailSink()
	if err != nil {
		return err
	}
	b.outbox.sink = sink
	b.serverEnv = []string{"SMTP_URL=smtp://" + sink.addr, "SMTP_FROM=booking@bench.test"}
	return nil
}

// beforeOutbox runs book on the server with --no-events (starting it the first time), just before the
// same run on the standard server.
func beforeOutbox(ctx context.Context, b *benchRun, run int) error {
	set := b.sets[0]
	if b.outbox.quiet == nil {
		srv, err := startServer(ctx, set.dbURL, filepath.Join(b.resultsDir, "no-events-server.log"), io.Discard, nil, "--no-events")
		if err != nil {
			return err
		}
		b.outbox.quiet = srv
	}
	opt := b.runOptions["book"]
	opt.Bases, opt.ServerPIDs = []string{b.outbox.quiet.base}, []int{b.outbox.quiet.cmd.Process.Pid}
	if err := set.world.readFirstDay(ctx, set.pool); err != nil {
		return err
	}
	fmt.Fprintf(b.stdout, "bench: book with --no-events, run %d\n", run)
	res, err := runScenario(ctx, set.pool, set.world, opt, b.stderr)
	if err != nil {
		return err
	}
	if !res.OK {
		return fmt.Errorf("book with --no-events: %s", strings.Join(res.Failures, "; "))
	}
	b.outbox.off = res.BookingRate
	b.outbox.from = time.Now()
	return nil
}

// afterOutbox waits until the run's e-mails are all out, and keeps the pair of runs and the e-mails'
// delays.
func afterOutbox(ctx context.Context, b *benchRun, run int) error {
	rs := b.sets[0].info.Results["book"]
	on := rs[len(rs)-1].BookingRate
	start := time.Now()
	if err := waitOutboxDrained(ctx, b); err != nil {
		return err
	}
	lags := b.outbox.sink.lagsSince(b.outbox.from)
	res := outboxResult{Run: run, On: on, Off: b.outbox.off, Mails: len(lags), Drain: time.Since(start)}
	res.LagP50, res.LagP99 = quantile(lags, 0.5), quantile(lags, 0.99)
	b.rep.Outbox = append(b.rep.Outbox, res)
	fmt.Fprintf(b.stdout, "bench: outbox run %d: %.0f bookings/s with it, %.0f without (%.0f%%); %d e-mails, out %s after the run, lag p50 %s p99 %s\n",
		run, res.On, res.Off, 100*res.ratio(), res.Mails, res.Drain.Round(time.Millisecond), res.LagP50.Round(time.Millisecond), res.LagP99.Round(time.Millisecond))
	return nil
}

// waitOutboxDrained waits until no event waits in outbox_events and no outbox job is due or being worked
// (reminders scheduled for later do not count), for at most 5 minutes.
func waitOutboxDrained(ctx context.Context, b *benchRun) error {
	deadline := time.Now().Add(5 * time.Minute)
	for {
		var n int
		err := b.sets[0].pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM outbox_events) + (SELECT count(*) FROM river_job
			WHERE state IN ('available', 'running', 'retryable') OR (state = 'scheduled' AND scheduled_at <= now()))`).Scan(&n)
		if err != nil {
			return fmt.Errorf("count outbox jobs: %w", err)
		}
		if n == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the outbox still has %d jobs to do 5 minutes after the run", n)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// quantile returns the q-quantile of ds (nearest rank); 0 for none.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(ds))
	i := int(q*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// mailSink is a mail server (go-smtp) that notes when it accepted each message, and the moment the
// message's event was recorded: the time in its Message-ID's UUIDv7.
type mailSink struct {
	addr string
	mu   sync.Mutex
	got  []sunk
}

type sunk struct {
	event, accepted time.Time
}

func startMailSink() (*mailSink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &mailSink{addr: ln.Addr().String()}
	srv := smtp.NewServer(s)
	srv.Domain, srv.AllowInsecureAuth = "localhost", true
	srv.MaxRecipients = 10
	go srv.Serve(ln) //nolint:errcheck // serves until the benchmark ends
	return s, nil
}

// lagsSince returns the delay of each message accepted after from, from its event to its acceptance.
func (s *mailSink) lagsSince(from time.Time) []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []time.Duration
	for _, m := range s.got {
		if !m.event.Before(from) {
			out = append(out, m.accepted.Sub(m.event))
		}
	}
	return out
}

func (s *mailSink) NewSession(*smtp.Conn) (smtp.Session, error) { return &sinkSession{s: s}, nil }

type sinkSession struct{ s *mailSink }

func (*sinkSession) Reset()                               {}
func (*sinkSession) Logout() error                        { return nil }
func (*sinkSession) Mail(string, *smtp.MailOptions) error { return nil }
func (*sinkSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (ss *sinkSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	accepted := time.Now()
	event, ok := eventTime(raw)
	if !ok {
		return nil
	}
	ss.s.mu.Lock()
	defer ss.s.mu.Unlock()
	ss.s.got = append(ss.s.got, sunk{event: event, accepted: accepted})
	return nil
}

// eventTime reads the Message-ID of a message, <event id>.<recipient>@host, and returns the moment
// its event was recorded: the event id is a UUIDv7, whose first 48 bits are milliseconds since 1970.
func eventTime(raw []byte) (time.Time, bool) {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return time.Time{}, false
	}
	mid := strings.TrimPrefix(strings.TrimSpace(m.Header.Get("Message-Id")), "<")
	id, err := uuid.Parse(mid[:min(36, len(mid))])
	if err != nil || id.Version() != 7 {
		return time.Time{}, false
	}
	sec, nsec := id.Time().UnixTime()
	return time.Unix(sec, nsec), true
}
