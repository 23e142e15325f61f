package views

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// The rules of a resource in words, in ctx's language.

// ruleDuration writes a duration the way people say it: "4 h", "30 min", "1 h 30 min", "30 days".
func ruleDuration(ctx context.Context, d time.Duration) string {
	if d >= 48*time.Hour && d%(24*time.Hour) == 0 {
		return lang.N(ctx, "rules.days", int(d/(24*time.Hour)))
	}
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h > 0 && m > 0:
		return lang.T(ctx, "rules.hoursMinutes", map[string]any{"Hours": h, "Minutes": m})
	case h > 0:
		return lang.T(ctx, "rules.hours", map[string]any{"Count": h})
	}
	return lang.T(ctx, "rules.minutes", map[string]any{"Count": m})
}

// DurationWords writes a duration the way people read it on a page: "4 h", "1 h 30 min", "15 min", "30
// days", "1 day 6 h" ("30 días", "1 día 6 h"). Seconds appear only when there are no larger units to show
// them with. In English it is booking.DurationWords.
func DurationWords(ctx context.Context, d time.Duration) string {
	if d <= 0 {
		return lang.T(ctx, "rules.minutes", map[string]any{"Count": 0})
	}
	if d < time.Minute {
		return lang.T(ctx, "rules.seconds", map[string]any{"Count": int(d / time.Second)})
	}
	days, rest := int(d/(24*time.Hour)), d%(24*time.Hour)
	h, m := int(rest/time.Hour), int((rest%time.Hour)/time.Minute)
	if days == 1 && h > 0 && m == 0 {
		// "36 h" reads better than "1 day 12 h".
		return lang.T(ctx, "rules.hours", map[string]any{"Count": int(d / time.Hour)})
	}
	var parts []string
	if days > 0 {
		parts = append(parts, lang.N(ctx, "rules.days", days))
	}
	if h > 0 {
		parts = append(parts, lang.T(ctx, "rules.hours", map[string]any{"Count": h}))
	}
	if m > 0 {
		parts = append(parts, lang.T(ctx, "rules.minutes", map[string]any{"Count": m}))
	}
	return strings.Join(parts, " ")
}

// RuleWords says a resource rule in words: "Bookable 08:00–20:00 Madrid time, up to 4 h, up to 30 days
// ahead, needs approval". zone is the building's time zone in words ("Madrid time").
func RuleWords(ctx context.Context, r booking.ResourceRule, zone string) string {
	hours := map[string]any{"From": findHoursLabel(r.StartTime), "Until": findHoursLabel(r.EndTime), "Zone": zone}
	parts := []string{lang.T(ctx, "rules.bookableHours", hours)}
	if r.StartTime == 0 && r.EndTime == 24*time.Hour {
		parts[0] = lang.T(ctx, "rules.bookableAnyTime", hours)
	}
	if r.MaximumDuration > 0 {
		parts = append(parts, lang.T(ctx, "rules.upTo", map[string]any{"Duration": ruleDuration(ctx, r.MaximumDuration)}))
	}
	if r.MaximumAdvance > 0 {
		parts = append(parts, lang.T(ctx, "rules.upToAhead", map[string]any{"Duration": ruleDuration(ctx, r.MaximumAdvance)}))
	}
	if r.AllDayBookings {
		parts = append(parts, lang.T(ctx, "rules.allDayAllowed"))
	}
	if r.RequiresApproval {
		parts = append(parts, lang.T(ctx, "rules.needsApproval"))
	}
	return strings.Join(parts, ", ")
}

// CheckInWords says when check-in opens and closes: "Check in from 10 min before the start to 15 min
// after the start, or the booking is released".
func CheckInWords(ctx context.Context, r booking.ResourceRule) string {
	d := map[string]any{"Before": ruleDuration(ctx, r.AdvanceCheckIn), "After": ruleDuration(ctx, r.ExpirationMargin)}
	switch {
	case r.AdvanceCheckIn > 0 && r.ExpirationMargin > 0:
		return lang.T(ctx, "rules.checkInBeforeToAfter", d)
	case r.AdvanceCheckIn > 0:
		return lang.T(ctx, "rules.checkInBeforeToEnd", d)
	case r.ExpirationMargin > 0:
		return lang.T(ctx, "rules.checkInStartToAfter", d)
	}
	return lang.T(ctx, "rules.checkInStartToEnd")
}

