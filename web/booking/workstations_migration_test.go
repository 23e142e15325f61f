package booking_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// When the one-desk rule is introduced, the migration settles each person's clashing workstation bookings
// one by one: checked-in ones first, then in the order they were made. Each is kept unless it clashes with
// one already kept. Only the bookings that must go are cancelled, and the migration reports how many.
func TestOneWorkstationMigrationCancelsOnlyWhatMustGo(t *testing.T) {
	t.Parallel()
	db := bookingtest.MigratedBefore(t, "one_workstation_per_person.sql")

	made := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	type row struct {
		name       string
		person     uuid.UUID
		desk       uuid.UUID
		start, end time.Time
		status     string
		want       string
	}
	rows := []row{
		// Alice: A 09–12 made first, B 11–14, C 13–16. Only B must go; once it is cancelled, C clashes with
		// nothing.
		{"A", bookingtest.Alice, bookingtest.DeskOne, bookingtest.At(1, 9, 0), bookingtest.At(1, 12, 0), "PENDING", "PENDING"},
		{"B", bookingtest.Alice, bookingtest.DeskTwo, bookingtest.At(1, 11, 0), bookingtest.At(1, 14, 0), "PENDING", "CANCELLED"},
		{"C", bookingtest.Alice, bookingtest.DeskOne, bookingtest.At(1, 13, 0), bookingtest.At(1, 16, 0), "PENDING", "PENDING"},
		// Bob: a PENDING desk booked first, and a later one he has checked in to. The one in use stays.
		{"Pending", bookingtest.Bob, bookingtest.DeskOne, bookingtest.At(0, 8, 0), bookingtest.At(0, 12, 0), "PENDING", "CANCELLED"},
		{"Active", bookingtest.Bob, bookingtest.DeskTwo, bookingtest.At(0, 8, 30), bookingtest.At(0, 11, 0), "ACTIVE", "ACTIVE"},
		// Rita: a room alongside a desk is not a second desk, and a finished desk booking blocks nothing.
		{"Desk", bookingtest.Rita, bookingtest.DeskOne, bookingtest.At(2, 9, 0), bookingtest.At(2, 12, 0), "PENDING", "PENDING"},
		{"Room", bookingtest.Rita, bookingtest.RoomGoya, bookingtest.At(2, 9, 0), bookingtest.At(2, 12, 0), "PENDING", "PENDING"},
		{"Finished", bookingtest.Rita, bookingtest.DeskTwo, bookingtest.At(2, 9, 0), bookingtest.At(2, 12, 0), "FINISHED", "FINISHED"},
	}
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = uuid.New()
		resourceType := "WORKSTATION"
		if r.desk == bookingtest.RoomGoya {
			resourceType = "SPACE"
		}
		if _, err := db.Conn.Exec(t.Context(), `
INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date, end_date,
    status, resource_type, check_in_opens_at, check_in_closes_at, created_at)
VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $6, $7, $10)`,
			bookingtest.OrgA, ids[i], r.desk, bookingtest.FloorMadrid, r.person, r.start, r.end, r.status, resourceType,
			made.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatalf("insert booking %s: %v", r.name, err)
		}
	}

	if err := db.Migrator.MigrateTo(t.Context(), db.Version+1); err != nil {
		t.Fatalf("migrate to %d: %v", db.Version+1, err)
	}
	for i, r := range rows {
		var status string
		if err := db.Conn.QueryRow(t.Context(), "SELECT status FROM bookings WHERE id = $1", ids[i]).Scan(&status); err != nil {
			t.Fatal(err)
		}
		if status != r.want {
			t.Errorf("booking %s is %s after the migration, want %s", r.name, status, r.want)
		}
	}
	notices := db.Notices()
	found := false
	for _, n := range notices {
		if strings.Contains(n, "2 workstation bookings") {
			found = true
		}
	}
	if !found {
		t.Errorf("notices = %q, want one saying 2 workstation bookings were cancelled", notices)
	}
}
