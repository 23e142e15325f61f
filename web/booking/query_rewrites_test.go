package booking_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// Queries rewritten so that an index serves them are held here to the statement they replaced: both run
// on the same bookings, with every combination of arguments, and must return the same rows in the same
// order.

// bookingsOfUserBefore is BookingsOfUser as it was, with both tests in one OR.
const bookingsOfUserBefore = `
SELECT bk.id FROM bookings bk
WHERE bk.organization_id = $1
  AND (bk.organizer_id = $2 OR EXISTS (
      SELECT 1 FROM booking_attendees a
      WHERE a.organization_id = bk.organization_id AND a.booking_id = bk.id AND a.user_id = $2))
  AND ($3::timestamptz IS NULL OR bk.end_date > $3::timestamptz)
  AND ($4::timestamptz IS NULL OR bk.start_date < $4::timestamptz)
  AND (cardinality($5::text[]) = 0 OR bk.status = ANY ($5::text[]))
  AND ($6::timestamptz IS NULL OR (bk.start_date, bk.id) < ($6::timestamptz, $7::uuid))
ORDER BY bk.start_date DESC, bk.id DESC
LIMIT $8`

// rewriteFixture writes bookings straight into the fixture's tables: n of them, one an hour (so that
// blocking ones never overlap), every fifth starting with the one before it (ties of start, broken by
// id), on the fixture's resources in turn, made by Alice, Bob or Rita, in every status, with Alice, Bob
// or both invited to some, and Bob sometimes twice. It returns their starts.
func rewriteFixture(t *testing.T, b *bookingtest.Bundle, n int) []time.Time {
	t.Helper()
	type res struct {
		id, floor uuid.UUID
		kind      string
	}
	resources := []res{
		{bookingtest.RoomGoya, bookingtest.FloorMadrid, "SPACE"},
		{bookingtest.RoomVelazquez, bookingtest.FloorMadrid, "SPACE"},
		{bookingtest.DeskOne, bookingtest.FloorMadrid, "WORKSTATION"},
		{bookingtest.RoomHudson, bookingtest.FloorNewYork, "SPACE"},
		{bookingtest.DeskTwo, bookingtest.FloorMadrid, "WORKSTATION"},
	}
	people := []uuid.UUID{bookingtest.Alice, bookingtest.Bob, bookingtest.Rita}
	statuses := []string{"PENDING", "ACTIVE", "WAITING_APPROVAL", "FINISHED", "EXPIRED", "CANCELLED", "REJECTED"}
	batch := &pgx.Batch{}
	var starts []time.Time
	start := bookingtest.At(-5, 8, 0)
	for i := range n {
		if i%5 != 0 {
			start = start.Add(time.Hour)
		}
		r := resources[i%len(resources)]
		status := statuses[i%len(statuses)]
		if i%5 == 0 && i > 0 {
			status = "CANCELLED" // the second of a tie never blocks
		}
		who := people[i*7%len(people)]
		id := uuid.MustParse(fmt.Sprintf("00000000-0000-7000-8000-%012d", 100000+i*7919%n))
		end := start.Add(time.Duration(30+i%4*10) * time.Minute)
		batch.Queue(`INSERT INTO bookings (organization_id, id, resource_id, floor_id, resource_type, creator_id, organizer_id,
			start_date, end_date, status, check_in_opens_at, check_in_closes_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9, $7, $8)`,
			bookingtest.OrgA, id, r.id, r.floor, r.kind, who, start, end, status)
		switch i % 4 {
		case 1:
			batch.Queue(`INSERT INTO booking_attendees (organization_id, booking_id, position, type, user_id) VALUES ($1, $2, 0, 'REQUIRED', $3)`,
				bookingtest.OrgA, id, bookingtest.Alice)
		case 2:
			batch.Queue(`INSERT INTO booking_attendees (organization_id, booking_id, position, type, user_id)
				VALUES ($1, $2, 0, 'REQUIRED', $3), ($1, $2, 1, 'OPTIONAL', $3), ($1, $2, 2, 'OPTIONAL', $4)`,
				bookingtest.OrgA, id, bookingtest.Bob, bookingtest.Alice)
		}
		starts = append(starts, start)
	}
	if err := b.Pool.SendBatch(t.Context(), batch).Close(); err != nil {
		t.Fatalf("write the bookings: %v", err)
	}
	return starts
}

func TestBookingsOfUserAsBefore(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	ctx := t.Context()
	starts := rewriteFixture(t, b, 200)
	q := queries.New(b.Pool)
	mid, late := starts[90], starts[150]
	var cursorID uuid.UUID
	if err := b.Pool.QueryRow(ctx, `SELECT id FROM bookings WHERE organization_id = $1 AND start_date = $2 ORDER BY id LIMIT 1`,
		bookingtest.OrgA, mid).Scan(&cursorID); err != nil {
		t.Fatal(err)
	}
	users := []uuid.UUID{bookingtest.Alice, bookingtest.Bob, bookingtest.Rita, bookingtest.Adam}
	ranges := [][2]*time.Time{{nil, nil}, {&mid, nil}, {nil, &late}, {&mid, &late}}
	statusSets := [][]string{{}, {"PENDING", "ACTIVE", "WAITING_APPROVAL"}, {"CANCELLED"}}
	cursors := []*time.Time{nil, &late, &mid}
	for _, user := range users {
		for _, rg := range ranges {
			for _, st := range statusSets {
				for _, after := range cursors {
					for _, max := range []int32{1, 7, 51, 1000} {
						p := queries.BookingsOfUserParams{OrganizationID: bookingtest.OrgA, UserID: user, FromDate: rg[0], ToDate: rg[1],
							Statuses: st, AfterStart: after, AfterID: cursorID, MaxRows: max}
						rows, err := q.BookingsOfUser(ctx, p)
						if err != nil {
							t.Fatal(err)
						}
						got := make([]uuid.UUID, len(rows))
						for i, r := range rows {
							got[i] = r.ID
						}
						want, err := collectIDs(ctx, b, bookingsOfUserBefore, p.OrganizationID, p.UserID, p.FromDate, p.ToDate, p.Statuses, p.AfterStart, p.AfterID, p.MaxRows)
						if err != nil {
							t.Fatal(err)
						}
						if diff := cmp.Diff(want, got); diff != "" {
							t.Errorf("BookingsOfUser(%+v) differs from before (-before +now):\n%s", p, diff)
						}
					}
				}
			}
		}
	}
}

// collectIDs runs a query returning ids.
func collectIDs(ctx context.Context, b *bookingtest.Bundle, sql string, args ...any) ([]uuid.UUID, error) {
	rows, err := b.Pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if ids == nil {
		ids = []uuid.UUID{}
	}
	return ids, err
}
