package views

import (
	"fmt"
	"strings"
	"time"

	"github.com/workspacebooking/booking/web/booking"
)

// ruleDuration writes a duration the way people say it: "4 h", "30 min", "1 h 30 min", "30 days".
func ruleDuration(d time.Duration) string {
	if d >= 48*time.Hour && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	h, m := d/time.Hour, d%time.Hour/time.Minute
	switch {
	case h > 0 && m > 0:
		return fmt.Sprintf("%d h %d min", h, m)
	case h > 0:
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d min", m)
}

// RuleWords says a resource rule in words: "Bookable 08:00–20:00 Madrid time, up to 4 h, up to 30 days
// ahead, needs approval".
func RuleWords(r booking.ResourceRule, zone string) string {
	parts := []string{"Bookable " + findHoursLabel(r.StartTime) + "–" + findHoursLabel(r.EndTime) + " " + zone}
	if r.StartTime == 0 && r.EndTime == 24*time.Hour {
		parts[0] = "Bookable at any time of day (" + zone + ")"
	}
	if r.MaximumDuration > 0 {
		parts = append(parts, "up to "+ruleDuration(r.MaximumDuration))
	}
	if r.MaximumAdvance > 0 {
		parts = append(parts, "up to "+ruleDuration(r.MaximumAdvance)+" ahead")
	}
	if r.AllDayBookings {
		parts = append(parts, "all-day bookings allowed")
	}
	if r.RequiresApproval {
		parts = append(parts, "needs approval")
	}
	return strings.Join(parts, ", ")
}

// CheckInWords says when check-in opens and closes: "Check in from 10 min before to 15 min after the start".
func CheckInWords(r booking.ResourceRule) string {
	opens := "at the start"
	if r.AdvanceCheckIn > 0 {
		opens = ruleDuration(r.AdvanceCheckIn) + " before the start"
	}
	closes := "until the end"
	if r.ExpirationMargin > 0 {
		closes = "to " + ruleDuration(r.ExpirationMargin) + " after the start, or the booking is released"
	}
	return "Check in from " + opens + " " + closes
}
