package booking_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// keyBooking is a booking written straight into the table, for the tests of the exclusion constraints.
type keyBooking struct {
	org, resource, person uuid.UUID
	desk                  bool
	start, end            time.Time
	status                string
}

func (b keyBooking) String() string {
	return fmt.Sprintf("org %s resource %s person %s desk=%v %s–%s %s", b.org.String()[33:], b.resource.String()[33:],
		b.person.String()[33:], b.desk, b.start.Format("15:04"), b.end.Format("15:04"), b.status)
}

func (b keyBooking) blocking() bool {
	return b.status == "WAITING_APPROVAL" || b.status == "PENDING" || b.status == "ACTIVE"
}

// clashes names the constraints that refuse b next to the bookings kept so far.
func (b keyBooking) clashes(kept []keyBooking) map[string]bool {
	refused := map[string]bool{}
	if !b.blocking() {
		return refused
	}
	for _, k := range kept {
		if !k.blocking() || k.org != b.org || !k.start.Before(b.end) || !b.start.Before(k.end) {
			continue
		}
		if k.resource == b.resource {
			refused["bookings_no_overlap"] = true
		}
		if k.desk && b.desk && k.person == b.person {
			refused["bookings_one_workstation_per_person"] = true
		}
	}
	return refused
}

// insertKeyBooking writes b in a savepoint and returns the constraint that refused it, or "".
func insertKeyBooking(t *testing.T, conn *pgx.Conn, b keyBooking) string {
	t.Helper()
	floor := bookingtest.FloorMadrid
	if b.org == bookingtest.OrgB {
		floor = bookingtest.FloorB
	}
	resourceType := "SPACE"
	if b.desk {
		resourceType = "WORKSTATION"
	}
	tx, err := conn.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	_, err = tx.Exec(t.Context(), `
INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date, end_date,
    status, resource_type, check_in_opens_at, check_in_closes_at)
VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $6, $7)`,
		b.org, uuid.New(), b.resource, floor, b.person, b.start, b.end, b.status, resourceType)
	if err == nil {
		if err := tx.Commit(t.Context()); err != nil {
			t.Fatal(err)
		}
		return ""
	}
	_ = tx.Rollback(t.Context())
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23P01" {
		t.Fatalf("insert %v: %v", b, err)
	}
	return pgErr.ConstraintName
}

