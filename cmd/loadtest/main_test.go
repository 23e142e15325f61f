package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alexedwards/scs/pgxstore"
	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// testBundle holds a new database seeded with the small organization, a pool connected to it, and the
// real server running in this process on top of it.
type testBundle struct {
	dbURL string
	pool  *pgxpool.Pool
	base  string
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	// A new migrated database, with the pool configured as the service configures it.
	pool := bookingtest.NewPool(t)
	b := &testBundle{dbURL: pool.Config().ConnString(), pool: pool}
	var out bytes.Buffer
	if err := run(t.Context(), []string{"loadtest", "seed", "--size", "small", "--db", b.dbURL}, noEnv, &out, &out); err != nil {
		t.Fatalf("seed: %v\n%s", err, out.String())
	}
	// Build the server as `booking serve` does, but without rate limits, because every client here
	// comes from 127.0.0.1.
	svc := booking.NewService(b.pool)
	tokens, err := web.NewTokens(t.Context(), identity.New(b.pool, svc), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.NewServer(web.Deps{
		Bookings: svc, Tokens: tokens, Logger: slog.New(slog.DiscardHandler), Sessions: pgxstore.NewWithCleanupInterval(b.pool, 0),
	}))
	t.Cleanup(srv.Close)
	b.base = srv.URL
	return b
}

func noEnv(string) string { return "" }

// run runs `loadtest run` against the bundle's server. It returns the JSON result, the printed output
// and the error.
func (b *testBundle) run(t *testing.T, args ...string) (result, string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "result.json")
	// --procs 0 leaves GOMAXPROCS alone: the server runs in this process too, and must keep its cores.
	all := append([]string{"loadtest", "run", "--db", b.dbURL, "--base", b.base, "--out", path, "--procs", "0", "--warmup", "200ms"}, args...)
	var out, progress bytes.Buffer
	err := run(t.Context(), all, noEnv, &out, &progress)
	var r result
	if data, rerr := os.ReadFile(path); rerr == nil {
		if jerr := json.Unmarshal(data, &r); jerr != nil {
			t.Fatalf("result %s: %v", data, jerr)
		}
	} else if err == nil {
		t.Fatalf("no result written: %v", rerr)
	}
	return r, out.String() + progress.String(), err
}