// RuleSentence says in words what a resource rule allows, e.g. "Bookable 08:00–20:00 Madrid time, at
// most 4 h, up to 30 days ahead; check in from 15 min before to 15 min after the start; needs approval."
// zones are the IANA time zones of the buildings whose resources use the rule: the hours are read in
// them, and with none the sentence says "local time". In English it is booking.RuleSentence.
func RuleSentence(ctx context.Context, r booking.ResourceRule, zones []string) string {
	end := r.EndTime
	if end == 0 {
		end = 24 * time.Hour
	}
	var when string
	if r.StartTime == 0 && end >= 24*time.Hour {
		when = lang.T(ctx, "rules.sentenceAroundTheClock")
	} else {
		when = lang.T(ctx, "rules.sentenceHours", map[string]any{
			"From": clockOffset(r.StartTime), "Until": clockOffset(end), "Zone": ruleZoneWords(ctx, zones)})
	}
	limits := []string{when}
	if r.MaximumDuration > 0 {
		limits = append(limits, lang.T(ctx, "rules.sentenceAtMost", map[string]any{"Duration": DurationWords(ctx, r.MaximumDuration)}))
	} else {
		limits = append(limits, lang.T(ctx, "rules.sentenceAnyLength"))
	}
	if r.MaximumAdvance > 0 {
		limits = append(limits, lang.T(ctx, "rules.sentenceAhead", map[string]any{"Duration": DurationWords(ctx, r.MaximumAdvance)}))
	} else {
		limits = append(limits, lang.T(ctx, "rules.sentenceAnyTimeAhead"))
	}

	parts := []string{strings.Join(limits, ", "), ruleCheckIn(ctx, r)}
	if r.AllDayBookings {
		if r.AllDayBookingsCheckIn > 0 {
			parts = append(parts, lang.T(ctx, "rules.sentenceWholeDayBy", map[string]any{"Time": clockOffset(r.AllDayBookingsCheckIn)}))
		} else {
			parts = append(parts, lang.T(ctx, "rules.sentenceWholeDay"))
		}
	}
	if r.RequiresApproval {
		parts = append(parts, lang.T(ctx, "rules.needsApproval"))
	}
	return strings.Join(parts, "; ") + "."
}

// ruleCheckIn says, inside a rule's sentence, when check-in opens and closes around a booking's start.
func ruleCheckIn(ctx context.Context, r booking.ResourceRule) string {
	d := map[string]any{"Before": DurationWords(ctx, r.AdvanceCheckIn), "After": DurationWords(ctx, r.ExpirationMargin)}
	switch {
	case r.ExpirationMargin <= 0 && r.AdvanceCheckIn > 0:
		return lang.T(ctx, "rules.sentenceCheckInBeforeToEnd", d)
	case r.ExpirationMargin <= 0:
		return lang.T(ctx, "rules.sentenceCheckInStartToEnd")
	case r.AdvanceCheckIn > 0:
		return lang.T(ctx, "rules.sentenceCheckInBeforeToAfter", d)
	}
	return lang.T(ctx, "rules.sentenceCheckInStartToAfter", d)
}

// ruleZoneWords names the time zones the hours are read in: "Madrid time", "local time (Madrid, New
// York)", or "local time" when no building uses the rule.
func ruleZoneWords(ctx context.Context, zones []string) string {
	var cities []string
	for _, z := range zones {
		c := strings.ReplaceAll(z[strings.LastIndex(z, "/")+1:], "_", " ")
		if c != "" && !slices.Contains(cities, c) {
			cities = append(cities, c)
		}
	}
	switch len(cities) {
	case 0:
		return lang.T(ctx, "rules.zoneLocal")
	case 1:
		return lang.T(ctx, "rules.zoneCity", map[string]any{"City": cities[0]})
	}
	return lang.T(ctx, "rules.zoneCities", map[string]any{"Cities": strings.Join(cities, ", ")})
}

// clockOffset writes an offset from midnight as a clock time, "08:30"; the end of the day is "24:00".
func clockOffset(d time.Duration) string {
	m := int(d / time.Minute)
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}
