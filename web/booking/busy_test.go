package booking_test

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// Busy intervals are read on the understanding that no booking lasts more than 25 hours (a day when
// clocks go back): the database refuses one that would.
func TestNoBookingLastsMoreThan25Hours(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	insert := func(hours int) error {
		_, err := b.Pool.Exec(t.Context(), `
			INSERT INTO bookings (organization_id, id, resource_id, creator_id, organizer_id, start_date, end_date,
			                      status, resource_type, check_in_opens_at, check_in_closes_at)
			VALUES ($1, gen_random_uuid(), $2, $3, $3, $4, $4::timestamptz + make_interval(hours => $5), 'PENDING',
			        'WORKSTATION', $4, $4)`,
			bookingtest.OrgA, bookingtest.DeskOne, bookingtest.Alice, bookingtest.At(3, 0, 0), hours)
		return err
	}
	if err := insert(25); err != nil {
		t.Fatalf("a 25-hour booking: %v", err)
	}
	var pgErr *pgconn.PgError
	if err := insert(26); !errors.As(err, &pgErr) || pgErr.ConstraintName != "bookings_length_check" {
		t.Errorf("a 26-hour booking: %v, want bookings_length_check to refuse it", err)
	}
}
