package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/cmd/internal/pgcluster"
)

// ceilingArgs are the script's expressions for BookingInsert's arguments.
var scriptArgs = map[string]string{
	"id":                     `(lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0') || '7' || substr(replace(gen_random_uuid()::text, '-', ''), 14))::uuid`,
	"resource_id":            `('5eed0000-000b-8000-8000-' || lpad(to_hex(:r::bigint), 12, '0'))::uuid`,
	"floor_id":               `('5eed0000-0006-8000-8000-' || lpad(to_hex(:floor::bigint), 12, '0'))::uuid`,
	"creator_id":             `('5eed0000-0004-8000-8000-' || lpad(to_hex(:user::bigint), 12, '0'))::uuid`,
	"organizer_id":           `('5eed0000-0004-8000-8000-' || lpad(to_hex(:user::bigint), 12, '0'))::uuid`,
	"start_date":             `to_timestamp(:start::bigint)::timestamptz`,
	"end_date":               `to_timestamp(:start::bigint + 900)::timestamptz`,
	"status":                 `'PENDING'::text`,
	"access_control_type":    `'ANY'::text`,
	"subject":                `'pgbench ceiling'::text`,
	"body_content":           `''::text`,
	"body_type":              `'TEXT'::text`,
	"importance":             `'LOW'::text`,
	"resource_type":          `(CASE :room::int WHEN 1 THEN 'SPACE' ELSE 'WORKSTATION' END)::text`,
	"building_access_status": `'PENDING'::text`,
	"create_online_meeting":  `false::boolean`,
	"sip_address":            `''::text`,
	"all_day":                `false::boolean`,
	"check_in_opens_at":      `to_timestamp(:start::bigint - 900)::timestamptz`,
	"check_in_closes_at":     `to_timestamp(:start::bigint + 900)::timestamptz`,
	"series_id":              `NULL::uuid`,
	"organization_id":        `:org::uuid`,
	"layout_version":         `:layout::bigint`,
	"building_id":            `('5eed0000-0005-8000-8000-' || lpad(to_hex(:building::bigint), 12, '0'))::uuid`,
}

// TestCeilingScriptIsBookingInsert holds the pgbench scripts to the service's insert: BookingInsert of
// queries/bookings.sql with each argument replaced by the script's expression for it. The busy-hours
// script books longer slots under a subject of its own, and skips a booking that overlaps.
func TestCeilingScriptIsBookingInsert(t *testing.T) {
	scripts := []struct {
		name, script string
		args         map[string]string // the arguments it sets otherwise than ceiling.sql
		tail         string            // what it adds after the statement
	}{
		{"ceiling.sql", ceilingScript, nil, ""},
		{"busyhours.sql", busyHoursScript, map[string]string{
			"end_date": `to_timestamp(:start::bigint + :length)::timestamptz`,
			"subject":  `'pgbench busy hours'::text`,
		}, "\nON CONFLICT DO NOTHING"},
	}
	for _, sc := range scripts {
		t.Run(sc.name, func(t *testing.T) {
			got := scriptStatement(t, sc.script)
			want := bookingInsertWith(t, func(name string) (string, bool) {
				if e, ok := sc.args[name]; ok {
					return e, true
				}
				e, ok := scriptArgs[name]
				return e, ok
			}) + sc.tail
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s's statement is not BookingInsert (-want +got):\n%s", sc.name, diff)
			}
		})
	}
}

// scriptStatement is the INSERT of a pgbench script, without its semicolon.
func scriptStatement(t *testing.T, script string) string {
	t.Helper()
	_, got, ok := strings.Cut(script, "\nINSERT INTO bookings")
	if !ok {
		t.Fatal("the script has no INSERT INTO bookings")
	}
	got, _, _ = strings.Cut("INSERT INTO bookings"+got, ";")
	return got
}

// bookingInsertWith is BookingInsert of queries/bookings.sql, without its semicolon, with each argument
// replaced by arg's expression for it.
func bookingInsertWith(t *testing.T, arg func(name string) (string, bool)) string {
	t.Helper()
	src, err := os.ReadFile("../../queries/bookings.sql")
	if err != nil {
		t.Fatal(err)
	}
	_, query, ok := strings.Cut(string(src), "-- name: BookingInsert :one\n")
	if !ok {
		t.Fatal("no BookingInsert in queries/bookings.sql")
	}
	_, query, ok = strings.Cut(query, "\nINSERT INTO bookings")
	if !ok {
		t.Fatal("BookingInsert does not start with INSERT INTO bookings")
	}
	// The booking's own INSERT: the event the service writes with it (the rest of the statement) is not
	// the database's ceiling of bookings, and the scripts leave it out.
	query, _, _ = strings.Cut("INSERT INTO bookings"+query, "\nRETURNING organization_id, ")
	re := regexp.MustCompile(`sqlc\.n?arg\((\w+)\)::\w+`)
	return re.ReplaceAllStringFunc(query, func(m string) string {
		name := re.FindStringSubmatch(m)[1]
		e, ok := arg(name)
		if !ok {
			t.Errorf("BookingInsert has an argument %s the script does not set", name)
		}
		return e
	})
}

