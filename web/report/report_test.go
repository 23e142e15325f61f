package report_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/report"
)

type testBundle struct {
	*fx.Bundle
	svc  *report.Service
	adam booking.User
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	b := fx.Setup(t)
	return &testBundle{Bundle: b, svc: report.New(b.Pool, report.WithClock(b.Clock.Now)), adam: b.User(t, fx.OrgA, fx.Adam)}
}

// person adds an employee of Acme and returns their id.
func (b *testBundle) person(t *testing.T, n int) uuid.UUID {
	t.Helper()
	id := uuid.MustParse(fmt.Sprintf("00000000-0000-4000-9000-%012d", n))
	b.exec(t, `INSERT INTO users (organization_id, id, name, email) VALUES ($1, $2, $3, $3 || '@acme.test')`,
		fx.OrgA, id, fmt.Sprintf("person%d", n))
	return id
}

// booked adds a booking of resource by who from start to end, checked in and finished.
func (b *testBundle) booked(t *testing.T, resource, who uuid.UUID, start, end time.Time) uuid.UUID {
	t.Helper()
	id := uuid.New()
	b.exec(t, `INSERT INTO bookings (organization_id, id, resource_id, creator_id, organizer_id, start_date, end_date,
		status, resource_type, check_in_opens_at, check_in_closes_at, checked_in_at, subject, floor_id)
		SELECT $1, $2, $3, $4, $4, $5, $6, 'FINISHED', 'SPACE', $5, $6, $5, 'Planning with Alice', r.floor_id
		FROM resources r WHERE r.organization_id = $1 AND r.id = $3`,
		fx.OrgA, id, resource, who, start, end)
	return id
}

func (b *testBundle) exec(t *testing.T, sql string, args ...any) {
	t.Helper()
	if _, err := b.Pool.Exec(t.Context(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func (b *testBundle) sweep(t *testing.T) report.SweepResult {
	t.Helper()
	res, err := b.svc.Sweep(t.Context())
	if err != nil {
		t.Fatalf("Sweep: %v", err)
	}
	return res
}

func day(d time.Time) time.Time { return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC) }

// fourOnTheHiddenFloor books 6 people for an hour each on the Madrid floor and 4 on the other floor of
// the building, three days before the fixture's today, and rolls the days up.
func fourOnTheHiddenFloor(t *testing.T, b *testBundle) {
	t.Helper()
	start := fx.At(-3, 10, 0)
	for i := range 6 {
		b.booked(t, fx.RoomGoya, b.person(t, i), start, start.Add(time.Hour))
	}
	for i := 6; i < 10; i++ {
		b.booked(t, fx.RoomOnHidden, b.person(t, i), start, start.Add(time.Hour))
	}
	b.sweep(t)
}

func TestReportHidesAFloorOfFourPeople(t *testing.T) {
	t.Parallel()
	b := setup(t)
	fourOnTheHiddenFloor(t, b)
	from := day(fx.At(-10, 0, 0))
	rep, err := b.svc.Build(t.Context(), b.adam, report.Request{BuildingID: fx.BuildingMadrid, From: from, To: day(fx.At(-1, 0, 0)), By: report.ByFloor})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if got, want := rep.Total.Booked, int64(10*time.Hour/time.Millisecond); got != want || rep.Total.Hidden {
		t.Errorf("Total.Booked = %d (hidden %v), want %d shown", got, rep.Total.Hidden, want)
	}
	if got, want := len(rep.Cells), 2; got != want {
		t.Fatalf("%d cells, want %d: %+v", got, want, rep.Cells)
	}
	var shown int64
	for _, c := range rep.Cells {
		// The floor of 4 is hidden, and so is its only sibling: the total minus the shown cells would
		// give the hidden floor's figures otherwise.
		if !c.Hidden || c.Booked != 0 || c.Bookable != 0 {
			t.Errorf("cell %s = %+v, want hidden without figures", c.Label, c)
		}
		shown += c.Booked
	}
	if rep.Total.Booked-shown == int64(4*time.Hour/time.Millisecond) {
		t.Errorf("the total minus the shown cells gives the hidden floor's 4 h")
	}
	if len(rep.MostUsed) != 0 || len(rep.LeastUsed) != 0 {
		t.Errorf("resource lists %+v %+v, want none: their floors are hidden", rep.MostUsed, rep.LeastUsed)
	}
}

func TestReportShowsAFloorOfFivePeople(t *testing.T) {
	t.Parallel()
	b := setup(t)
	fourOnTheHiddenFloor(t, b)
	start := fx.At(-3, 12, 0)
	b.booked(t, fx.RoomOnHidden, b.person(t, 10), start, start.Add(30*time.Minute))
	b.exec(t, `DELETE FROM utilisation_people`)
	b.sweep(t)
	rep, err := b.svc.Build(t.Context(), b.adam, report.Request{BuildingID: fx.BuildingMadrid, From: day(fx.At(-3, 0, 0)), To: day(fx.At(-3, 0, 0)), By: report.ByFloor})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	for _, c := range rep.Cells {
		if c.Hidden {
			t.Errorf("cell %s hidden, want shown", c.Label)
		}
	}
	if got, want := rep.Cells[0].Booked+rep.Cells[1].Booked, int64(10*time.Hour+30*time.Minute)/int64(time.Millisecond); got != want {
		t.Errorf("booked = %d, want %d", got, want)
	}
}

func TestReportRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	alice := b.User(t, fx.OrgA, fx.Alice)
	ok := report.Request{BuildingID: fx.BuildingMadrid, From: day(fx.At(-3, 0, 0)), To: day(fx.At(-1, 0, 0)), By: report.ByDay}
	_, err := b.svc.Build(t.Context(), alice, ok)
	fx.WantCode(t, err, booking.CodeForbidden)
	other := ok
	other.BuildingID = fx.BuildingB
	_, err = b.svc.Build(t.Context(), b.adam, other)
	fx.WantCode(t, err, booking.CodeBuildingNotFound)
	long := ok
	long.From = long.To.AddDate(0, 0, -report.MaxDays)
	_, err = b.svc.Build(t.Context(), b.adam, long)
	fx.WantCode(t, err, booking.CodeInvalidRequest)
	bad := ok
	bad.By = "person"
	_, err = b.svc.Build(t.Context(), b.adam, bad)
	fx.WantCode(t, err, booking.CodeInvalidRequest)
}
