package booking_test

import (
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
)

func TestRuleSentence(t *testing.T) {
	t.Parallel()
	const h, m, day = time.Hour, time.Minute, 24 * time.Hour
	room := booking.ResourceRule{StartTime: 8 * h, EndTime: 20 * h, MaximumDuration: 4 * h, MaximumAdvance: 30 * day,
		AdvanceCheckIn: 15 * m, ExpirationMargin: 15 * m, RequiresApproval: true}
	with := func(f func(*booking.ResourceRule)) booking.ResourceRule {
		r := room
		f(&r)
		return r
	}
	madrid := []string{"Europe/Madrid"}
	tests := []struct {
		name  string
		rule  booking.ResourceRule
		zones []string
		want  string
	}{
		{"TheExample", room, madrid,
			"Bookable 08:00–20:00 Madrid time, at most 4 h, up to 30 days ahead; check in from 15 min before to 15 min after the start; needs approval."},
		{"NoBuildingIsLocalTime", room, nil,
			"Bookable 08:00–20:00 local time, at most 4 h, up to 30 days ahead; check in from 15 min before to 15 min after the start; needs approval."},
		{"SeveralBuildings", room, []string{"Europe/Madrid", "America/New_York", "Europe/Madrid"},
			"Bookable 08:00–20:00 local time (Madrid, New York), at most 4 h, up to 30 days ahead; check in from 15 min before to 15 min after the start; needs approval."},
		{"NoLimits", booking.ResourceRule{}, madrid,
			"Bookable around the clock, for any length, any time ahead; check in from the start until the end."},
		{"EndOfDayWrittenAs24", booking.ResourceRule{StartTime: 7*h + 30*m, EndTime: 24 * h}, madrid,
			"Bookable 07:30–24:00 Madrid time, for any length, any time ahead; check in from the start until the end."},
		{"EndZeroMeansMidnight", booking.ResourceRule{StartTime: 9 * h}, madrid,
			"Bookable 09:00–24:00 Madrid time, for any length, any time ahead; check in from the start until the end."},
		{"CheckInOnlyBefore", with(func(r *booking.ResourceRule) { r.ExpirationMargin, r.RequiresApproval = 0, false }), madrid,
			"Bookable 08:00–20:00 Madrid time, at most 4 h, up to 30 days ahead; check in from 15 min before the start until the end."},
		{"CheckInOnlyAfter", with(func(r *booking.ResourceRule) { r.AdvanceCheckIn, r.RequiresApproval = 0, false }), madrid,
			"Bookable 08:00–20:00 Madrid time, at most 4 h, up to 30 days ahead; check in from the start to 15 min after it."},
		{"MixedUnits", with(func(r *booking.ResourceRule) {
			r.MaximumDuration, r.MaximumAdvance, r.AdvanceCheckIn, r.RequiresApproval = 90*m, 36*h, 1*h, false
		}), madrid,
			"Bookable 08:00–20:00 Madrid time, at most 1 h 30 min, up to 36 h ahead; check in from 1 h before to 15 min after the start."},
		{"WholeDays", booking.ResourceRule{AllDayBookings: true, AllDayBookingsCheckIn: 11 * h, MaximumAdvance: 1 * day}, madrid,
			"Bookable around the clock, for any length, up to 1 day ahead; check in from the start until the end; whole-day bookings allowed, check in by 11:00."},
		{"WholeDaysNoDeadline", booking.ResourceRule{AllDayBookings: true, MaximumAdvance: 2*day + 3*h}, nil,
			"Bookable around the clock, for any length, up to 2 days 3 h ahead; check in from the start until the end; whole-day bookings allowed."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := booking.RuleSentence(tt.rule, tt.zones); got != tt.want {
				t.Errorf("RuleSentence =\n %q\nwant\n %q", got, tt.want)
			}
		})
	}
}

func TestDurationWords(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		0: "0 min", 30 * time.Second: "30 s", 15 * time.Minute: "15 min", 4 * time.Hour: "4 h",
		90 * time.Minute: "1 h 30 min", 24 * time.Hour: "1 day", 36 * time.Hour: "36 h",
		30 * 24 * time.Hour: "30 days", 49*time.Hour + 5*time.Minute: "2 days 1 h 5 min",
		time.Hour + 30*time.Second: "1 h",
	} {
		if got := booking.DurationWords(d); got != want {
			t.Errorf("DurationWords(%v) = %q, want %q", d, got, want)
		}
	}
}
