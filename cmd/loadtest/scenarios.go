package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
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

// result is what a run measured and checked; it is written as JSON.
type result struct {
	Scenario        string         `json:"scenario"`
	StartedAt       time.Time      `json:"started_at"`
	GoVersion       string         `json:"go_version"`
	Base            []string       `json:"base"`
	Concurrency     int            `json:"concurrency"`
	DurationS       float64        `json:"duration_s"` // as asked (timed scenarios)
	ElapsedS        float64        `json:"elapsed_s"`  // as measured
	WarmupS         float64        `json:"warmup_s,omitempty"`
	WarmupRequests  int            `json:"warmup_requests,omitempty"` // answered before the measurement; checked, not counted
	Requests        int            `json:"requests"`
	Rate            float64        `json:"rate"` // requests a second
	Bookings        int            `json:"bookings"`
	BookingRate     float64        `json:"bookings_per_s"`
	LatencyMS       latencies      `json:"latency_ms"`
	StatusCounts    map[string]int `json:"status_counts"`         // by HTTP status; "error" for no answer
	ErrorCodes      map[string]int `json:"error_codes,omitempty"` // 4xx and 5xx by status and problem code: "409 4001"
	Unexpected      int            `json:"unexpected"`            // answers the scenario does not expect
	Rounds          []round        `json:"rounds,omitempty"`      // contend
	ServerPeakRSSMB float64        `json:"server_peak_rss_mb,omitempty"`
	Pages           []pagePart     `json:"pages,omitempty"` // pages: each part's figures
	Check           dbCheck        `json:"check"`
	OK              bool           `json:"ok"`
	Failures        []string       `json:"failures,omitempty"`
}

type latencies struct {
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// round is one round of contend.
type round struct {
	Round     int `json:"round"`
	Successes int `json:"successes"` // 201
	Conflicts int `json:"conflicts"` // 409 4001
	Other     int `json:"other"`
}

// won reports whether the round went as it must: exactly one 201, and only 409 4001 besides.
func (r round) won() bool { return r.Successes == 1 && r.Other == 0 }

// roundsWon is how many of the run's rounds were won.
func (r result) roundsWon() int {
	n := 0
	for _, rd := range r.Rounds {
		if rd.won() {
			n++
		}
	}
	return n
}

// expect is what a request of a scenario may be answered.
type expect uint8

const (
	expectOK        expect = iota // 200
	expectCreated                 // 201
	expectCreatedOr               // 201, or 409 4001 when another request won the slot
)

// call is one request, built ahead.
type call struct {
	method, path string
	body         []byte
	auth         string
	cookie       string // pages: the browser session
	expect       expect
}

// answer is what one request got.
type answer struct {
	status int
	code   int    // the problem's code, for 4xx and 5xx
	id     string // the booking created, for 201
	took   time.Duration
	err    error
}

func (a answer) welcome(e expect) bool {
	switch {
	case a.err != nil:
		return false
	case e == expectOK:
		return a.status == http.StatusOK
	case e == expectCreated:
		return a.status == http.StatusCreated
	default:
		return a.status == http.StatusCreated || a.status == http.StatusConflict && a.code == 4001
	}
}

// client sends requests to the servers in turn over kept-alive connections.
type client struct {
	http  *http.Client
	bases []string
	next  atomic.Uint64
}

func newClient(bases []string, concurrency int) *client {
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        concurrency * len(bases),
		MaxIdleConnsPerHost: concurrency,
		MaxConnsPerHost:     concurrency,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}
	// A redirect is an answer of its own: a page that sends the person to the sign-in page is not a page.
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &client{http: &http.Client{Transport: tr, Timeout: 30 * time.Second, CheckRedirect: noRedirect}, bases: bases}
}

