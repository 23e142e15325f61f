package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Bounds of a run: the tool loads a server on this machine, briefly.
const (
	maxDuration    = 5 * time.Minute
	maxConcurrency = 1000
	maxRounds      = 10_000
)

// scenarios are the workloads, in the order the benchmark runs them.
var scenarios = []string{"status", "free", "availability", "book", "contend", "rush", "pages"}

// rushHotRooms is how many rooms rush opens for booking each second (at most the organization's rooms).
const rushHotRooms = 5

// options are those of one run.
type options struct {
	Scenario    string
	Bases       []string
	Concurrency int
	Duration    time.Duration // timed scenarios
	Warmup      time.Duration // timed scenarios: sent before the measurement, not measured
	Rounds      int           // contend
	Users       int           // at most this many synthetic people, one token each
	ServerPIDs  []int         // whose peak resident memory to report
	// Pinned keeps each worker to one server: worker i loads Bases[i % len(Bases)], and the result gives
	// each server's bookings (PerBase). Otherwise each request goes to the next server in turn.
	Pinned bool
}

// The clients of a run unless told otherwise, and contend's rounds.
const (
	defaultClients        = 32
	defaultContendClients = 50
	defaultRounds         = 100
)

// defaultOptions are a run's options unless told otherwise: the defaults of `loadtest run`'s flags, and
// every run of `loadtest bench`.
func defaultOptions(scenario string) options {
	o := options{Scenario: scenario, Bases: []string{"http://127.0.0.1:8080"}, Concurrency: defaultClients,
		Duration: 10 * time.Second, Warmup: time.Second, Rounds: defaultRounds, Users: 1000}
	if scenario == "contend" {
		o.Concurrency = defaultContendClients
	}
	return o
}

// check validates the options.
func (o options) check() error {
	if !slices.Contains(scenarios, o.Scenario) {
		return fmt.Errorf("--scenario %q: one of %s", o.Scenario, strings.Join(scenarios, ", "))
	}
	for _, b := range o.Bases {
		if err := loopback(b); err != nil {
			return err
		}
	}
	if o.Duration <= 0 || o.Duration > maxDuration {
		return fmt.Errorf("--duration %s: must be positive and at most %s", o.Duration, maxDuration)
	}
	if o.Warmup < 0 || o.Warmup > time.Minute {
		return fmt.Errorf("--warmup %s: between 0 and 1m", o.Warmup)
	}
	if o.Concurrency < 1 || o.Concurrency > maxConcurrency {
		return fmt.Errorf("--c %d: must be between 1 and %d", o.Concurrency, maxConcurrency)
	}
	if o.Scenario == "contend" && o.Concurrency < 2 {
		return fmt.Errorf("--c %d: contend needs at least 2 clients to contend", o.Concurrency)
	}
	if o.Rounds < 1 || o.Rounds > maxRounds {
		return fmt.Errorf("--rounds %d: must be between 1 and %d", o.Rounds, maxRounds)
	}
	if o.Users < 1 {
		return fmt.Errorf("--users %d: must be positive", o.Users)
	}
	return nil
}

// loopback refuses a base URL whose host is not this machine's loopback: 127.0.0.0/8, ::1 or localhost.
func loopback(base string) error {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--base %q: not an http(s) URL", base)
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--base %q: refused: not a loopback address (127.0.0.0/8, ::1, localhost); only a server on this machine may be loaded", base)
}

// runScenario loads the servers with one scenario, then checks the database.
func runScenario(ctx context.Context, pool *pgxpool.Pool, w *world, o options, progressOut io.Writer) (result, error) {
	res := result{
		Scenario: o.Scenario, StartedAt: time.Now().UTC().Truncate(time.Second), GoVersion: runtime.Version(), Base: o.Bases,
		Concurrency: o.Concurrency, StatusCounts: map[string]int{},
	}
	if o.Scenario == "contend" && o.Concurrency > len(w.users) {
		return res, fmt.Errorf("contend: %d clients need as many people, the organization has %d employees", o.Concurrency, len(w.users))
	}
	if o.Scenario == "book" && w.deskPeople == 0 {
		return res, fmt.Errorf("book: no employee is free of desks from day %d on, and a person holds one desk at a time: seed a fresh database", w.firstDay)
	}
	if o.Scenario == "pages" {
		if err := w.startSessions(ctx, pool, pageSessions); err != nil {
			return res, err
		}
	}
	tallies, elapsed, err := load(ctx, w, o, &res, progressOut)
	if err != nil {
		return res, err
	}
	ids := res.merge(tallies, elapsed)
	if o.Pinned {
		res.PerBase = perBase(o.Bases, tallies, elapsed)
	}
	for _, pid := range o.ServerPIDs {
		res.ServerPeakRSSMB = max(res.ServerPeakRSSMB, peakRSS(pid))
	}
	if res.Check, err = checkDatabase(ctx, pool, ids); err != nil {
		return res, err
	}
	res.Failures = append(res.Failures, res.Check.Failures...)
	res.OK = len(res.Failures) == 0
	return res, nil
}

