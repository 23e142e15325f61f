package booking

import (
	"fmt"
	"strings"
	"time"
)

// Window returns the bookable window of the rule on the local day of t.
func (r ResourceRule) Window(t time.Time, loc *time.Location) Interval {
	return Interval{Start: atOffset(t, loc, r.StartTime), End: atOffset(t, loc, r.EndTime)}
}

// MaxCrossingLength is the longest a booking that crosses midnight into the next day's window may last.
// A booking inside the window of its start day is bounded by that window alone.
const MaxCrossingLength = 24 * time.Hour

// CheckInterval applies the rule to a booking of iv made at now, with calendar rules read in loc.
// A booking lies inside the window of its start day, or crosses midnight where the rule's hours are open
// on both sides of it (the window of its start day runs to midnight and the next day's starts then) and
// ends inside the next day's window, lasting at most MaxCrossingLength.
// It returns nil or an *Error: 4002 starts more than WalkUpGrace ago, 4005 starts beyond maximumAdvance,
// 4004 lasts longer than maximumDuration (or crosses midnight for longer than MaxCrossingLength), 4003
// lies outside those windows.
func (r ResourceRule) CheckInterval(iv Interval, now time.Time, loc *time.Location) error {
	if iv.Start.Before(now.Add(-WalkUpGrace)) {
		return Errorf(CodeDateInThePast, "the booking starts at %s, more than %s ago",
			iv.Start.In(loc).Format(time.RFC3339), WalkUpGrace)
	}
	if r.MaximumAdvance > 0 && iv.Start.After(now.Add(r.MaximumAdvance)) {
		return Errorf(CodeDateExceedsMaximumAdvance, "bookings of this resource may start at most %s ahead",
			human(r.MaximumAdvance))
	}
	if d := iv.End.Sub(iv.Start); r.MaximumDuration > 0 && d > r.MaximumDuration {
		return Errorf(CodeDurationExceedsMaximum, "the booking lasts %s, longer than the maximum of %s",
			human(d), human(r.MaximumDuration))
	}
	w := r.Window(iv.Start, loc)
	refused := Errorf(CodeDateOutsideResourceHours, "the resource can be booked from %s to %s (%s) on that day",
		w.Start.Format("15:04"), clock(w.End, w.Start), loc)
	if iv.Start.Before(w.Start) || !iv.Start.Before(w.End) {
		return refused
	}
	if !iv.End.After(w.End) {
		return nil
	}
	// Past the end of its start day's window: allowed only across a midnight open on both sides.
	next := r.Window(w.End, loc)
	if !next.Start.Equal(w.End) {
		return refused
	}
	if d := iv.End.Sub(iv.Start); d > MaxCrossingLength {
		return Errorf(CodeDurationExceedsMaximum, "the booking lasts %s; one that crosses midnight lasts at most %s",
			human(d), human(MaxCrossingLength))
	}
	if iv.End.After(next.End) {
		return refused
	}
	return nil
}

// clock formats the end of a window, writing the next midnight as 24:00.
func clock(end, start time.Time) string {
	if y, m, d := end.Date(); end.Hour() == 0 && end.Minute() == 0 {
		if sy, sm, sd := start.Date(); y != sy || m != sm || d != sd {
			return "24:00"
		}
	}
	return end.Format("15:04")
}

// human writes a duration the way people say it: 4h, 30m, 1h30m, 30 days.
func human(d time.Duration) string {
	if d >= 48*time.Hour && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// MinCheckInTime is how long check-in stays open, at least, after a booking is made, moved or approved:
// someone who books a desk after its check-in deadline (a walk-up) still has time to check in.
const MinCheckInTime = 15 * time.Minute

// CheckInWindow returns when check-in opens and closes for a booking of iv (all-day or not) made, moved or
// approved at madeAt. It opens AdvanceCheckIn before the start. It closes ExpirationMargin after the start;
// an all-day booking's closes AllDayBookingsCheckIn after local midnight of its day. A zero margin (or a
// zero all-day deadline) means no deadline: check-in stays open until the end (a booking never checked in
// is EXPIRED only once it is over). The window never closes before the start or after the end, nor less
// than MinCheckInTime after madeAt. Bookings loaded from a layout get the same window, computed in SQL
// (queries/bookings.sql, BookingUpsert).
func (r ResourceRule) CheckInWindow(iv Interval, allDay bool, madeAt time.Time, loc *time.Location) Interval {
	closes := iv.End
	switch {
	case allDay && r.AllDayBookingsCheckIn > 0:
		closes = atOffset(iv.Start, loc, r.AllDayBookingsCheckIn)
	case !allDay && r.ExpirationMargin > 0:
		closes = iv.Start.Add(r.ExpirationMargin)
	}
	closes = earliest(latest(closes, iv.Start, madeAt.Add(MinCheckInTime)), iv.End)
	return Interval{Start: iv.Start.Add(-r.AdvanceCheckIn), End: closes}
}

// AllDay returns the interval an all-day booking of day's local day covers at now: the day's whole window,
// or what is left of it once it has begun (from now, to the minute).
// Codes: 4012 the rule allows no all-day bookings; 4002 the day's window is over.
func (r ResourceRule) AllDay(day, now time.Time, loc *time.Location) (Interval, error) {
	if !r.AllDayBookings {
		return Interval{}, Errorf(CodeAllDayNotAllowed, "this resource cannot be booked for the whole day")
	}
	w := r.Window(day, loc)
	if !w.End.After(now) {
		return Interval{}, Errorf(CodeDateInThePast, "the bookable window of %s is over", w.Start.Format(time.DateOnly))
	}
	if start := now.Truncate(time.Minute); start.After(w.Start) {
		w.Start = start
	}
	return w, nil
}