// TestScriptRuns runs each pgbench script briefly on the small organization: it makes bookings, the cost
// is counted per booking made, and the script's bookings are gone afterwards. Every insert of the booking
// script succeeds; the busy-hours script may skip some.
func TestScriptRuns(t *testing.T) {
	t.Parallel()
	bin, err := pgcluster.Program("pgbench")
	if err != nil {
		t.Skipf("no pgbench: %v", err)
	}
	scripts := []struct {
		name, subject string
		run           func(context.Context, pgbench, *dataSet, *bytes.Buffer) (ceilingResult, error)
		allMade       bool
	}{
		{"booking script", ceilingSubject, func(ctx context.Context, p pgbench, set *dataSet, out *bytes.Buffer) (ceilingResult, error) {
			return p.ceiling(ctx, set, 4, 1, time.Second, out)
		}, true},
		{"busy-hours script", busyHoursSubject, func(ctx context.Context, p pgbench, set *dataSet, out *bytes.Buffer) (ceilingResult, error) {
			return p.busyHours(ctx, set, 4, 1, 2*time.Second, out)
		}, false},
	}
	for _, sc := range scripts {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			w, err := newWorld(t.Context(), b.pool, 1000, time.Hour, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			set := &dataSet{size: sizes["small"], dbURL: b.dbURL, pool: b.pool, world: w}
			var out bytes.Buffer
			r, err := sc.run(t.Context(), pgbench{bin: bin}, set, &out)
			if err != nil {
				t.Fatalf("%s: %v\n%s", sc.name, err, out.String())
			}
			if r.TPS <= 0 || r.Made <= 0 || r.Attempts < r.Made || r.Cost.Bookings != r.Made || r.Cost.WALBytes <= 0 {
				t.Errorf("%s = %+v, want bookings made, no more than tried, and WAL written per booking made", sc.name, r)
			}
			if sc.allMade && r.Made != r.Attempts {
				t.Errorf("%s made %d bookings of %d tried, want every one", sc.name, r.Made, r.Attempts)
			}
			var left int
			if err := b.pool.QueryRow(t.Context(), "SELECT count(*) FROM bookings WHERE subject = $1", sc.subject).Scan(&left); err != nil {
				t.Fatal(err)
			}
			if left != 0 {
				t.Errorf("%d of the script's bookings are left", left)
			}
		})
	}
}

// TestCeilingReport writes book against the booking script run by run, and the medians of their costs.
func TestCeilingReport(t *testing.T) {
	r := report{
		Duration: 10 * time.Second,
		Results:  map[string][]result{"book": {{BookingRate: 2000}, {BookingRate: 3000}}},
		Ceiling: []ceilingResult{
			{Run: 1, TPS: 2500, Cost: perBooking{WALBytes: 2000, FPI: 0.1, CPUMicros: 400, ExecMicros: 300, InsertWAL: 1900}},
			{Run: 2, TPS: 3000, Cost: perBooking{WALBytes: 3000, FPI: 0.3, CPUMicros: 500}},
		},
		BookCost: []perBooking{{WALBytes: 2500, FPI: 0.2, CPUMicros: 600}},
		BusyHours: []ceilingResult{
			{Run: 1, TPS: 4000, Attempts: 40000, Made: 30000, Cost: perBooking{WALBytes: 1500, FPI: 0.05, CPUMicros: 300}},
			{Run: 2, TPS: 3000, Attempts: 30000, Made: 22000, Cost: perBooking{WALBytes: 1700, FPI: 0.07, CPUMicros: 340}},
		},
	}
	var s strings.Builder
	r.writeCeiling(func(format string, a ...any) { fmt.Fprintf(&s, format, a...) })
	for _, want := range []string{
		"| 1 | 2000 | 2500 | 80% |\n", "| 2 | 3000 | 3000 | 100% |\n", "| median | | | 90% |\n",
		"| book (HTTP) | 2500 | 0.20 | 600 | – | – |\n", "| booking script | 2500 | 0.20 | 450 | 150 | 950 |\n",
		"| busy-hours script | 1600 | 0.06 | 320 | – | – |\n", "It made 52000 bookings of the 70000\nit tried (3500 tries a second, median)",
	} {
		if !strings.Contains(s.String(), want) {
			t.Errorf("the ceiling's section has no line %q:\n%s", want, s.String())
		}
	}
}

// TestCeilingTakesBooksMix checks that the booking script books rooms and desks in the proportion book
// does: as many rooms as the world, and as many desks as it books (one per person free of desks), so that
// book over HTTP and the script insert the same mix.
func TestCeilingTakesBooksMix(t *testing.T) {
	t.Parallel()
	b := setup(t)
	w, err := newWorld(t.Context(), b.pool, 1000, time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	args, err := ceilingArgs(t.Context(), b.pool, sizes["small"], w, 4, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(args, " ")
	for _, want := range []string{fmt.Sprintf("rooms=%d ", len(w.rooms)), fmt.Sprintf("desks=%d ", len(w.bookedDesks()))} {
		if !strings.Contains(joined, want) {
			t.Errorf("the script's arguments have no %q, so its mix is not book's: %s", want, joined)
		}
	}
}
