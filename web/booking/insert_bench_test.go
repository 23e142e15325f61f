package booking_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// insertBefore is BookingInsert as it was before closures: the version check used the statement's own
// snapshot, taken before the advisory lock in its CTE was granted.
const insertBefore = `
WITH resource_lock AS (SELECT pg_advisory_xact_lock(hashtextextended($3::uuid::text, 0)))
INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date, end_date, status,
                      access_control_type, subject, body_content, body_type, importance, resource_type,
                      building_access_status, create_online_meeting, sip_address, all_day,
                      check_in_opens_at, check_in_closes_at)
SELECT o.id, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $5::uuid, $6::timestamptz, $7::timestamptz, 'PENDING', 'ANY',
       'bench', '', 'TEXT', 'LOW', 'SPACE', 'PENDING', false, '', false, $6::timestamptz, $7::timestamptz
FROM resource_lock, organizations o
WHERE o.id = $1::uuid AND o.layout_version = $8::bigint`

// insertAfter is BookingInsert now: booking_may_insert takes the building's closure lock and the
// resource's lock, then reads the version.
const insertAfter = `
INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date, end_date, status,
                      access_control_type, subject, body_content, body_type, importance, resource_type,
                      building_access_status, create_online_meeting, sip_address, all_day,
                      check_in_opens_at, check_in_closes_at)
SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $5::uuid, $6::timestamptz, $7::timestamptz, 'PENDING', 'ANY',
       'bench', '', 'TEXT', 'LOW', 'SPACE', 'PENDING', false, '', false, $6::timestamptz, $7::timestamptz
WHERE booking_may_insert($1::uuid, $8::bigint, $9::uuid, $3::uuid)`

// BenchmarkBookingInsert measures one booking's insert against the database, as the statement was
// before closures and as it is now, side by side on the same database, one statement per booking (no
// transaction around it, as the service sends a single booking), with synchronous_commit on and off; and one booking made through
// CreateBookings, which checks the closures in memory and sends the new statement. Each booking takes
// the next quarter hour of one room or desk, so none overlaps another.
func BenchmarkBookingInsert(b *testing.B) {
	bundle := bookingtest.Setup(b)
	ctx := b.Context()
	var version int64
	if err := bundle.Pool.QueryRow(ctx, `SELECT layout_version FROM organizations WHERE id = $1`, bookingtest.OrgA).Scan(&version); err != nil {
		b.Fatal(err)
	}
	next := bookingtest.At(0, 0, 0).AddDate(1, 0, 0) // far ahead of the domain's bookings
	slot := func() (time.Time, time.Time) {
		start := next
		next = next.Add(15 * time.Minute)
		return start, next
	}
	// One connection of its own, so that synchronous_commit can be turned off for it alone: with it off,
	// the figure is the statement's own cost rather than the wait for the disk.
	conn, err := pgx.ConnectConfig(ctx, bundle.Pool.Config().ConnConfig.Copy())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close(context.Background()) })
	for _, commit := range []string{"on", "off"} {
		if _, err := conn.Exec(ctx, "SET synchronous_commit = "+commit); err != nil {
			b.Fatal(err)
		}
		for _, tc := range []struct{ name, sql string }{{"before", insertBefore}, {"after", insertAfter}} {
			b.Run("sync="+commit+"/statement="+tc.name, func(b *testing.B) {
				for b.Loop() {
					start, end := slot()
					args := []any{bookingtest.OrgA, uuid.Must(uuid.NewV7()), bookingtest.RoomVelazquez, bookingtest.FloorMadrid,
						bookingtest.Alice, start, end, version}
					if tc.name == "after" {
						args = append(args, bookingtest.BuildingMadrid)
					}
					tag, err := conn.Exec(ctx, tc.sql, args...)
					if err != nil || tag.RowsAffected() != 1 {
						b.Fatalf("insert: %v, %d rows", err, tag.RowsAffected())
					}
				}
			})
		}
	}
	b.Run("domain", func(b *testing.B) {
		alice := bundle.User(b, bookingtest.OrgA, bookingtest.Alice)
		for b.Loop() {
			start, end := slot() // the desk's rule has no limits
			r := bookingtest.Request(bookingtest.DeskTwo, start, end)
			if _, err := bundle.Service.CreateBookings(ctx, booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategoryWorkstation, Bookings: []booking.NewBooking{r}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
