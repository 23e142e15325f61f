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
// the booking's commit to the mail server's acceptance. Two servers of their own run on the standard
// data set, started together and used for nothing else, so that neither carries what other scenarios
// left in it (the standard server has served the pages, and its heap is larger): one with --no-events,
// one with the outbox on, sending its e-mails to a mail server in this process (go-smtp). Before each
// run of book, book is run on both at once, half its clients on each, so that the two are measured
// side by side in the same seconds of a shared machine whose speed comes and goes.

// outboxResult is one measurement of the outbox: two runs of book on both servers at once, and the
// e-mails of their bookings.
type outboxResult struct {
	Run int
	// On and Off are the bookings a second of book on the server with the outbox and on the one without,
	// each the mean of two runs.
	On, Off float64
	// Mails is how many e-mails the runs' bookings sent; Drain how long after its run the last went out,
	// the longer of the two.
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
	loud  *server // bin/booking serve with the outbox on, on the same data set
}

// servers returns the measurement's servers that are running.
func (o *outboxBench) servers() []*server {
	var out []*server
	for _, s := range []*server{o.quiet, o.loud} {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
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

// beforeOutbox measures the outbox beside a run of book (starting its servers the first time). It runs
// book twice on both servers at once, each worker keeping to one server; the second run swaps which
// workers load which server. After each run, it waits until the run's e-mails are out and vacuums, so
// that no run shares the machine with another's e-mails.
func beforeOutbox(ctx context.Context, b *benchRun, run int) error {
	set := b.sets[0]
	if b.outbox.quiet == nil {
		var err error
		if b.outbox.quiet, err = startServer(ctx, set.dbURL, filepath.Join(b.resultsDir, "no-events-server.log"), io.Discard, nil, "--no-events"); err != nil {
			return err
		}
		if b.outbox.loud, err = startServer(ctx, set.dbURL, filepath.Join(b.resultsDir, "outbox-server.log"), io.Discard, b.serverEnv); err != nil {
			return err
		}
	}
	res := outboxResult{Run: run}
	var lags []time.Duration
	for i, servers := range [][]*server{{b.outbox.quiet, b.outbox.loud}, {b.outbox.loud, b.outbox.quiet}} {
		from := time.Now()
		rates, err := b.outboxRun(ctx, servers, fmt.Sprintf("book with and without the outbox side by side, run %d.%d", run, i+1))
		if err != nil {
			return err
		}
		for j, srv := range servers {
			if srv == b.outbox.loud {
				res.On += rates[j] / 2
			} else {
				res.Off += rates[j] / 2
			}
		}
		ended := time.Now()
		if err := waitOutboxDrained(ctx, b); err != nil {
			return err
		}
		res.Drain = max(res.Drain, time.Since(ended))
		lags = append(lags, b.outbox.sink.lagsSince(from)...)
		if err := vacuumOutbox(ctx, b); err != nil {
			return err
		}
	}
	res.Mails = len(lags)
	res.LagP50, res.LagP99 = quantile(lags, 0.5), quantile(lags, 0.99)
	b.rep.Outbox = append(b.rep.Outbox, res)
	fmt.Fprintf(b.stdout, "bench: outbox run %d: %.0f bookings/s with it, %.0f without (%.0f%%); %d e-mails, out %s after the run, lag p50 %s p99 %s\n",
		run, res.On, res.Off, 100*res.ratio(), res.Mails, res.Drain.Round(time.Millisecond), res.LagP50.Round(time.Millisecond), res.LagP99.Round(time.Millisecond))
	return nil
}

// outboxRun runs book on the servers at once, just after a checkpoint, each worker keeping to one
// server, and returns each server's bookings a second.
func (b *benchRun) outboxRun(ctx context.Context, servers []*server, what string) ([]float64, error) {
	set := b.sets[0]
	opt := b.runOptions["book"]
	opt.Bases, opt.ServerPIDs, opt.Pinned = nil, nil, true
	for _, srv := range servers {
		opt.Bases, opt.ServerPIDs = append(opt.Bases, srv.base), append(opt.ServerPIDs, srv.cmd.Process.Pid)
	}
	if err := set.world.readFirstDay(ctx, set.pool); err != nil {
		return nil, err
	}
	if _, err := set.pool.Exec(ctx, "CHECKPOINT"); err != nil {
		return nil, err
	}
	fmt.Fprintf(b.stdout, "bench: %s\n", what)
	res, err := runScenario(ctx, set.pool, set.world, opt, b.stderr)
	if err != nil {
		return nil, err
	}
	if !res.OK {
		return nil, fmt.Errorf("%s: %s", what, strings.Join(res.Failures, "; "))
	}
	rates := make([]float64, len(res.PerBase))
	for i, r := range res.PerBase {
		rates[i] = r.BookingRate
	}
	return rates, nil
}

// afterOutbox waits until the e-mails of the standard server's run of book are out, so that they do not
// slow the scenarios after it: the cost of a booking measured around that run includes their work.
func afterOutbox(ctx context.Context, b *benchRun, run int) error {
	if err := waitOutboxDrained(ctx, b); err != nil {
		return err
	}
	return vacuumOutbox(ctx, b)
}

// vacuumOutbox vacuums the tables a run of book leaves with tens of thousands of dead rows. Autovacuum
// would clean them before the next run, but it may be off on the benchmark's server (it is on the test
// server of CI).
func vacuumOutbox(ctx context.Context, b *benchRun) error {
	if _, err := b.sets[0].pool.Exec(ctx, `VACUUM (ANALYZE) outbox_events, river_job, mail_sent`); err != nil {
		return fmt.Errorf("vacuum the outbox's tables: %w", err)
	}
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
