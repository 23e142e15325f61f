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

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
)

// Bounds of a run: the tool measures a server on this machine, not anyone else's.
const (
	maxDuration    = 5 * time.Minute
	maxConcurrency = 1000
)

var scenarios = []string{"status", "free", "availability", "book", "contend", "rush"}

// options are those of one run.
type options struct {
	Scenario    string
	Bases       []string
	Concurrency int
	Duration    time.Duration
	Rounds      int
	ServerPIDs  []int
	DayOffset   int // the book scenario's first day, counted from tomorrow
}

// result is what a run measured, written as JSON.
type result struct {
	Scenario          string         `json:"scenario"`
	StartedAt         time.Time      `json:"startedAt"`
	Instances         int            `json:"instances"`
	Concurrency       int            `json:"concurrency"`
	Seconds           float64        `json:"seconds"`
	Requests          int            `json:"requests"`
	Rate              float64        `json:"requestsPerSecond"`
	Bookings          int            `json:"bookings"`
	BookingsPerSecond float64        `json:"bookingsPerSecond"`
	LatencyMS         latencies      `json:"latencyMs"`
	Statuses          map[string]int `json:"statuses"`
	TransportErrors   int            `json:"transportErrors"`
	Rounds            int            `json:"rounds,omitempty"`
	RoundsOneWinner   int            `json:"roundsWithOneWinner,omitempty"`
	PeakRSSMB         float64        `json:"serverPeakRssMb,omitempty"`
	Overlaps          int            `json:"overlappingBlockingBookings"`
	Answered201       int            `json:"bookingsAnswered201"`
	Found201          int            `json:"bookingsAnswered201Found"`
	OK                bool           `json:"ok"`
	Failures          []string       `json:"failures,omitempty"`
	GoVersion         string         `json:"goVersion"`
}

type latencies struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// world is what the scenarios know of the synthetic organization.
type world struct {
	sz        size
	tokens    []string
	resources int
	loc       *time.Location
	tomorrow  time.Time
}

// newWorld mints a bearer token for each person of the organization in the database.
func newWorld(ctx context.Context, pool *pgxpool.Pool, sz size) (*world, error) {
	svc := booking.NewService(pool)
	tokens, err := web.NewTokens(ctx, svc, web.OIDCConfig{})
	if err != nil {
		return nil, err
	}
	w := &world{sz: sz, loc: mustZone(), resources: sz.Buildings * sz.FloorsPerBuilding * sz.ResourcesPerFloor}
	for u := range sz.Users {
		user, err := svc.UserByID(ctx, orgID, idOf("user", u))
		if err != nil {
			return nil, fmt.Errorf("person %d: %w (seed the database first)", u, err)
		}
		tok, err := tokens.Mint(user, 2*time.Hour)
		if err != nil {
			return nil, err
		}
		w.tokens = append(w.tokens, tok)
	}
	now := time.Now().In(w.loc)
	w.tomorrow = time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, w.loc)
	return w, nil
}

// call is one request of a scenario.
type call struct {
	method, path, token string
	body                []byte
}

func (w *world) token(r *rand.Rand) string { return w.tokens[r.IntN(len(w.tokens))] }

func (w *world) status(r *rand.Rand) call {
	floor, res := r.IntN(w.sz.Buildings*w.sz.FloorsPerBuilding), r.IntN(w.sz.ResourcesPerFloor)
	code := posterCode(floor/w.sz.FloorsPerBuilding, floor%w.sz.FloorsPerBuilding, res, res < w.sz.RoomsPerFloor)
	return call{method: http.MethodGet, path: "/api/v1/users/me/resources/statusinfo?postercode=" + code, token: w.token(r)}
}

// day is one of the next 30 days, from midnight to midnight.
func (w *world) day(r *rand.Rand) (time.Time, time.Time) {
	d := w.tomorrow.AddDate(0, 0, r.IntN(30))
	return d, d.AddDate(0, 0, 1)
}

func (w *world) free(r *rand.Rand) call {
	floor := r.IntN(w.sz.Buildings * w.sz.FloorsPerBuilding)
	from, to := w.day(r)
	q := url.Values{"bookingDays[0].startDate": {ms(from)}, "bookingDays[0].endDate": {ms(to)}}
	return call{method: http.MethodGet, token: w.token(r), path: fmt.Sprintf(
		"/api/v1/users/me/buildings/%s/workstations/subcategories/%s/free?%s",
		idOf("building", floor/w.sz.FloorsPerBuilding), deskSubcategory(floor), q.Encode())}
}

