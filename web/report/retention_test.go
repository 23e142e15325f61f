package report_test

import (
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/report"
)

func TestSettingsRefuseALowerThreshold(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, err := b.svc.SaveSettings(t.Context(), b.adam, report.Settings{Threshold: 4, Retention: 13})
	fx.WantCode(t, err, booking.CodeInvalidRequest)
	_, err = b.svc.SaveSettings(t.Context(), b.adam, report.Settings{Threshold: 5, Retention: 0})
	fx.WantCode(t, err, booking.CodeInvalidRequest)
	_, err = b.svc.SaveSettings(t.Context(), b.User(t, fx.OrgA, fx.Alice), report.Settings{Threshold: 8, Retention: 13})
	fx.WantCode(t, err, booking.CodeForbidden)
	got, err := b.svc.SaveSettings(t.Context(), b.adam, report.Settings{Threshold: 8, Retention: 2})
	if err != nil || got != (report.Settings{Threshold: 8, Retention: 2}) {
		t.Fatalf("SaveSettings = %+v, %v; want 8 and 2", got, err)
	}
	if _, err := b.Pool.Exec(t.Context(), `UPDATE organizations SET report_threshold = 4 WHERE id = $1`, fx.OrgA); err == nil {
		t.Errorf("the database took a threshold of 4")
	}
}

func TestSweepAnonymisesPastTheRetentionAndKeepsTheFigures(t *testing.T) {
	t.Parallel()
	b := setup(t)
	if _, err := b.svc.SaveSettings(t.Context(), b.adam, report.Settings{Threshold: 5, Retention: 2}); err != nil {
		t.Fatalf("SaveSettings: %v", err)
	}
	old, recent := fx.At(-100, 10, 0), fx.At(-3, 10, 0)
	var first, kept = b.booked(t, fx.RoomGoya, b.person(t, 0), old, old.Add(time.Hour)), b.booked(t, fx.RoomGoya, fx.Alice, recent, recent.Add(time.Hour))
	for i := 1; i < 5; i++ {
		b.booked(t, fx.RoomGoya, b.person(t, i), old, old.Add(time.Hour))
	}
	b.exec(t, `INSERT INTO booking_attendees (organization_id, booking_id, position, type, user_id) VALUES ($1, $2, 0, 'REQUIRED', $3)`, fx.OrgA, first, fx.Bob)
	b.exec(t, `INSERT INTO booking_reservables (organization_id, booking_id, reservable_id, delivery_time_ms, quantity, comment)
		SELECT $1, $2, id, 0, 2, 'For Bob, no gluten' FROM reservables WHERE organization_id = $1 LIMIT 1`, fx.OrgA, first)
	b.sweep(t)
	if got := fx.RowCount(t, b.Bundle, `SELECT count(*) FROM bookings WHERE anonymised_at IS NOT NULL AND subject = '' AND organizer_id <> $1`, fx.Alice); got != 5 {
		t.Errorf("%d bookings anonymised, want the 5 past the retention", got)
	}
	if got := fx.RowCount(t, b.Bundle, `SELECT count(*) FROM booking_attendees WHERE booking_id = $1`, first); got != 0 {
		t.Errorf("%d attendees left on an anonymised booking, want 0", got)
	}
	if got := fx.RowCount(t, b.Bundle, `SELECT count(*) FROM booking_reservables WHERE booking_id = $1 AND comment = '' AND quantity = 2`, first); got != 1 {
		t.Errorf("%d orders of the anonymised booking kept without their comment, want 1", got)
	}
	if got := fx.RowCount(t, b.Bundle, `SELECT count(*) FROM bookings WHERE id = $1 AND organizer_id = $2 AND subject <> ''`, kept, fx.Alice); got != 1 {
		t.Errorf("the recent booking was changed")
	}
	d := day(old)
	rep, err := b.svc.Build(t.Context(), b.adam, report.Request{BuildingID: fx.BuildingMadrid, From: d, To: d, By: report.ByDay})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if got, want := rep.Total.Booked, int64(5*time.Hour/time.Millisecond); rep.Total.Hidden || got != want {
		t.Errorf("Total = %+v, want %d booked and shown after anonymising", rep.Total, want)
	}
}
