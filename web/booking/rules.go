package booking

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/workspacebooking/booking/web/lang"
)

// Window returns the hours the rule allows bookings on t's day in loc.
func (r ResourceRule) Window(t time.Time, loc *time.Location) Interval {
	return Interval{Start: atOffset(t, loc, r.StartTime), End: atOffset(t, loc, r.EndTime)}
}

// MaxCrossingLength is the longest a booking may last if it crosses midnight into the next day's window.
// A booking that stays inside its start day's window is limited by that window alone.
const MaxCrossingLength = 24 * time.Hour

// CheckInterval checks a booking of iv made at now against the rule, reading calendar rules in loc.
// A booking must lie inside its start day's window, or cross midnight into the next day's window. It may
// cross midnight only if the start day's window runs until midnight and the next day's window starts
// then; it must then end inside the next day's window and last at most MaxCrossingLength.
// It returns nil or an *Error: 4002 it starts more than WalkUpGrace ago; 4005 it starts further ahead
// than MaximumAdvance; 4004 it lasts longer than MaximumDuration (or crosses midnight and lasts longer
// than MaxCrossingLength); 4003 it lies outside those windows.
func (r ResourceRule) CheckInterval(iv Interval, now time.Time, loc *time.Location) error {
	if iv.Start.Before(now.Add(-WalkUpGrace)) {
		return Refuse(CodeDateInThePast, "refusal.rules.startsInPast", map[string]any{
			"Start": iv.Start.In(loc).Format(time.RFC3339), "Grace": WalkUpGrace.String()})
	}
	if r.MaximumAdvance > 0 && iv.Start.After(now.Add(r.MaximumAdvance)) {
		return Refuse(CodeDateExceedsMaximumAdvance, "refusal.rules.tooFarAhead", map[string]any{
			"Max": humanOf(r.MaximumAdvance)})
	}
	if d := iv.End.Sub(iv.Start); r.MaximumDuration > 0 && d > r.MaximumDuration {
		return Refuse(CodeDurationExceedsMaximum, "refusal.rules.tooLong", map[string]any{
			"Length": humanOf(d), "Max": humanOf(r.MaximumDuration)})
	}
	w := r.Window(iv.Start, loc)
	refused := Refuse(CodeDateOutsideResourceHours, "refusal.rules.outsideHours", map[string]any{
		"Start": lang.Clock(w.Start), "End": clock(w.End, w.Start), "Zone": lang.ZoneOf(loc.String())})
	if iv.Start.Before(w.Start) || !iv.Start.Before(w.End) {
		return refused
	}
	if !iv.End.After(w.End) {
		return nil
	}
	// The booking ends after its start day's window. That is allowed only if the next day's window
	// starts exactly when this one ends, at midnight.
	next := r.Window(w.End, loc)
	if !next.Start.Equal(w.End) {
		return refused
	}
	if d := iv.End.Sub(iv.Start); d > MaxCrossingLength {
		return Refuse(CodeDurationExceedsMaximum, "refusal.rules.crossingTooLong", map[string]any{
			"Length": humanOf(d), "Max": humanOf(MaxCrossingLength)})
	}
	if iv.End.After(next.End) {
		return refused
	}
	return nil
}

// clock formats end as a time of day, writing the midnight after start as 24:00.
func clock(end, start time.Time) string {
	if y, m, d := end.Date(); end.Hour() == 0 && end.Minute() == 0 {
		if sy, sm, sd := start.Date(); y != sy || m != sm || d != sd {
			return "24:00"
		}
	}
	return end.Format("15:04")
}

// human formats a duration the way people say it: 4h, 30m, 1h30m, 30 days.
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

// humanOf is a duration as human writes it, as a phrase (lang.Phrase) for a refusal's data: whole days
// in the reader's words ("30 days", "30 días"), shorter ones as they are ("4h", "1h30m").
type humanOf time.Duration

func (h humanOf) In(ctx context.Context) string {
	d := time.Duration(h)
	if d >= 48*time.Hour && d%(24*time.Hour) == 0 {
		return lang.T(ctx, "refusal.rules.days", map[string]any{"Days": fmt.Sprint(int64(d / (24 * time.Hour)))})
	}
	return human(d)
}

// MinCheckInTime is the shortest time check-in stays open after a booking is made, moved or approved,
// so that someone who books a desk after its check-in deadline (a walk-up) still has time to check in.
const MinCheckInTime = 15 * time.Minute

// CheckInWindow returns when check-in opens and closes for a booking of iv made, moved or approved at
// madeAt. Check-in opens AdvanceCheckIn before the start. It closes ExpirationMargin after the start, or
// for an all-day booking AllDayBookingsCheckIn after local midnight of its day. A zero margin or all-day
// deadline means no deadline: check-in stays open until the end, and a booking never checked in expires
// only once it is over. The window never closes before the start, after the end, or less than
// MinCheckInTime after madeAt. Bookings loaded from a layout get the same window, computed in SQL (see
// BookingUpsert in queries/bookings.sql).
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

// AllDay returns the interval that an all-day booking on day's local date covers, if made at now: the
// day's whole window, or, once the window has begun, the rest of it from now (truncated to the minute).
// Codes: 4012 the rule allows no all-day bookings; 4002 the day's window is over.
func (r ResourceRule) AllDay(day, now time.Time, loc *time.Location) (Interval, error) {
	if !r.AllDayBookings {
		return Interval{}, Refuse(CodeAllDayNotAllowed, "refusal.rules.allDayNotAllowed")
	}
	w := r.Window(day, loc)
	if !w.End.After(now) {
		return Interval{}, Refuse(CodeDateInThePast, "refusal.rules.windowOver", map[string]any{"Day": w.Start.Format(time.DateOnly)})
	}
	if start := now.Truncate(time.Minute); start.After(w.Start) {
		w.Start = start
	}
	return w, nil
}