// load sends the scenario's requests, writing a progress line every second, and returns the workers'
// tallies and the time measured. contend's rounds go into res.
func load(ctx context.Context, w *world, o options, res *result, progressOut io.Writer) ([]*tally, time.Duration, error) {
	c := newClient(o.Bases, o.Concurrency)
	c.pinned = o.Pinned
	defer c.http.CloseIdleConnections()
	var l live
	pctx, cancelProgress := context.WithCancel(ctx)
	progressed := make(chan struct{})
	warmup := o.Warmup
	if o.Scenario == "contend" {
		warmup = 0
	}
	go func() { defer close(progressed); progress(pctx, &l, progressOut, o.Scenario, warmup) }()
	// Nothing may write to progressOut once load has returned.
	defer func() { cancelProgress(); <-progressed }()
	if o.Scenario == "contend" {
		start := time.Now()
		tallies, rounds, err := contend(ctx, c, w, o, &l)
		res.Rounds = rounds
		return tallies, time.Since(start), err
	}
	res.DurationS, res.WarmupS = o.Duration.Seconds(), o.Warmup.Seconds()
	if o.Scenario == "pages" {
		tallies, elapsed, parts, err := pages(ctx, c, w, o, &l)
		res.Pages = parts
		return tallies, elapsed, err
	}
	return timed(ctx, c, w, o, &l)
}

// timed runs a scenario for its warm-up, then for its duration. Each worker sends one request after the
// other and stops sending at the end; the requests in flight then are still answered and counted. It
// returns the workers' tallies and the time measured.
func timed(ctx context.Context, c *client, w *world, o options, l *live) ([]*tally, time.Duration, error) {
	return timedPart(ctx, c, w, o, o.Scenario, l)
}

// timedPart is timed, sending the requests of scenario, which may be a part of o's: "pages:plan".
func timedPart(ctx context.Context, c *client, w *world, o options, scenario string, l *live) ([]*tally, time.Duration, error) {
	start := time.Now()
	measureFrom := start.Add(o.Warmup)
	deadline := measureFrom.Add(o.Duration)
	calls := &calls{w: w, scenario: scenario, start: start, hotRooms: min(rushHotRooms, len(w.rooms)),
		reads: [][]string{w.statusPaths, w.availabilityPaths, w.freePaths}}
	tallies := make([]*tally, o.Concurrency)
	per := int(o.Duration.Seconds()*2000)/o.Concurrency + 16
	var wg sync.WaitGroup
	for i := range o.Concurrency {
		t := newTally(per)
		tallies[i] = t
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
			buf := make([]byte, 0, 8<<10)
			for ctx.Err() == nil {
				now := time.Now()
				// Each worker measures at least one request: on a busy machine a slow page started in
				// the warm-up can end past the deadline, and a part would then measure nothing.
				if !now.Before(deadline) && t.measured() > 0 {
					return
				}
				k, ok := calls.next(r)
				if !ok {
					return
				}
				t.add(c.do(ctx, i, k, &buf), k.expect, !now.Before(measureFrom), l)
			}
		})
	}
	wg.Wait()
	measured := time.Since(measureFrom)
	if calls.overflow.Load() {
		return tallies, measured, fmt.Errorf("%s: no free evening slots left within the rules' maximum advance (day %d): seed a fresh database", o.Scenario, w.lastDay)
	}
	return tallies, measured, ctx.Err()
}

