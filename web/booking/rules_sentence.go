package booking

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// RuleSentence says in words what a resource rule allows, e.g. "Bookable 08:00–20:00 Madrid time, at most
// 4 h, up to 30 days ahead; check in from 15 min before to 15 min after the start; needs approval."
// zones are the IANA time zones of the buildings whose resources use the rule: the hours are read in
// them, and with none the sentence says "local time".
func RuleSentence(r ResourceRule, zones []string) string {
	end := r.EndTime
	if end == 0 {
		end = 24 * time.Hour
	}
	var when string
	if r.StartTime == 0 && end >= 24*time.Hour {
		when = "Bookable around the clock"
	} else {
		when = fmt.Sprintf("Bookable %s–%s %s", clockOffset(r.StartTime), clockOffset(end), zoneWords(zones))
	}
	limits := []string{when}
	if r.MaximumDuration > 0 {
		limits = append(limits, "at most "+DurationWords(r.MaximumDuration))
	} else {
		limits = append(limits, "for any length")
	}
	if r.MaximumAdvance > 0 {
		limits = append(limits, "up to "+DurationWords(r.MaximumAdvance)+" ahead")
	} else {
		limits = append(limits, "any time ahead")
	}

	parts := []string{strings.Join(limits, ", "), checkInWords(r)}
	if r.AllDayBookings {
		s := "whole-day bookings allowed"
		if r.AllDayBookingsCheckIn > 0 {
			s += fmt.Sprintf(", check in by %s", clockOffset(r.AllDayBookingsCheckIn))
		}
		parts = append(parts, s)
	}
	if r.RequiresApproval {
		parts = append(parts, "needs approval")
	}
	return strings.Join(parts, "; ") + "."
}

// checkInWords says when check-in opens and closes around a booking's start.
func checkInWords(r ResourceRule) string {
	from := "from the start"
	if r.AdvanceCheckIn > 0 {
		from = "from " + DurationWords(r.AdvanceCheckIn) + " before"
	}
	switch {
	case r.ExpirationMargin <= 0 && r.AdvanceCheckIn > 0:
		return "check in " + from + " the start until the end"
	case r.ExpirationMargin <= 0:
		return "check in " + from + " until the end"
	case r.AdvanceCheckIn > 0:
		return "check in " + from + " to " + DurationWords(r.ExpirationMargin) + " after the start"
	}
	return "check in " + from + " to " + DurationWords(r.ExpirationMargin) + " after it"
}

// zoneWords names the time zones the hours are read in: "Madrid time", "local time (Madrid, New York)",
// or "local time" when no building uses the rule.
func zoneWords(zones []string) string {
	var cities []string
	for _, z := range zones {
		c := strings.ReplaceAll(z[strings.LastIndex(z, "/")+1:], "_", " ")
		if c != "" && !slices.Contains(cities, c) {
			cities = append(cities, c)
		}
	}
	switch len(cities) {
	case 0:
		return "local time"
	case 1:
		return cities[0] + " time"
	}
	return "local time (" + strings.Join(cities, ", ") + ")"
}

// clockOffset writes an offset from midnight as a clock time, "08:30"; the end of the day is "24:00".
func clockOffset(d time.Duration) string {
	m := int(d / time.Minute)
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}

// DurationWords writes a duration the way people read it on a page: "4 h", "1 h 30 min", "15 min", "30 days",
// "1 day 6 h". Seconds appear only when there are no larger units to show them with.
func DurationWords(d time.Duration) string {
	if d <= 0 {
		return "0 min"
	}
	if d < time.Minute {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	days, rest := d/(24*time.Hour), d%(24*time.Hour)
	h, m := rest/time.Hour, (rest%time.Hour)/time.Minute
	var parts []string
	switch {
	case days == 1:
		parts = append(parts, "1 day")
	case days > 1:
		parts = append(parts, fmt.Sprintf("%d days", days))
	}
	if days > 0 && days < 2 && h > 0 && m == 0 {
		// "36 h" reads better than "1 day 12 h".
		return fmt.Sprintf("%d h", d/time.Hour)
	}
	if h > 0 {
		parts = append(parts, fmt.Sprintf("%d h", h))
	}
	if m > 0 {
		parts = append(parts, fmt.Sprintf("%d min", m))
	}
	return strings.Join(parts, " ")
}