// do sends a call and reads its answer; buf is the worker's buffer for bodies worth reading.
func (c *client) do(ctx context.Context, k call, buf *[]byte) answer {
	base := c.bases[0]
	if len(c.bases) > 1 {
		base = c.bases[c.next.Add(1)%uint64(len(c.bases))]
	}
	var body io.Reader
	if k.body != nil {
		body = bytes.NewReader(k.body)
	}
	req, err := http.NewRequestWithContext(ctx, k.method, base+k.path, body)
	if err != nil {
		return answer{err: err}
	}
	if k.auth != "" {
		req.Header["Authorization"] = []string{k.auth}
	}
	if k.cookie != "" {
		// As a browser: the session, and gzip accepted (the API's clients are sent JSON as it is).
		req.Header["Cookie"] = []string{k.cookie}
		req.Header["Accept-Encoding"] = []string{"gzip"}
	}
	if k.body != nil {
		req.Header["Content-Type"] = []string{"application/json"}
	}
	start := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		return answer{err: err, took: time.Since(start)}
	}
	a := answer{status: res.StatusCode}
	if res.StatusCode == http.StatusOK {
		_, err = io.Copy(io.Discard, res.Body)
	} else {
		*buf, err = readAll(res.Body, (*buf)[:0])
	}
	res.Body.Close()
	a.took, a.err = time.Since(start), err
	if err != nil || res.StatusCode == http.StatusOK {
		return a
	}
	if res.StatusCode == http.StatusCreated {
		a.id = bookingID(*buf)
	} else {
		a.code = problemCode(*buf)
	}
	return a
}

// readAll reads r into b (at most 1 MiB), reusing b's memory.
func readAll(r io.Reader, b []byte) ([]byte, error) {
	for len(b) < 1<<20 {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

var (
	bookingsPrefix = []byte(`{"bookings":[{"id":"`)
	codeKey        = []byte(`"code":`)
)

// bookingID is the id of the first booking of a create answer; the answer starts with it, as the
// service writes it, else it is decoded in full.
func bookingID(body []byte) string {
	if rest, ok := bytes.CutPrefix(body, bookingsPrefix); ok && len(rest) > 36 && rest[36] == '"' {
		return string(rest[:36])
	}
	var v struct {
		Bookings []struct {
			ID string `json:"id"`
		} `json:"bookings"`
	}
	if json.Unmarshal(body, &v) != nil || len(v.Bookings) == 0 {
		return ""
	}
	return v.Bookings[0].ID
}

// problemCode is the code of a problem+json answer, 0 when it has none.
func problemCode(body []byte) int {
	i := bytes.Index(body, codeKey)
	if i < 0 {
		return 0
	}
	rest := bytes.TrimLeft(body[i+len(codeKey):], " ")
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	code, _ := strconv.Atoi(string(rest[:n]))
	return code
}

// tally is what one worker saw; the workers' tallies are merged at the end.
type tally struct {
	warmup     int // requests answered during the warm-up: only their unexpected answers and 201s count
	took       []time.Duration
	statuses   map[int]int
	codes      map[[2]int]int
	unexpected int
	examples   []string
	ids        []string
}

// measured is the number of requests the tally measured (those after the warm-up).
func (t *tally) measured() int { return len(t.took) + t.statuses[0] }

func newTally(capacity int) *tally {
	return &tally{took: make([]time.Duration, 0, capacity), statuses: map[int]int{}, codes: map[[2]int]int{}}
}

// live counts the requests of a run for the progress lines.
type live struct{ requests, unexpected atomic.Int64 }

// add records an answer; one of the warm-up (measured false) counts only if unexpected or a booking.
func (t *tally) add(a answer, e expect, measured bool, l *live) {
	l.requests.Add(1)
	switch {
	case !measured:
		t.warmup++
		if a.err == nil && a.status == http.StatusCreated && a.id != "" {
			t.ids = append(t.ids, a.id)
		}
	case a.err != nil:
		t.statuses[0]++
	default:
		t.took = append(t.took, a.took)
		t.statuses[a.status]++
		if a.status >= 400 {
			t.codes[[2]int{a.status, a.code}]++
		}
		if a.status == http.StatusCreated && a.id != "" {
			t.ids = append(t.ids, a.id)
		}
	}
	if !a.welcome(e) || (a.err == nil && a.status == http.StatusCreated && a.id == "") {
		t.unexpected++
		l.unexpected.Add(1)
		if len(t.examples) < 3 {
			what := strconv.Itoa(a.status)
			switch {
			case a.err != nil:
				what = a.err.Error()
			case a.code != 0:
				what += " " + strconv.Itoa(a.code)
			case a.status == http.StatusCreated:
				what += " without a booking id"
			}
			t.examples = append(t.examples, "unexpected answer: "+what)
		}
	}
}

// progress writes a line every second: elapsed time, requests so far, the last second's rate and the
// unexpected answers so far.
func progress(ctx context.Context, l *live, out io.Writer, scenario string, warmup time.Duration) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	start, last := time.Now(), int64(0)
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			n, note := l.requests.Load(), ""
			if time.Since(start) <= warmup {
				note = " (warm-up)"
			}
			fmt.Fprintf(out, "%-12s %4.0fs %9d requests %7d/s %6d errors%s\n", scenario, time.Since(start).Seconds(), n, n-last, l.unexpected.Load(), note)
			last = n
		}
	}
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