func (w *world) availability(r *rand.Rand) call {
	floor := r.IntN(w.sz.Buildings * w.sz.FloorsPerBuilding)
	from, to := w.day(r)
	q := url.Values{"from": {ms(from)}, "to": {ms(to)}, "floorId": {idOf("floor", floor).String()}}
	return call{method: http.MethodGet, token: w.token(r), path: fmt.Sprintf(
		"/api/v1/users/me/buildings/%s/availability?%s", idOf("building", floor/w.sz.FloorsPerBuilding), q.Encode())}
}

// bookSlot is a booking of slot n of the evening band: resource n%resources, a quarter hour from 19:00
// (eight a day), days on from the first.
func (w *world) bookSlot(n int, first time.Time, token string) call {
	res, q := n%w.resources, n/w.resources
	d := first.AddDate(0, 0, q/8)
	start := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, w.loc).Add(freeFrom + time.Duration(q%8)*15*time.Minute)
	kind := "workstations"
	if res%w.sz.ResourcesPerFloor < w.sz.RoomsPerFloor {
		kind = "spaces"
	}
	body := fmt.Appendf(nil, `[{"resource":{"id":%q},"startDate":%d,"endDate":%d,"subject":"Load test"}]`,
		idOf("resource", res), start.UnixMilli(), start.Add(15*time.Minute).UnixMilli())
	return call{method: http.MethodPost, path: "/api/v1/users/me/bookings/" + kind + "/standard", token: token, body: body}
}

func ms(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// answer is what one request got.
type answer struct {
	status int
	code   int
	took   time.Duration
	ids    []string
	err    error
}

// client sends the calls to the instances in turn, keeping connections alive.
type client struct {
	http  *http.Client
	bases []string
	next  atomic.Uint64
}

func newClient(bases []string, concurrency int) *client {
	tr := &http.Transport{
		MaxIdleConns: concurrency * 2, MaxIdleConnsPerHost: concurrency, MaxConnsPerHost: concurrency,
		DisableCompression: true, IdleConnTimeout: time.Minute,
	}
	return &client{http: &http.Client{Transport: tr, Timeout: 30 * time.Second}, bases: bases}
}

func (c *client) do(ctx context.Context, k call) answer {
	base := c.bases[c.next.Add(1)%uint64(len(c.bases))]
	var body io.Reader
	if k.body != nil {
		body = bytes.NewReader(k.body)
	}
	req, err := http.NewRequestWithContext(ctx, k.method, base+k.path, body)
	if err != nil {
		return answer{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+k.token)
	if k.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		return answer{err: err, took: time.Since(start)}
	}
	defer res.Body.Close()
	a := answer{status: res.StatusCode}
	if res.StatusCode == http.StatusOK {
		_, err = io.Copy(io.Discard, res.Body)
		a.took, a.err = time.Since(start), err
		return a
	}
	data, err := io.ReadAll(res.Body)
	a.took, a.err = time.Since(start), err
	var parsed struct {
		Code     int `json:"code"`
		Bookings []struct {
			ID string `json:"id"`
		} `json:"bookings"`
	}
	_ = json.Unmarshal(data, &parsed)
	a.code = parsed.Code
	for _, b := range parsed.Bookings {
		a.ids = append(a.ids, b.ID)
	}
	return a
}

// tally gathers the answers of a run.
type tally struct {
	mu        sync.Mutex
	took      []time.Duration
	statuses  map[string]int
	errors    int
	ids       []string
	requests  atomic.Int64
	failures  atomic.Int64
	unwelcome []string
}

func newTally() *tally { return &tally{statuses: map[string]int{}} }

// add records an answer; welcome says whether its status is one the scenario expects.
func (t *tally) add(a answer, welcome bool) {
	t.requests.Add(1)
	key := strconv.Itoa(a.status)
	if a.code != 0 {
		key += " " + strconv.Itoa(a.code)
	}
	if a.err != nil {
		key = "transport error"
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if a.err != nil {
		t.errors++
	}
	if a.err != nil || !welcome || a.status >= 500 {
		t.failures.Add(1)
		if len(t.unwelcome) < 5 {
			t.unwelcome = append(t.unwelcome, fmt.Sprintf("unexpected answer: %s %v", key, a.err))
		}
	}
	t.statuses[key]++
	t.took = append(t.took, a.took)
	if a.status == http.StatusCreated {
		t.ids = append(t.ids, a.ids...)
	}
}

// progress prints, every second, what the run has done so far.
func progress(ctx context.Context, t *tally, out io.Writer, scenario string) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	start, last := time.Now(), int64(0)
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			n := t.requests.Load()
			fmt.Fprintf(out, "%s: %4.0fs %8d requests %7d/s %d unexpected\n", scenario, time.Since(start).Seconds(), n, n-last, t.failures.Load())
			last = n
		}
	}
}

