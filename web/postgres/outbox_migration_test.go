package postgres_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/tern/v2/migrate"

	"github.com/workspacebooking/booking/queries"
	schema "github.com/workspacebooking/booking/sql"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/outbox"
	"github.com/workspacebooking/booking/web/postgres"
)

// TestOutboxEventsSurviveTheirNewColumns upgrades a database whose outbox holds events as JSON text (as
// written before migration 27) and takes them out again: each event is what was recorded.
func TestOutboxEventsSurviveTheirNewColumns(t *testing.T) {
	t.Parallel()
	dbURL := bookingtest.NewEmptyDatabaseURL(t)
	conn, err := pgx.Connect(t.Context(), dbURL)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(t.Context())
	m, err := migrate.NewMigrator(t.Context(), conn, "schema_version")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.LoadMigrations(schema.Migrations); err != nil {
		t.Fatal(err)
	}
	if err := m.MigrateTo(t.Context(), 26); err != nil {
		t.Fatalf("migrate to 26: %v", err)
	}

	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	org, booking := uuid.New(), uuid.New()
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, madrid)
	state := outbox.State{Revision: 3, Status: "PENDING", Start: start, End: start.Add(2 * time.Hour), ResourceID: uuid.New()}
	created := outbox.New(outbox.Created, org, booking, time.Date(2026, 11, 29, 10, 0, 0, 123456000, time.UTC), state)
	changed := outbox.New(outbox.ServicesChanged, org, booking, created.At.Add(time.Minute), state)
	changed.DroppedServices = []uuid.UUID{uuid.New(), uuid.New()}
	cancelled := outbox.New(outbox.Cancelled, org, booking, created.At.Add(2*time.Minute), state)
	cancelled.Booking.Status, cancelled.Reason = "CANCELLED", outbox.ReasonClosure
	want := []outbox.Event{created, changed, cancelled}
	for _, ev := range want {
		j, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(t.Context(), `INSERT INTO outbox_events (id, organization_id, event) VALUES ($1, $2, $3)`,
			ev.ID, ev.OrganizationID, string(j)); err != nil {
			t.Fatalf("record %s as JSON: %v", ev.Kind, err)
		}
	}

	if _, err := postgres.Migrate(t.Context(), dbURL); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	rows, err := queries.New(conn).OutboxEventsClaim(t.Context(), 10)
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	got := make([]outbox.Event, len(rows))
	for i, r := range rows {
		got[i] = outbox.Claimed(r)
	}
	slices.SortFunc(got, func(a, b outbox.Event) int { return bytes.Compare(a.ID[:], b.ID[:]) })
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events after the upgrade (-recorded +taken out):\n%s", diff)
	}
}