// merge adds up the workers' tallies into the result: counts, rates, latencies and failures. It returns
// the ids of the bookings answered 201, for the check.
func (res *result) merge(tallies []*tally, elapsed time.Duration) []string {
	var took []time.Duration
	var ids []string
	for _, t := range tallies {
		took = append(took, t.took...)
		ids = append(ids, t.ids...)
		res.Unexpected += t.unexpected
		res.WarmupRequests += t.warmup
		for s, n := range t.statuses {
			key := strconv.Itoa(s)
			if s == 0 {
				key = "error"
			}
			res.StatusCounts[key] += n
			res.Requests += n
		}
		for k, n := range t.codes {
			if res.ErrorCodes == nil {
				res.ErrorCodes = map[string]int{}
			}
			res.ErrorCodes[fmt.Sprintf("%d %d", k[0], k[1])] += n
		}
		for _, e := range t.examples {
			if len(res.Failures) < 5 && !slices.Contains(res.Failures, e) {
				res.Failures = append(res.Failures, e)
			}
		}
	}
	res.ElapsedS = elapsed.Seconds()
	res.Bookings = res.StatusCounts["201"]
	if res.ElapsedS > 0 {
		res.Rate = float64(res.Requests) / res.ElapsedS
		res.BookingRate = float64(res.Bookings) / res.ElapsedS
	}
	res.LatencyMS = percentiles(took)
	if res.Unexpected > 0 {
		res.Failures = append(res.Failures, fmt.Sprintf("%d of %d answers unexpected", res.Unexpected, res.Requests))
	}
	for _, r := range res.Rounds {
		if !r.won() {
			res.Failures = append(res.Failures, fmt.Sprintf("round %d: %d successes, %d conflicts, %d other answers", r.Round, r.Successes, r.Conflicts, r.Other))
			if len(res.Failures) > 10 {
				break
			}
		}
	}
	return ids
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
				t.add(c.do(ctx, k, &buf), k.expect, !now.Before(measureFrom), l)
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
	case "pages:find", "pages:plan":
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
				answers[i] = c.do(ctx, k, &bufs[i])
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

// percentiles are nearest-rank percentiles of the latencies, in milliseconds.
func percentiles(took []time.Duration) latencies {
	if len(took) == 0 {
		return latencies{}
	}
	slices.Sort(took)
	at := func(p float64) float64 {
		i := int(p*float64(len(took))+0.5) - 1
		return ms(took[min(max(i, 0), len(took)-1)])
	}
	var sum time.Duration
	for _, d := range took {
		sum += d
	}
	return latencies{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: ms(took[len(took)-1]), Mean: ms(sum / time.Duration(len(took)))}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// peakRSS is the most memory the process has held resident, in MB (VmHWM of /proc/PID/status); 0 when
// unknown.
func peakRSS(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}