// runScenario drives the instances with one scenario and checks the database afterwards.
func runScenario(ctx context.Context, pool *pgxpool.Pool, w *world, o options, out io.Writer) (result, error) {
	c := newClient(o.Bases, o.Concurrency)
	defer c.http.CloseIdleConnections()
	t := newTally()
	res := result{Scenario: o.Scenario, StartedAt: time.Now().UTC(), Instances: len(o.Bases), Concurrency: o.Concurrency, GoVersion: runtime.Version()}
	pctx, stopProgress := context.WithCancel(ctx)
	go progress(pctx, t, out, o.Scenario)
	first, err := firstFreeDay(ctx, pool, w)
	if err != nil {
		stopProgress()
		return res, err
	}
	first = first.AddDate(0, 0, o.DayOffset)
	start := time.Now()
	var slots atomic.Int64
	switch o.Scenario {
	case "contend":
		res.Rounds = o.Rounds
		res.RoundsOneWinner = contend(ctx, c, w, o, first, t)
	default:
		var pick func(r *rand.Rand) (call, func(answer) bool)
		reads := []func(*rand.Rand) call{w.status, w.availability, w.free}
		ok200 := func(a answer) bool { return a.status == http.StatusOK }
		switch o.Scenario {
		case "status":
			pick = func(r *rand.Rand) (call, func(answer) bool) { return w.status(r), ok200 }
		case "free":
			pick = func(r *rand.Rand) (call, func(answer) bool) { return w.free(r), ok200 }
		case "availability":
			pick = func(r *rand.Rand) (call, func(answer) bool) { return w.availability(r), ok200 }
		case "book":
			pick = func(r *rand.Rand) (call, func(answer) bool) {
				return w.bookSlot(int(slots.Add(1)), first, w.token(r)), func(a answer) bool { return a.status == http.StatusCreated }
			}
		case "rush":
			// A few hot rooms: the first five of the first floor, at the band's first slots of the first
			// two days. Most of these bookings lose, as they would at nine on a Monday.
			pick = func(r *rand.Rand) (call, func(answer) bool) {
				if r.IntN(5) > 0 {
					return reads[r.IntN(len(reads))](r), ok200
				}
				hot := r.IntN(5) + r.IntN(2)*w.resources*8 + r.IntN(4)*w.resources
				return w.bookSlot(hot, first, w.token(r)), func(a answer) bool {
					return a.status == http.StatusCreated || a.status == http.StatusConflict && a.code == int(booking.CodeResourceNotAvailable)
				}
			}
		default:
			stopProgress()
			return res, fmt.Errorf("unknown scenario %q (one of %s)", o.Scenario, strings.Join(scenarios, ", "))
		}
		rctx, cancel := context.WithTimeout(ctx, o.Duration)
		var wg sync.WaitGroup
		for i := range o.Concurrency {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
				for rctx.Err() == nil {
					k, welcome := pick(r)
					a := c.do(rctx, k)
					if rctx.Err() != nil && a.err != nil {
						return // cut off by the end of the run, not an answer
					}
					t.add(a, welcome(a))
				}
			})
		}
		wg.Wait()
		cancel()
	}
	elapsed := time.Since(start)
	stopProgress()

	res.Seconds = elapsed.Seconds()
	res.Requests = len(t.took)
	res.Rate = float64(res.Requests) / res.Seconds
	res.Statuses, res.TransportErrors = t.statuses, t.errors
	res.Bookings, res.Answered201 = len(t.ids), len(t.ids)
	res.BookingsPerSecond = float64(res.Bookings) / res.Seconds
	res.LatencyMS = percentiles(t.took)
	res.Failures = append(res.Failures, t.unwelcome...)
	if n := t.failures.Load(); n > 0 {
		res.Failures = append(res.Failures, fmt.Sprintf("%d unexpected answers", n))
	}
	if o.Scenario == "contend" && res.RoundsOneWinner != res.Rounds {
		res.Failures = append(res.Failures, fmt.Sprintf("%d of %d rounds had exactly one winner", res.RoundsOneWinner, res.Rounds))
	}
	for _, pid := range o.ServerPIDs {
		res.PeakRSSMB = max(res.PeakRSSMB, peakRSS(pid))
	}
	if res.Overlaps, err = overlaps(ctx, pool); err != nil {
		return res, err
	}
	if res.Overlaps > 0 {
		res.Failures = append(res.Failures, fmt.Sprintf("%d blocking bookings overlap another of the same resource", res.Overlaps))
	}
	if res.Found201, err = existing(ctx, pool, t.ids); err != nil {
		return res, err
	}
	if res.Found201 != res.Answered201 {
		res.Failures = append(res.Failures, fmt.Sprintf("%d of %d bookings answered 201 are not in the database", res.Answered201-res.Found201, res.Answered201))
	}
	res.OK = len(res.Failures) == 0
	return res, nil
}