// The exclusion constraints compare booking_key(organization, id), a number, instead of the two UUIDs
// (sql/0018). They must refuse exactly what they refused before. The migration keeps every booking,
// including bookings of two organizations that use the same resource and person ids at the same time.
// Then random bookings are written one by one and each is accepted or refused as the rules say: an
// overlap of one resource, or a second desk of one person, within one organization, among blocking
// bookings.
func TestExclusionKeysRefuseAsBefore(t *testing.T) {
	t.Parallel()
	db := bookingtest.MigratedBefore(t, "exclusion_keys.sql")
	ctx := t.Context()

	// Organization A gets two more desks, and B a desk and a person with the ids of A's desk one and Alice.
	deskThree, deskFour := uuid.New(), uuid.New()
	for i, desk := range []uuid.UUID{deskThree, deskFour} {
		if _, err := db.Conn.Exec(ctx, `
INSERT INTO resources (organization_id, id, floor_id, subcategory_id, resource_rule_id, name, poster_code)
VALUES ($1, $2, $3, $4, $5, $6, $6)`,
			bookingtest.OrgA, desk, bookingtest.FloorMadrid, bookingtest.SubDesk, bookingtest.RuleDesk, fmt.Sprintf("MAD-D%d", i+3)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Conn.Exec(ctx, `
INSERT INTO resources (organization_id, id, floor_id, subcategory_id, resource_rule_id, name, poster_code)
VALUES ($1, $2, $3, $4, $5, 'Twin desk', 'TWIN-1')`,
		bookingtest.OrgB, bookingtest.DeskOne, bookingtest.FloorB, bookingtest.SubRoomB, bookingtest.RuleB); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Conn.Exec(ctx, `INSERT INTO users (organization_id, id, name, email) VALUES ($1, $2, 'Twin Alice', 'twin@globex.test')`,
		bookingtest.OrgB, bookingtest.Alice); err != nil {
		t.Fatal(err)
	}

	day := bookingtest.At(40, 0, 0)
	at := func(hh, mm int) time.Time {
		return day.Add(time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute)
	}
	a, b := bookingtest.OrgA, bookingtest.OrgB
	var kept []keyBooking
	before := []keyBooking{
		{a, bookingtest.DeskOne, bookingtest.Alice, true, at(9, 0), at(12, 0), "PENDING"},
		{b, bookingtest.DeskOne, bookingtest.Alice, true, at(9, 0), at(12, 0), "PENDING"},
		{a, bookingtest.RoomGoya, bookingtest.Alice, false, at(9, 0), at(10, 0), "ACTIVE"},
		{a, bookingtest.DeskTwo, bookingtest.Bob, true, at(9, 0), at(12, 0), "CANCELLED"},
	}
	for _, k := range before {
		if c := insertKeyBooking(t, db.Conn, k); c != "" {
			t.Fatalf("before the migration, %v refused by %s", k, c)
		}
		kept = append(kept, k)
	}
	if err := db.Migrator.MigrateTo(ctx, db.Version+1); err != nil {
		t.Fatalf("migrate to %d: %v", db.Version+1, err)
	}
	var n int
	if err := db.Conn.QueryRow(ctx, "SELECT count(*) FROM bookings WHERE start_date >= $1", day).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != len(before) {
		t.Fatalf("%d bookings after the migration, want %d", n, len(before))
	}

	cases := []struct {
		name string
		b    keyBooking
		want string
	}{
		{"overlap of one desk", keyBooking{a, bookingtest.DeskOne, bookingtest.Bob, true, at(11, 0), at(13, 0), "PENDING"}, "bookings_no_overlap"},
		{"the same desk id in another organization", keyBooking{b, bookingtest.DeskOne, bookingtest.Boris, true, at(11, 45), at(12, 0), "PENDING"}, "bookings_no_overlap"},
		{"right after, end meets start", keyBooking{a, bookingtest.DeskOne, bookingtest.Bob, true, at(12, 0), at(13, 0), "PENDING"}, ""},
		{"a second desk of one person", keyBooking{a, bookingtest.DeskTwo, bookingtest.Alice, true, at(11, 0), at(11, 30), "PENDING"}, "bookings_one_workstation_per_person"},
		{"a room beside a desk", keyBooking{a, bookingtest.RoomVelazquez, bookingtest.Alice, false, at(10, 0), at(11, 0), "PENDING"}, ""},
		{"the same person id in another organization", keyBooking{b, bookingtest.RoomB, bookingtest.Alice, false, at(9, 0), at(12, 0), "PENDING"}, ""},
		{"over a cancelled booking", keyBooking{a, bookingtest.DeskTwo, bookingtest.Rita, true, at(9, 0), at(12, 0), "PENDING"}, ""},
		{"a finished booking blocks nothing", keyBooking{a, bookingtest.RoomGoya, bookingtest.Bob, false, at(9, 30), at(10, 0), "FINISHED"}, ""},
	}
	for _, c := range cases {
		if got := insertKeyBooking(t, db.Conn, c.b); got != c.want {
			t.Errorf("%s: refused by %q, want %q", c.name, got, c.want)
		}
		if c.want == "" {
			kept = append(kept, c.b)
		}
	}

	// Random bookings of a few resources and people of both organizations, quarter-hour bounds in one
	// afternoon, so that many of them clash.
	rng := rand.New(rand.NewPCG(18, 2026))
	type choice struct {
		org, resource uuid.UUID
		desk          bool
		people        []uuid.UUID
	}
	choices := []choice{
		{a, bookingtest.DeskOne, true, []uuid.UUID{bookingtest.Alice, bookingtest.Bob}},
		{a, bookingtest.DeskTwo, true, []uuid.UUID{bookingtest.Alice, bookingtest.Bob}},
		{a, deskThree, true, []uuid.UUID{bookingtest.Alice, bookingtest.Bob}},
		{a, deskFour, true, []uuid.UUID{bookingtest.Alice, bookingtest.Bob}},
		{a, bookingtest.RoomGoya, false, []uuid.UUID{bookingtest.Alice, bookingtest.Bob}},
		{b, bookingtest.DeskOne, true, []uuid.UUID{bookingtest.Alice, bookingtest.Boris}},
		{b, bookingtest.RoomB, false, []uuid.UUID{bookingtest.Alice, bookingtest.Boris}},
	}
	statuses := []string{"PENDING", "PENDING", "ACTIVE", "WAITING_APPROVAL", "CANCELLED", "FINISHED", "EXPIRED", "REJECTED"}
	refusedBy := map[string]int{}
	for i := range 400 {
		c := choices[rng.IntN(len(choices))]
		from := rng.IntN(40)
		k := keyBooking{c.org, c.resource, c.people[rng.IntN(len(c.people))], c.desk,
			at(13, 15*from), at(13, 15*(from+1+rng.IntN(6))), statuses[rng.IntN(len(statuses))]}
		want := k.clashes(kept)
		got := insertKeyBooking(t, db.Conn, k)
		switch {
		case got == "" && len(want) > 0:
			t.Fatalf("booking %d, %v: accepted, want refused by one of %v", i, k, want)
		case got != "" && !want[got]:
			t.Fatalf("booking %d, %v: refused by %s, want %v", i, k, got, want)
		case got == "":
			kept = append(kept, k)
		}
		refusedBy[got]++
	}
	// The random bookings must exercise both refusals and acceptance, or the loop above proves little.
	for _, c := range []string{"", "bookings_no_overlap", "bookings_one_workstation_per_person"} {
		if refusedBy[c] < 20 {
			t.Errorf("only %d random bookings ended as %q (all: %v); the test needs more of each", refusedBy[c], c, refusedBy)
		}
	}
}
