package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/report"
)

// utilisationBusyFortnight books the two weeks before the fixture's today: each day 5 to 8 people an
// hour each in Goya and in Velázquez on the Madrid floor, and 5 to 7 in the room on the hidden floor,
// a few of them without checking in; then rolls the days up.
func utilisationBusyFortnight(t *testing.T, pb *pageBundle) {
	t.Helper()
	for i := range 20 {
		who := uuid.MustParse(fmt.Sprintf("00000000-0000-4000-9000-%012d", i))
		if _, err := pb.Pool.Exec(t.Context(), `INSERT INTO users (organization_id, id, name, email) VALUES ($1, $2::uuid, 'person', $3)`,
			fx.OrgA, who, fmt.Sprintf("person%d@acme.test", i)); err != nil {
			t.Fatal(err)
		}
	}
	book := `INSERT INTO bookings (organization_id, id, resource_id, creator_id, organizer_id, start_date, end_date,
		status, resource_type, check_in_opens_at, check_in_closes_at, checked_in_at, subject, floor_id)
	 SELECT $1, gen_random_uuid(), $3, $2, $2, $4::timestamptz, $5::timestamptz, $6::text, 'SPACE', $4, $5, CASE WHEN $6::text = 'FINISHED' THEN $4::timestamptz END, 'Planning', r.floor_id
	 FROM resources r WHERE r.organization_id = $1 AND r.id = $3`
	for d := -14; d <= -1; d++ {
		for r, room := range []uuid.UUID{fx.RoomGoya, fx.RoomVelazquez, fx.RoomOnHidden} {
			n := 5 + (-d+r)%4
			for i := range n {
				who := uuid.MustParse(fmt.Sprintf("00000000-0000-4000-9000-%012d", (i*3+r+d+40)%20))
				start := fx.At(d, 8+i, 0)
				status := "FINISHED"
				if (i+d)%5 == 0 {
					status = "EXPIRED"
				}
				if _, err := pb.Pool.Exec(t.Context(), book, fx.OrgA, who, room, start, start.Add(time.Hour), status); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if _, err := report.New(pb.Pool, report.WithClock(pb.Clock.Now)).Sweep(t.Context()); err != nil {
		t.Fatalf("Sweep: %v", err)
	}
}

// TestBrowserAdminUtilisation checks the utilisation page with axe on a laptop and a phone, by floor and
// by day, and saves screenshots of each.
func TestBrowserAdminUtilisation(t *testing.T) {
	t.Parallel()
	chromiumPath(t)
	pb := setupPages(t)
	utilisationBusyFortnight(t, pb)
	for _, size := range []struct {
		name string
		w, h int
	}{{"laptop", 1280, 900}, {"phone", 390, 844}} {
		b := newTabSized(t, pb.srv.URL, size.w, size.h)
		kioskBrowserSignIn(b, fx.Adam, "/admin/utilisation")
		b.waitText(".util-report h2", "Madrid HQ")
		b.check("admin-utilisation-floor-" + size.name)
		b.open("/admin/utilisation?by=day&from=2026-11-09&to=2026-11-22&building=" + fx.BuildingMadrid.String())
		b.waitText(".util-report h2", "Madrid HQ")
		b.check("admin-utilisation-day-" + size.name)
	}
}