func TestSeed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()

	t.Run("Counts", func(t *testing.T) {
		for _, c := range []struct {
			query string
			want  int
		}{
			{`SELECT count(*) FROM buildings`, 2},
			{`SELECT count(*) FROM floors`, 4},
			{`SELECT count(*) FROM resources`, 200},
			{`SELECT count(*) FROM resources r JOIN subcategories s ON s.organization_id = r.organization_id AND s.id = r.subcategory_id
			  WHERE s.category = 'SPACE'`, 20},
			{`SELECT count(*) FROM users`, 100},
			{`SELECT count(*) FROM users WHERE user_rule_id IS NULL OR mobile_role_id IS NULL`, 0},
			{`SELECT count(*) FROM bookings`, 5000},
			{`SELECT count(DISTINCT status) FROM bookings WHERE status IN ('FINISHED', 'EXPIRED', 'CANCELLED', 'PENDING')`, 4},
			{`SELECT count(*) FROM bookings WHERE end_date <= now() AND status IN ('PENDING', 'ACTIVE')`, 0},
			{`SELECT count(*) FROM bookings WHERE start_date > now() AND status NOT IN ('PENDING', 'CANCELLED')`, 0},
			// Every seeded booking is between 08:00 and 19:00 in the building's time zone, so evenings are free.
			{`SELECT count(*) FROM bookings bk
			  JOIN resources r ON r.organization_id = bk.organization_id AND r.id = bk.resource_id
			  JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
			  JOIN buildings bu ON bu.organization_id = f.organization_id AND bu.id = f.building_id
			  WHERE (bk.start_date AT TIME ZONE bu.timezone)::time < '08:00'
			     OR (bk.end_date AT TIME ZONE bu.timezone)::time > '19:00'
			     OR (bk.start_date AT TIME ZONE bu.timezone)::date <> (bk.end_date AT TIME ZONE bu.timezone)::date`, 0},
			// One person in five (surnames 00000, 00005, …) is kept for the load's desk bookings, so none of
			// them has a seeded desk booking.
			{`SELECT count(*) FROM bookings bk JOIN users u ON u.organization_id = bk.organization_id AND u.id = bk.organizer_id
			  WHERE bk.resource_type = 'WORKSTATION' AND u.surname::int % 5 = 0`, 0},
			// Each room has a screen and a whiteboard; each desk a monitor, and even-numbered desks a docking station.
			{`SELECT count(*) FROM resource_features`, 20*2 + 180 + 88},
		} {
			var got int
			if err := b.pool.QueryRow(ctx, c.query).Scan(&got); err != nil {
				t.Fatalf("%s: %v", c.query, err)
			}
			if got != c.want {
				t.Errorf("%s = %d, want %d", c.query, got, c.want)
			}
		}
	})

	t.Run("Analyzed", func(t *testing.T) {
		var n int
		if err := b.pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_user_tables WHERE relname = 'bookings' AND last_analyze IS NOT NULL`).Scan(&n); err != nil || n != 1 {
			t.Errorf("bookings analyzed: %d (%v)", n, err)
		}
	})

	t.Run("AgainIsRefused", func(t *testing.T) {
		var out bytes.Buffer
		err := run(ctx, []string{"loadtest", "seed", "--size", "small", "--db", b.dbURL}, noEnv, &out, &out)
		if err == nil || !strings.Contains(err.Error(), "already") {
			t.Errorf("seeding again: %v, want a refusal", err)
		}
	})
}

// progressLine matches the line a run prints each second, such as
// "status  1s  1234 requests  1234/s  0 errors".
var progressLine = regexp.MustCompile(`\d+ requests +\d+/s`)

// TestScenarios runs every scenario briefly against the real server and checks its answers and its
// database checks.
func TestScenarios(t *testing.T) {
	t.Parallel()
	b := setup(t)
	pid := strconv.Itoa(os.Getpid()) // the server runs in this process, so --server-pid is our own

	common := func(t *testing.T, err error, r result, out, scenario string) {
		t.Helper()
		if err != nil {
			t.Fatalf("run %s: %v\n%s", scenario, err, out)
		}
		if !r.OK || r.Requests == 0 ||
			r.LatencyMS.P50 <= 0 || r.LatencyMS.P99 < r.LatencyMS.P50 || r.LatencyMS.Max < r.LatencyMS.P99 || r.Rate <= 0 {
			t.Errorf("result: %+v", r)
		}
		if !r.Check.OK || r.Check.OverlappingPairs != 0 || r.Check.Found201 != r.Check.Answered201 || r.Check.Answered201 < r.Bookings {
			t.Errorf("check: %+v", r.Check)
		}
		if r.ServerPeakRSSMB <= 0 {
			t.Errorf("server_peak_rss_mb = %v, want the peak of process %s", r.ServerPeakRSSMB, pid)
		}
		for status := range r.StatusCounts {
			if strings.HasPrefix(status, "5") || status == "error" {
				t.Errorf("answers %v: none may be a 5xx or missing", r.StatusCounts)
			}
		}
		if !strings.Contains(out, "  ok\n") {
			t.Errorf("summary:\n%s", out)
		}
		// A run that lasts a second or more prints a progress line every second.
		if r.DurationS >= 1 && !progressLine.MatchString(out) {
			t.Errorf("no progress line:\n%s", out)
		}
	}
	for _, sc := range []string{"status", "free", "availability"} {
		t.Run(sc, func(t *testing.T) {
			r, out, err := b.run(t, "--scenario", sc, "--c", "4", "--duration", "1s", "--server-pid", pid)
			common(t, err, r, out, sc)
			if r.Concurrency != 4 || r.DurationS != 1 || r.StatusCounts["200"] != r.Requests {
				t.Errorf("%s: concurrency %d, duration %v, answers %v; want 4, 1 s, all 200", sc, r.Concurrency, r.DurationS, r.StatusCounts)
			}
		})
	}
	t.Run("pages", func(t *testing.T) {
		r, out, err := b.run(t, "--scenario", "pages", "--c", "4", "--duration", "900ms", "--server-pid", pid)
		common(t, err, r, out, "pages")
		if r.StatusCounts["200"] != r.Requests {
			t.Errorf("pages: answers %v, want all 200", r.StatusCounts)
		}
		// The list, the plan and the API's availability, each measured on its own, side by side.
		var names []string
		for _, p := range r.Pages {
			names = append(names, p.Name)
			if p.Requests == 0 || p.Rate <= 0 || p.Errors != 0 || p.LatencyMS.P99 < p.LatencyMS.P50 || p.LatencyMS.P50 <= 0 {
				t.Errorf("part %s: %+v", p.Name, p)
			}
		}
		if want := []string{"find", "plan", "week", "availability"}; !cmp.Equal(names, want) {
			t.Errorf("parts %v, want %v", names, want)
		}
		for _, line := range []string{"find ", "plan ", "availability ", "req/s vs API"} {
			if !strings.Contains(out, line) {
				t.Errorf("summary without %q:\n%s", line, out)
			}
		}
	})
	t.Run("book", func(t *testing.T) {
		var before int
		if err := b.pool.QueryRow(t.Context(), `SELECT count(*) FROM bookings`).Scan(&before); err != nil {
			t.Fatal(err)
		}
		r, out, err := b.run(t, "--scenario", "book", "--c", "4", "--duration", "1s", "--server-pid", pid)
		common(t, err, r, out, "book")
		if r.Bookings == 0 || r.StatusCounts["201"] != r.Requests || r.Bookings != r.Requests || r.BookingRate <= 0 {
			t.Errorf("book: %d bookings of %d requests, answers %v; want every request answered 201", r.Bookings, r.Requests, r.StatusCounts)
		}
		if r.WarmupRequests == 0 || r.Check.Answered201 != r.Bookings+r.WarmupRequests {
			t.Errorf("book: %d warm-up requests; %d answered 201 in all, %d measured", r.WarmupRequests, r.Check.Answered201, r.Bookings)
		}
		// Every booking answered 201, warm-up included, is in the database as a pending "Load test"
		// booking, and nothing else was booked.
		var after, evening int
		if err := b.pool.QueryRow(t.Context(), `SELECT count(*), count(*) FILTER (WHERE subject = 'Load test' AND status = 'PENDING') FROM bookings`).Scan(&after, &evening); err != nil {
			t.Fatal(err)
		}
		if after-before != r.Check.Answered201 || evening != r.Check.Answered201 {
			t.Errorf("bookings: %d before, %d after, %d of the load test; the run answered 201 %d times", before, after, evening, r.Check.Answered201)
		}

		// A second run books different slots, so every request succeeds again.
		r2, out, err := b.run(t, "--scenario", "book", "--c", "2", "--duration", "300ms", "--server-pid", pid)
		common(t, err, r2, out, "book")
	})
	// With its clients pinned, book loads two servers (here two names of the same one) side by side and
	// says how many bookings each made.
	t.Run("bookPinned", func(t *testing.T) {
		other := strings.Replace(b.base, "127.0.0.1", "localhost", 1)
		if other == b.base {
			t.Fatalf("base %s is not on 127.0.0.1", b.base)
		}
		r, out, err := b.run(t, "--scenario", "book", "--c", "4", "--duration", "1s", "--server-pid", pid,
			"--base", b.base+","+other, "--pinned")
		common(t, err, r, out, "book")
		if len(r.PerBase) != 2 || r.PerBase[0].Base != b.base || r.PerBase[1].Base != other ||
			r.PerBase[0].Bookings == 0 || r.PerBase[1].Bookings == 0 || r.PerBase[0].Bookings+r.PerBase[1].Bookings != r.Bookings {
			t.Errorf("per base %+v, %d bookings in all: want both servers' bookings, adding up", r.PerBase, r.Bookings)
		}
	})
	t.Run("contend", func(t *testing.T) {
		r, out, err := b.run(t, "--scenario", "contend", "--c", "5", "--rounds", "3", "--server-pid", pid)
		common(t, err, r, out, "contend")
		if len(r.Rounds) != 3 {
			t.Fatalf("rounds %+v, want 3", r.Rounds)
		}
		for i, rd := range r.Rounds {
			if rd != (round{Round: i + 1, Successes: 1, Conflicts: 4}) {
				t.Errorf("round %d: %+v, want 1 success and 4 conflicts", i+1, rd)
			}
		}
		if r.Requests != 15 || r.StatusCounts["201"] != 3 || r.StatusCounts["409"] != 12 || r.ErrorCodes["409 4001"] != 12 || r.Bookings != 3 {
			t.Errorf("contend: answers %v, codes %v; want 3 × 201 and 12 × 409 4001", r.StatusCounts, r.ErrorCodes)
		}
		if !strings.Contains(out, "3 of 3") {
			t.Errorf("summary:\n%s", out)
		}
	})
	t.Run("rush", func(t *testing.T) {
		r, out, err := b.run(t, "--scenario", "rush", "--c", "4", "--duration", "1s", "--server-pid", pid)
		common(t, err, r, out, "rush")
		// rush opens five rooms for booking each second. Over about 1.2 s (warm-up included), at most 10
		// bookings can succeed and many must lose.
		if r.StatusCounts["200"] == 0 || r.Check.Answered201 == 0 || r.Check.Answered201 > 10 || r.ErrorCodes["409 4001"] == 0 {
			t.Errorf("rush: answers %v, %d bookings; want reads, 1 to 10 bookings won (5 rooms a second) and the others lost",
				r.StatusCounts, r.Check.Answered201)
		}
		for k := range r.ErrorCodes {
			if k != "409 4001" {
				t.Errorf("rush: error codes %v, want only 409 4001", r.ErrorCodes)
			}
		}
	})
}

// TestDeskSlots checks the slots of the book scenario, which always books a given desk as the same
// person. Over the first ten evenings, no slot may overlap another slot of that person or a blocking
// desk booking the person already holds. Otherwise the service refuses it with 409 and code 4013 (a
// person holds one desk at a time) and the run fails.
func TestDeskSlots(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	w, err := newWorld(ctx, b.pool, 1000, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// One person in five of the 100 has no seeded desk booking. These 20 people each book one desk.
	if w.deskPeople != 20 {
		t.Errorf("%d people free of desks, want 20", w.deskPeople)
	}
	horizon := w.today.AddDate(0, 0, w.firstDay+10)
	var people []uuid.UUID
	var starts, ends []time.Time
	desks := map[int]bool{}
	latest := map[int]int64{} // end of each person's latest slot
	for n := 0; ; n++ {
		s, ok := w.eveningSlot(n, false)
		if !ok || time.UnixMilli(s.start).After(horizon) {
			break
		}
		if s.user < 0 || s.user >= len(w.userIDs) {
			t.Fatalf("desk slot %d: person %d, want one of the %d people", n, s.user, len(w.userIDs))
		}
		if s.start < latest[s.user] {
			t.Fatalf("desk slot %d overlaps an earlier slot of person %d", n, s.user)
		}
		latest[s.user] = s.end
		desks[s.resource] = true
		people = append(people, w.userIDs[s.user])
		starts, ends = append(starts, time.UnixMilli(s.start)), append(ends, time.UnixMilli(s.end))
	}
	if len(desks) < 10 || len(starts) < 9*slotsPerEvening*len(desks) {
		t.Fatalf("%d desk slots on %d desks, want nine evenings or more of at least 10 desks", len(starts), len(desks))
	}
	var held int
	if err := b.pool.QueryRow(ctx, `
		SELECT count(*) FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) AS s(person, start_date, end_date)
		JOIN bookings bk ON bk.organization_id = $4 AND bk.organizer_id = s.person AND bk.resource_type = 'WORKSTATION'
		 AND bk.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
		 AND tstzrange(bk.start_date, bk.end_date, '[)') && tstzrange(s.start_date, s.end_date, '[)')`,
		people, starts, ends, orgID).Scan(&held); err != nil {
		t.Fatal(err)
	}
	if held != 0 {
		t.Errorf("%d of %d desk slots are booked as a person who already holds a desk then", held, len(starts))
	}
}

// TestRunRefuses checks that run refuses a server that is not on this machine, a run that is too long,
// too many clients and other bad flags, and that it accepts every loopback address.
func TestRunRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--base", "http://192.0.2.1:8080"}, "loopback"},
		{[]string{"--base", "http://example.com"}, "loopback"},
		{[]string{"--base", "http://127.0.0.1.example.com:80"}, "loopback"},
		{[]string{"--base", "http://127.0.0.1:8080,http://10.0.0.1:8080"}, "loopback"},
		{[]string{"--duration", "6m"}, "--duration"},
		{[]string{"--c", "1001"}, "--c"},
		{[]string{"--rounds", "0"}, "--rounds"},
		{[]string{"--scenario", "contend", "--c", "1"}, "--c"},
		{[]string{"--scenario", "stampede"}, "--scenario"},
	} {
		args := append([]string{"loadtest", "run", "--scenario", "status", "--db", "postgres://postgres@127.0.0.1:1/none"}, c.args...)
		var out bytes.Buffer
		err := run(t.Context(), args, noEnv, &out, &out)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want a refusal naming %s", c.args, err, c.want)
		}
	}
	for _, base := range []string{"http://127.0.0.1:8080", "http://127.1.2.3:8080", "http://localhost:1", "http://[::1]:80"} {
		if err := loopback(base); err != nil {
			t.Errorf("loopback(%q): %v", base, err)
		}
	}
}

// TestCheckFails checks that the database check fails when blocking bookings of one resource overlap, or
// when a booking answered 201 is missing, and that a run on such a database fails too. The test drops the
// exclusion constraint to insert the overlap.
func TestCheckFails(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	c, err := checkDatabase(ctx, b.pool, nil)
	if err != nil || !c.OK || c.OverlappingPairs != 0 {
		t.Fatalf("seeded database: %+v, %v; want no overlap", c, err)
	}

	missing := uuid.NewString()
	if c, err = checkDatabase(ctx, b.pool, []string{seqID(kindBooking, 7).String(), missing}); err != nil {
		t.Fatal(err)
	}
	if c.OK || c.Found201 != 1 || c.Answered201 != 2 || len(c.Missing) != 1 || c.Missing[0] != missing {
		t.Errorf("a booking answered 201 missing: %+v, want it named and the check failed", c)
	}

	// Two overlapping blocking bookings of one resource, and a third that only touches one of them. Ranges
	// are half-open, so touching is not overlapping.
	_, err = b.pool.Exec(ctx, `
		ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap;
		INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date, end_date,
		                      status, resource_type, check_in_opens_at, check_in_closes_at)
		SELECT organization_id, gen_random_uuid(), resource_id, floor_id, creator_id, organizer_id, start_date + interval '15 minutes',
		       end_date + interval '15 minutes', 'PENDING', resource_type, check_in_opens_at, check_in_closes_at
		FROM bookings WHERE status = 'PENDING' ORDER BY id LIMIT 1;
		INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date, end_date,
		                      status, resource_type, check_in_opens_at, check_in_closes_at)
		SELECT organization_id, gen_random_uuid(), resource_id, floor_id, creator_id, organizer_id, end_date,
		       end_date + interval '1 minute', 'PENDING', resource_type, check_in_opens_at, check_in_closes_at
		FROM bookings WHERE status = 'PENDING' ORDER BY id DESC LIMIT 1`)
	if err != nil {
		t.Fatal(err)
	}
	if c, err = checkDatabase(ctx, b.pool, nil); err != nil {
		t.Fatal(err)
	}
	if c.OK || c.OverlappingPairs != 1 || len(c.Overlaps) != 1 {
		t.Errorf("after forcing one double booking: %+v, want 1 overlapping pair and the check failed", c)
	}

	r, out, err := b.run(t, "--scenario", "status", "--c", "2", "--duration", "200ms")
	if err == nil || r.OK || r.Check.OverlappingPairs != 1 {
		t.Errorf("a run on a double-booked database: %v, ok %v, check %+v; want it failed\n%s", err, r.OK, r.Check, out)
	}
}

func TestPercentiles(t *testing.T) {
	var took []time.Duration
	for i := 100; i >= 1; i-- {
		took = append(took, time.Duration(i)*time.Millisecond)
	}
	got := percentiles(took)
	if want := (latencies{P50: 50, P95: 95, P99: 99, Max: 100, Mean: 50.5}); got != want {
		t.Errorf("percentiles of 1..100 ms = %+v, want %+v", got, want)
	}
	if got := percentiles(nil); got != (latencies{}) {
		t.Errorf("percentiles of nothing = %+v", got)
	}
}

func TestAnswerParsing(t *testing.T) {
	id := "0190f0a4-7e1c-7cc4-9f3b-0a1b2c3d4e5f"
	for _, body := range []string{
		`{"bookings":[{"id":"` + id + `","startDate":1}]}`,
		`{ "bookings": [ { "startDate": 1, "id": "` + id + `" } ] }`,
	} {
		if got := bookingID([]byte(body)); got != id {
			t.Errorf("bookingID(%s) = %q", body, got)
		}
	}
	for body, want := range map[string]int{
		`{"status":409,"code":4001,"name":"RESOURCE_NOT_AVAILABLE"}`: 4001,
		`{"status":503, "code": 5030}`:                               5030,
		`<html>bad gateway</html>`:                                   0,
	} {
		if got := problemCode([]byte(body)); got != want {
			t.Errorf("problemCode(%s) = %d, want %d", body, got, want)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestWithDatabase(t *testing.T) {
	got, err := withDatabase("postgres://u:p@127.0.0.1:5433/booking?sslmode=disable&pool_max_conns=8", "booking_bench")
	if want := "postgres://u:p@127.0.0.1:5433/booking_bench?sslmode=disable&pool_max_conns=8"; err != nil || got != want {
		t.Errorf("withDatabase = %q, %v; want %q", got, err, want)
	}
	if got, want := plain(got), "postgres://u:p@127.0.0.1:5433/booking_bench?sslmode=disable"; got != want {
		t.Errorf("plain = %q, want %q", got, want)
	}
	if _, err := withDatabase("host=127.0.0.1 dbname=booking", "x"); err == nil {
		t.Error("a keyword/value DATABASE_URL: accepted")
	}
}

// TestReport checks that the report turns the runs into medians, pass/fail verdicts and a chart.
func TestReport(t *testing.T) {
	rep := report{Date: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC), Runs: 2, Duration: 10 * time.Second, Results: map[string][]result{},
		Warmup: time.Second, Procs: 2, Users: 1000, SizeName: "standard", Size: sizes["standard"], ServerFlags: serveFlags,
		Database: "booking_bench", PgbenchDatabase: "booking_pgbench", PoolMaxConns: 16,
		Pgbench: []pgbenchResult{
			{Name: "TPC-B", Run: 1, TPS: 2000, LatencyMS: 16}, {Name: "select-only", Run: 1, TPS: 30000, LatencyMS: 1},
			{Name: "TPC-B", Run: 2, TPS: 3000, LatencyMS: 10}, {Name: "select-only", Run: 2, TPS: 40000, LatencyMS: 0.8},
		}}
	for i, sc := range scenarios {
		for run := range 2 {
			r := result{Scenario: sc, Rate: float64(1000 * (i + 1 + run)), BookingRate: 1200, OK: true, Check: dbCheck{OK: true},
				LatencyMS: latencies{P50: 1, P95: 5, P99: float64(10 * (i + 1)), Max: 100}, StatusCounts: map[string]int{"200": 10}, ServerPeakRSSMB: 90}
			if sc == "contend" {
				r.Rounds = []round{{Successes: 1, Conflicts: 49}}
				r.StatusCounts = map[string]int{"201": 1, "409": 49}
				r.ErrorCodes = map[string]int{"409 4001": 49}
			}
			rep.Results[sc] = append(rep.Results[sc], r)
		}
	}
	rows := rep.rows()
	md := rep.markdown(rows)
	for _, want := range []string{
		"| status | 1500 |", "| book ≥ 1,100 bookings/s | 1200 bookings/s | pass |", "| book ≥ 50% of pgbench TPC-B tps | 50% (runs: 60%, 40%) | pass |",
		"| 1 | 1200 | 2000 | 0.60 |", "| 2 | 1200 | 3000 | 0.40 |", "| median | | | 0.50 |",
		"| TPC-B | 2500 | 13.00 |", "| select-only | 35000 | 0.90 |",
		"| status p99 ≤ 20 ms | 10.0 ms | pass |", "| free ≥ 1,500 req/s | 2500 req/s | pass |", "| book p99 ≤ 50 ms | 40.0 ms | pass |",
		"| availability p99 ≤ 50 ms | 30.0 ms | pass |", "2 of 2 rounds", "| server peak RSS ≤ 150 MB (API scenarios, before any page) | 90 MB | pass |", "| server peak RSS ≤ 150 MB, pages included | 90 MB | pass |",
		// The report's description of the setup.
		"10 buildings in 10 time zones, 50 floors, 10,000 resources (1,000 meeting", "9,000 desks), 5,000 people and 1,000,000 bookings over the 180 days",
		"as 1,000 people", "after 1s of warm-up", "on 2 cores (GOMAXPROCS=2)", "with a pool of 16 connections\n", "`booking_pgbench`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("benchmarks.md lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(md, "| status ≥ 5,000 req/s | 1500 req/s | **fail** |") {
		t.Errorf("a missed target is not marked failed:\n%s", md)
	}
	// Each book run is compared with the TPC-B run of the same round, and the verdict uses the median of
	// those ratios. A faster second TPC-B run pulls the median under 50%.
	rep.Pgbench[2].TPS = 3200
	if md := rep.markdown(rows); !strings.Contains(md, "| book ≥ 50% of pgbench TPC-B tps | 49% (runs: 60%, 38%) | **fail** |") {
		t.Errorf("a median ratio under 50%% is not marked failed:\n%s", md)
	}
	rep.PoolMaxConns = 8
	if md := rep.markdown(rows); !strings.Contains(md, "with a pool of 8 connections") {
		t.Errorf("a pool_max_conns of DATABASE_URL is not reported:\n%s", md)
	}
	path := filepath.Join(t.TempDir(), "chart.svg")
	if err := rep.chart(path, rows); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, []byte("<svg ")) || !bytes.HasSuffix(data, []byte("</svg>\n")) {
		t.Errorf("chart: %v, %d bytes", err, len(data))
	}
	for _, sc := range []string{">status</text>", ">book</text>", ">p99</text>"} {
		if !bytes.Contains(data, []byte(sc)) {
			t.Errorf("chart: no %q", sc)
		}
	}
}

// The large data set's figures stand beside the standard ones: p99 within 1.5 × the standard one's,
// book's rate at least 2/3 of it.
func TestReportLarge(t *testing.T) {
	standard := map[string][]result{}
	large := map[string][]result{}
	for _, c := range []struct {
		sc                      string
		standardP99, largeP99   float64
		standardRate, largeRate float64
	}{
		{"status", 8, 11, 0, 0}, {"free", 30, 46, 0, 0}, {"availability", 30, 44, 0, 0}, {"book", 20, 22, 3000, 1900},
	} {
		standard[c.sc] = []result{{Scenario: c.sc, OK: true, Check: dbCheck{OK: true}, BookingRate: c.standardRate, LatencyMS: latencies{P99: c.standardP99}}}
		large[c.sc] = []result{{Scenario: c.sc, OK: true, Check: dbCheck{OK: true}, BookingRate: c.largeRate, LatencyMS: latencies{P99: c.largeP99}}}
	}
	rep := report{Runs: 1, Results: standard, Size: sizes["standard"],
		Large: &setInfo{SizeName: "large", Size: sizes["large"], Database: "booking_large", SeedTime: 20 * time.Minute,
			DatabaseSize: "9 GB on disk", Results: large}}
	var got []verdict
	for _, v := range rep.verdicts(rep.rows()) {
		if strings.HasPrefix(v.Target, "large: ") {
			got = append(got, v)
		}
	}
	want := []verdict{
		{"large: status p99 ≤ 1.5 × standard", "11.0 ms against 8.0 ms: 1.38 ×", true},
		{"large: free p99 ≤ 1.5 × standard", "46.0 ms against 30.0 ms: 1.53 ×", false},
		{"large: availability p99 ≤ 1.5 × standard", "44.0 ms against 30.0 ms: 1.47 ×", true},
		{"large: book p99 ≤ 1.5 × standard", "22.0 ms against 20.0 ms: 1.10 ×", true},
		{"large: book ≥ 0.67 × standard bookings/s", "1900 bookings/s against 3000: 0.63 ×", false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("large verdicts (-want +got):\n%s", diff)
	}
	md := rep.markdown(rep.rows())
	for _, s := range []string{"## At the large scale", "`booking_large`", "100 organizations", "20,000,000 bookings in all",
		"seeded in 20m0s; it takes 9 GB on disk", "| free | 0 | – | 0.00 | 0.00 | 46.00 | 0.0 | 1.53 |"} {
		if !strings.Contains(md, s) {
			t.Errorf("benchmarks.md lacks %q:\n%s", s, md)
		}
	}
}

func TestSeqID(t *testing.T) {
	if got, want := seqID(kindBooking, 1_000_000).String(), "5eed0000-000c-8000-8000-0000000f4240"; got != want {
		t.Errorf("seqID = %s, want %s", got, want)
	}
	if got, want := synthetic(42).id(kindUser, 7).String(), "5eed002a-0004-8000-8000-000000000007"; got != want {
		t.Errorf("synthetic(42).id = %s, want %s", got, want)
	}
}

// The seed of several organizations, at a tiny size: each organization is whole and alike, and the
// bookings table ends with the very indexes and constraints the migrations gave it.
func TestSeedOrganizations(t *testing.T) {
	t.Parallel()
	pool := bookingtest.NewPool(t)
	ctx := t.Context()
	schema := func() []string {
		rows, err := pool.Query(ctx, `SELECT indexdef FROM pg_indexes WHERE tablename = 'bookings'
			UNION ALL SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'bookings'::regclass
			UNION ALL SELECT tgname || ' ' || tgenabled::text FROM pg_trigger WHERE tgrelid = 'bookings'::regclass AND NOT tgisinternal
			ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return defs
	}
	migrated := schema()
	sz := size{Organizations: 3, Buildings: 1, FloorsPerBuilding: 2, ResourcesPerFloor: 10, RoomsPerFloor: 2,
		Users: 20, Bookings: 400, Days: 30, DaysAhead: 10}
	var out bytes.Buffer
	if err := seed(ctx, pool.Config().ConnString(), sz, time.Now(), &out); err != nil {
		t.Fatalf("seed: %v\n%s", err, out.String())
	}
	if diff := cmp.Diff(migrated, schema()); diff != "" {
		t.Errorf("the bookings table after the seed differs from the migrated one (-migrated +seeded):\n%s", diff)
	}
	type perOrg struct {
		Org                               uuid.UUID
		Users, Resources, Bookings, Past  int
		Blocking, BlockingPast, Cancelled int
	}
	rows, err := pool.Query(ctx, `
		SELECT o.id, (SELECT count(*) FROM users u WHERE u.organization_id = o.id),
		       (SELECT count(*) FROM resources r WHERE r.organization_id = o.id),
		       count(b.id), count(b.id) FILTER (WHERE b.end_date <= now()),
		       count(b.id) FILTER (WHERE b.status IN ('PENDING', 'ACTIVE')),
		       count(b.id) FILTER (WHERE b.status IN ('PENDING', 'ACTIVE') AND b.end_date <= now()),
		       count(b.id) FILTER (WHERE b.status = 'CANCELLED')
		FROM organizations o LEFT JOIN bookings b ON b.organization_id = o.id
		GROUP BY o.id ORDER BY o.id`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[perOrg])
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d organizations, want 3", len(got))
	}
	for i, o := range got {
		// Two thirds of the 30 days lie before today; the bookings of today may be either.
		if o.Org != synthetic(i).org() || o.Users != 20 || o.Resources != 20 || o.Bookings != 400 ||
			o.Past < 400*19/30 || o.Past > 400*21/30 || o.Blocking == 0 || o.BlockingPast != 0 || o.Cancelled == 0 {
			t.Errorf("organization %d: %+v", i, o)
		}
	}
}

// TestBookSlotsInProportion checks that the book scenario takes every room slot and every desk slot once,
// in order, rooms and desks in proportion to their numbers, so that both run out on the same day.
func TestBookSlotsInProportion(t *testing.T) {
	w := &world{rooms: []int{0, 1, 2}, desks: []int{3, 4, 5, 6, 7, 8, 9, 10}, deskPeople: 7}
	var rooms, desks []int
	for n := range 10 * 4 { // four rounds of 3 rooms and 7 desks
		i, room := w.bookSlot(n)
		if room {
			rooms = append(rooms, i)
		} else {
			desks = append(desks, i)
		}
		if want := (n + 1) * 3 / 10; len(rooms) != want {
			t.Fatalf("after %d requests, %d rooms booked, want %d", n+1, len(rooms), want)
		}
	}
	for what, got := range map[string][]int{"room": rooms, "desk": desks} {
		for i, n := range got {
			if n != i {
				t.Fatalf("%s slots taken %v, want each once in order", what, got)
			}
		}
	}
	if len(rooms) != 12 || len(desks) != 28 {
		t.Errorf("%d room and %d desk slots taken, want 12 and 28", len(rooms), len(desks))
	}
}