// contend releases the clients together on one slot per round, each as another person, and counts
// the rounds with exactly one winner.
func contend(ctx context.Context, c *client, w *world, o options, first time.Time, t *tally) (oneWinner int) {
	for round := range o.Rounds {
		if ctx.Err() != nil {
			break
		}
		slot := round * 7919 // a different resource each round, spread over the organization
		gate := make(chan struct{})
		answers := make([]answer, o.Concurrency)
		var wg sync.WaitGroup
		for i := range o.Concurrency {
			k := w.bookSlot(slot, first, w.tokens[(round*o.Concurrency+i)%len(w.tokens)])
			wg.Go(func() {
				<-gate
				answers[i] = c.do(ctx, k)
			})
		}
		close(gate)
		wg.Wait()
		won := 0
		for _, a := range answers {
			lost := a.status == http.StatusConflict && a.code == int(booking.CodeResourceNotAvailable)
			if a.status == http.StatusCreated {
				won++
			}
			t.add(a, a.status == http.StatusCreated || lost)
		}
		if won == 1 {
			oneWinner++
		}
	}
	return oneWinner
}

// firstFreeDay is the first day after those the earlier runs booked in the evening band (tomorrow when
// none did).
func firstFreeDay(ctx context.Context, pool *pgxpool.Pool, w *world) (time.Time, error) {
	var last *time.Time
	err := pool.QueryRow(ctx, `SELECT max(start_date) FROM bookings WHERE organization_id = $1 AND subject = 'Load test'`, orgID).Scan(&last)
	if err != nil || last == nil {
		return w.tomorrow, err
	}
	l := last.In(w.loc)
	return time.Date(l.Year(), l.Month(), l.Day()+1, 0, 0, 0, 0, w.loc), nil
}

// overlaps counts the blocking bookings that overlap an earlier one of the same resource: zero, or
// double booking happened. Each is compared with the latest end of all that start before it.
func overlaps(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	var n int
	err := pool.QueryRow(ctx, `
		SELECT count(*) FROM (
			SELECT start_date, max(end_date) OVER (PARTITION BY organization_id, resource_id ORDER BY start_date, id
			                                      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before_end
			FROM bookings WHERE status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
		) b WHERE before_end > start_date`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("overlap check: %w", err)
	}
	return n, nil
}

// existing counts how many of the bookings are in the database.
func existing(ctx context.Context, pool *pgxpool.Pool, ids []string) (int, error) {
	uids := make([]uuid.UUID, 0, len(ids))
	for _, id := range ids {
		u, err := uuid.Parse(id)
		if err != nil {
			return 0, fmt.Errorf("booking id %q answered 201: %w", id, err)
		}
		uids = append(uids, u)
	}
	var n int
	err := pool.QueryRow(ctx, `SELECT count(*) FROM bookings WHERE id = ANY ($1::uuid[])`, uids).Scan(&n)
	return n, err
}

func percentiles(took []time.Duration) latencies {
	if len(took) == 0 {
		return latencies{}
	}
	slices.Sort(took)
	at := func(p float64) float64 {
		i := int(p * float64(len(took)-1))
		return float64(took[i].Microseconds()) / 1000
	}
	return latencies{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: float64(took[len(took)-1].Microseconds()) / 1000}
}

// peakRSS is the most memory the process has held resident, in MB (VmHWM); 0 when unknown.
func peakRSS(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024
		}
	}
	return 0
}

// loopback refuses a base URL that is not this machine's.
func loopback(base string) error {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("--base %q: not an http URL", base)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--base %q: only a server on this machine (loopback) may be loaded", base)
}