// calls makes the requests of a timed scenario; the workers share it.
type calls struct {
	w        *world
	scenario string
	start    time.Time
	hotRooms int
	reads    [][]string   // rush: the paths of the reads it mixes in
	slots    atomic.Int64 // book: evening slots handed out so far
	overflow atomic.Bool  // set when a slot lay beyond the last day the rules let be booked
}

// next is a worker's next request, sent as a random person unless it books a desk. It is false when no
// free slot is left to book.
func (m *calls) next(r *rand.Rand) (call, bool) {
	w := m.w
	var k call
	switch m.scenario {
	case "status":
		k = get(w.statusPaths, r)
	case "free":
		k = get(w.freePaths, r)
	case "availability":
		k = get(w.availabilityPaths, r)
	case "pages:find", "pages:plan", "pages:week":
		k = call{method: http.MethodGet, path: w.pages.path(strings.TrimPrefix(m.scenario, "pages:")), expect: expectOK,
			cookie: w.cookies[r.IntN(len(w.cookies))]}
		return k, true
	case "pages:availability":
		k = call{method: http.MethodGet, path: w.pages.apiAvail, expect: expectOK}
	case "book":
		// Rooms and desks in proportion to their numbers, each request a new free evening slot.
		s, ok := w.eveningSlot(w.bookSlot(int(m.slots.Add(1) - 1)))
		if !ok {
			m.overflow.Store(true)
			return call{}, false
		}
		k.method, k.expect = http.MethodPost, expectCreated
		k.path, k.body = w.booking(s)
		if s.user >= 0 {
			k.auth = w.users[s.user] // a desk is always booked by its one person
		}
	case "rush":
		if r.IntN(5) > 0 {
			k = get(m.reads[r.IntN(len(m.reads))], r)
			break
		}
		// Every second, a few hot rooms open at a new slot, and everybody tries for them.
		second := int(time.Since(m.start) / time.Second)
		s, ok := w.eveningSlot(second*len(w.rooms)+r.IntN(m.hotRooms), true)
		if !ok {
			m.overflow.Store(true)
			return call{}, false
		}
		path, body := w.booking(s)
		k = call{method: http.MethodPost, path: path, body: body, expect: expectCreatedOr}
	}
	if k.auth == "" {
		k.auth = w.users[r.IntN(len(w.users))]
	}
	return k, true
}

// get is a read of one of paths, picked at random.
func get(paths []string, r *rand.Rand) call {
	return call{method: http.MethodGet, path: paths[r.IntN(len(paths))], expect: expectOK}
}

// contend releases the clients together on one slot each round, each as another person: exactly one
// must get 201, every other 409 4001.
func contend(ctx context.Context, c *client, w *world, o options, l *live) ([]*tally, []round, error) {
	tallies := make([]*tally, o.Concurrency)
	bufs := make([][]byte, o.Concurrency)
	for i := range tallies {
		tallies[i] = newTally(o.Rounds)
		bufs[i] = make([]byte, 0, 8<<10)
	}
	rounds := make([]round, 0, o.Rounds)
	for n := range o.Rounds {
		if ctx.Err() != nil {
			return tallies, rounds, ctx.Err()
		}
		s, ok := w.eveningSlot(n, true)
		if !ok {
			return tallies, rounds, fmt.Errorf("contend: no free evening slots left within the rules' maximum advance: seed a fresh database")
		}
		path, body := w.booking(s)
		answers := make([]answer, o.Concurrency)
		var ready, done sync.WaitGroup
		gate := make(chan struct{})
		for i := range o.Concurrency {
			k := call{method: http.MethodPost, path: path, body: body, expect: expectCreatedOr,
				auth: w.users[(n*o.Concurrency+i)%len(w.users)]}
			ready.Add(1)
			done.Go(func() {
				ready.Done()
				<-gate
				answers[i] = c.do(ctx, i, k, &bufs[i])
			})
		}
		ready.Wait()
		close(gate)
		done.Wait()
		rd := round{Round: n + 1}
		for i, a := range answers {
			tallies[i].add(a, expectCreatedOr, true, l)
			switch {
			case a.err == nil && a.status == http.StatusCreated:
				rd.Successes++
			case a.welcome(expectCreatedOr):
				rd.Conflicts++
			default:
				rd.Other++
			}
		}
		rounds = append(rounds, rd)
	}
	return tallies, rounds, nil
}
