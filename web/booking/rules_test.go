package booking_test

import (
	"errors"
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

func TestResourceRuleCheckInterval(t *testing.T) {
	t.Parallel()
	madrid, newYork := bookingtest.Madrid, bookingtest.NewYork
	// room is the fixture's room rule: 08:00–20:00, at most 4 h, at most 30 days ahead.
	room := booking.ResourceRule{
		StartTime: 8 * time.Hour, EndTime: 20 * time.Hour, MaximumDuration: 4 * time.Hour,
		MaximumAdvance: 30 * 24 * time.Hour,
	}
	wholeDay := booking.ResourceRule{StartTime: 0, EndTime: 24 * time.Hour}
	wholeDayHour := booking.ResourceRule{StartTime: 0, EndTime: 24 * time.Hour, MaximumDuration: time.Hour}
	wholeDay3h := booking.ResourceRule{StartTime: 0, EndTime: 24 * time.Hour, MaximumDuration: 3 * time.Hour}
	daytime := booking.ResourceRule{StartTime: 8 * time.Hour, EndTime: 20 * time.Hour}
	evening := booking.ResourceRule{StartTime: 6 * time.Hour, EndTime: 24 * time.Hour}
	nyAt := func(days, hh, mm int) time.Time { return time.Date(2026, 11, 23+days, hh, mm, 0, 0, newYork) }
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, madrid) // Monday 09:00 in Madrid
	at := func(days, hh, mm int) time.Time { return time.Date(2026, 11, 23+days, hh, mm, 0, 0, madrid) }
	utc := func(days, hh, mm int) time.Time { return time.Date(2026, 11, 23+days, hh, mm, 0, 0, time.UTC) }
	// 2027-03-28 is the spring daylight-saving day in Madrid: 02:00 CET becomes 03:00 CEST, so local
	// 08:00 is 06:00 UTC (on the day before it is 07:00 UTC).
	dstNow := time.Date(2027, 3, 27, 12, 0, 0, 0, madrid)
	dstUTC := func(hh, mm int) time.Time { return time.Date(2027, 3, 28, hh, mm, 0, 0, time.UTC) }
	// 2026-10-25 is the autumn one: 03:00 CEST becomes 02:00 CET, so local 08:00 is 07:00 UTC.
	fallNow := time.Date(2026, 10, 24, 12, 0, 0, 0, madrid)
	fallUTC := func(hh, mm int) time.Time { return time.Date(2026, 10, 25, hh, mm, 0, 0, time.UTC) }

	tests := []struct {
		name       string
		rule       booking.ResourceRule
		start, end time.Time
		now        time.Time
		loc        *time.Location
		want       booking.Code // 0: accepted
	}{
		{"StartsSixMinutesAgoIs4002", room, at(0, 8, 54), at(0, 9, 30), now, madrid, booking.CodeDateInThePast},
		{"StartsFourMinutesAgoIsFine", room, at(0, 8, 56), at(0, 9, 30), now, madrid, 0},
		{"StartsExactlyFiveMinutesAgoIsFine", room, at(0, 8, 55), at(0, 9, 30), now, madrid, 0},
		{"StartsYesterdayIs4002", room, at(-1, 10, 0), at(-1, 11, 0), now, madrid, booking.CodeDateInThePast},
		{"StartsNowIsFine", room, now, at(0, 10, 0), now, madrid, 0},
		{"BeyondMaximumAdvanceIs4005", room, now.Add(30*24*time.Hour + time.Minute), now.Add(30*24*time.Hour + time.Hour), now, madrid, booking.CodeDateExceedsMaximumAdvance},
		{"ExactlyMaximumAdvanceIsFine", room, now.Add(30 * 24 * time.Hour), now.Add(30*24*time.Hour + time.Hour), now, madrid, 0},
		{"NoMaximumAdvanceIsFineAYearAhead", wholeDay, at(365, 10, 0), at(365, 11, 0), now, madrid, 0},
		{"LongerThanMaximumDurationIs4004", room, at(1, 10, 0), at(1, 14, 1), now, madrid, booking.CodeDurationExceedsMaximum},
		{"ExactlyMaximumDurationIsFine", room, at(1, 10, 0), at(1, 14, 0), now, madrid, 0},
		{"NoMaximumDurationIsFineAllDay", wholeDay, at(1, 0, 0), at(1, 23, 59), now, madrid, 0},
		{"StartsBeforeWindowIs4003", room, at(1, 7, 30), at(1, 8, 30), now, madrid, booking.CodeDateOutsideResourceHours},
		{"StartsAtWindowStartIsFine", room, at(1, 8, 0), at(1, 9, 0), now, madrid, 0},
		{"EndsAfterWindowIs4003", room, at(1, 19, 0), at(1, 20, 30), now, madrid, booking.CodeDateOutsideResourceHours},
		{"EndsAtWindowEndIsFine", room, at(1, 19, 0), at(1, 20, 0), now, madrid, 0},
		{"StartsAfterWindowIs4003", room, at(1, 20, 0), at(1, 21, 0), now, madrid, booking.CodeDateOutsideResourceHours},
		{"WholeDayAcceptsMidnightToMidnight", wholeDay, at(1, 0, 0), at(2, 0, 0), now, madrid, 0},
		// Crossing midnight is allowed if the hours are open on both sides, within 24 hours and the maximum.
		{"WholeDayAcceptsCrossingMidnight", wholeDay, at(1, 23, 0), at(2, 1, 0), now, madrid, 0},
		{"WholeDayAcceptsAWalkUpAt2320UntilTwentyPastMidnight", wholeDay, at(0, 23, 20), at(1, 0, 21), at(0, 23, 20), madrid, 0},
		{"WholeDayAcceptsCrossingMidnightInNewYork", wholeDay, nyAt(0, 23, 20), nyAt(1, 0, 21), nyAt(0, 23, 20), newYork, 0},
		{"WholeDayAcceptsTwentyFourHoursAcrossMidnight", wholeDay, at(1, 12, 0), at(2, 12, 0), now, madrid, 0},
		{"WholeDayRefusesMoreThanTwentyFourHoursAcrossMidnight", wholeDay, at(1, 12, 0), at(2, 12, 1), now, madrid, booking.CodeDurationExceedsMaximum},
		{"WholeDayRefusesTwoMidnights", wholeDay, at(1, 23, 0), at(3, 0, 30), now, madrid, booking.CodeDurationExceedsMaximum},
		{"CrossingMidnightKeepsTheMaximumDuration", wholeDayHour, at(0, 23, 20), at(1, 0, 21), at(0, 23, 20), madrid, booking.CodeDurationExceedsMaximum},
		{"CrossingMidnightWithinTheMaximumDuration", wholeDayHour, at(0, 23, 30), at(1, 0, 30), at(0, 23, 20), madrid, 0},
		{"DaytimeRuleRefusesCrossingMidnight", daytime, at(1, 19, 0), at(2, 8, 30), now, madrid, booking.CodeDateOutsideResourceHours},
		{"EveningRuleRefusesCrossingIntoAMorningThatOpensLater", evening, at(1, 23, 0), at(2, 1, 0), now, madrid, booking.CodeDateOutsideResourceHours},
		{"EveningRuleRefusesEndingAfterMidnight", evening, at(1, 23, 0), at(2, 0, 0).Add(time.Millisecond), now, madrid, booking.CodeDateOutsideResourceHours},
		// Across the night clocks go back (25 October 2026, 03:00 CEST is 02:00 CET): 23:00–03:00 lasts 5 hours.
		{"CrossingMidnightIntoTheAutumnChange", wholeDay, time.Date(2026, 10, 24, 23, 0, 0, 0, madrid), time.Date(2026, 10, 25, 3, 0, 0, 0, madrid), fallNow, madrid, 0},
		{"CrossingMidnightIntoTheAutumnChangeInNewYork", wholeDay, time.Date(2026, 10, 31, 23, 0, 0, 0, newYork), time.Date(2026, 11, 1, 3, 0, 0, 0, newYork), time.Date(2026, 10, 31, 12, 0, 0, 0, newYork), newYork, 0},
		// Across the night they go forward (28 March 2027, 02:00 CET is 03:00 CEST): 23:30–03:30 lasts 3 hours.
		{"CrossingMidnightIntoTheSpringChange", wholeDay, time.Date(2027, 3, 27, 23, 30, 0, 0, madrid), time.Date(2027, 3, 28, 3, 30, 0, 0, madrid), dstNow, madrid, 0},
		{"CrossingMidnightIntoTheSpringChangeKeepsTheMaximum", wholeDay3h, time.Date(2027, 3, 27, 23, 30, 0, 0, madrid), time.Date(2027, 3, 28, 3, 31, 0, 0, madrid), dstNow, madrid, booking.CodeDurationExceedsMaximum},
		// 07:30–08:30 UTC is 08:30–09:30 in Madrid and 02:30–03:30 in New York.
		{"SameInstantInsideWindowInMadrid", room, utc(1, 7, 30), utc(1, 8, 30), now, madrid, 0},
		{"SameInstantOutsideWindowInNewYork", room, utc(1, 7, 30), utc(1, 8, 30), now, newYork, booking.CodeDateOutsideResourceHours},
		// 13:00–14:00 UTC is 08:00–09:00 in New York.
		{"NewYorkMorningIsFine", room, utc(1, 13, 0), utc(1, 14, 0), now, newYork, 0},
		{"DaylightSavingDayEightLocalIsWindowStart", room, dstUTC(6, 0), dstUTC(7, 0), dstNow, madrid, 0},
		{"DaylightSavingDayHalfPastSevenLocalIs4003", room, dstUTC(5, 30), dstUTC(6, 30), dstNow, madrid, booking.CodeDateOutsideResourceHours},
		{"DaylightSavingDayTwentyLocalIsWindowEnd", room, dstUTC(17, 0), dstUTC(18, 0), dstNow, madrid, 0},
		{"DaylightSavingDayAfterTwentyLocalIs4003", room, dstUTC(17, 0), dstUTC(18, 1), dstNow, madrid, booking.CodeDateOutsideResourceHours},
		{"AutumnDaylightSavingDayEightLocalIsWindowStart", room, fallUTC(7, 0), fallUTC(8, 0), fallNow, madrid, 0},
		{"AutumnDaylightSavingDaySevenLocalIs4003", room, fallUTC(6, 0), fallUTC(7, 0), fallNow, madrid, booking.CodeDateOutsideResourceHours},
		// The past is checked first: a booking both in the past and outside the window gets 4002.
		{"PastBeforeWindowIs4002", room, at(0, 6, 0), at(0, 7, 0), now, madrid, booking.CodeDateInThePast},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.rule.CheckInterval(booking.Interval{Start: tt.start, End: tt.end}, tt.now, tt.loc)
			if got := booking.ErrorCode(err); got != tt.want {
				t.Fatalf("ErrorCode = %v, want %v (err: %v)", got, tt.want, err)
			}
			var e *booking.Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("err = %T, want *booking.Error", err)
			}
		})
	}
}

func TestResourceRuleWindow(t *testing.T) {
	t.Parallel()
	madrid := bookingtest.Madrid
	room := booking.ResourceRule{StartTime: 8 * time.Hour, EndTime: 20 * time.Hour}
	wholeDay := booking.ResourceRule{StartTime: 0, EndTime: 24 * time.Hour}
	tests := []struct {
		name             string
		rule             booking.ResourceRule
		t                time.Time
		loc              *time.Location
		wantStart, wantE time.Time
	}{
		{"OrdinaryDay", room, time.Date(2026, 11, 23, 12, 0, 0, 0, madrid), madrid,
			time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC), time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)},
		{"SpringDaylightSavingDay", room, time.Date(2027, 3, 28, 12, 0, 0, 0, madrid), madrid,
			time.Date(2027, 3, 28, 6, 0, 0, 0, time.UTC), time.Date(2027, 3, 28, 18, 0, 0, 0, time.UTC)},
		{"WholeDayEndsAtNextMidnight", wholeDay, time.Date(2026, 11, 23, 23, 30, 0, 0, madrid), madrid,
			time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC), time.Date(2026, 11, 23, 23, 0, 0, 0, time.UTC)},
		{"WholeDaySpringDaylightSavingDayLasts23Hours", wholeDay, time.Date(2027, 3, 28, 12, 0, 0, 0, madrid), madrid,
			time.Date(2027, 3, 27, 23, 0, 0, 0, time.UTC), time.Date(2027, 3, 28, 22, 0, 0, 0, time.UTC)},
		// 01:00 UTC on the 24th is still the 23rd in New York (20:00).
		{"DayIsTheLocalDay", room, time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC), bookingtest.NewYork,
			time.Date(2026, 11, 23, 13, 0, 0, 0, time.UTC), time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := tt.rule.Window(tt.t, tt.loc)
			if got, want := w.Start, tt.wantStart; !got.Equal(want) {
				t.Errorf("Start = %v, want %v", got.UTC(), want)
			}
			if got, want := w.End, tt.wantE; !got.Equal(want) {
				t.Errorf("End = %v, want %v", got.UTC(), want)
			}
		})
	}
}

func TestIntervalOverlaps(t *testing.T) {
	t.Parallel()
	at := func(hh, mm int) time.Time { return time.Date(2026, 11, 24, hh, mm, 0, 0, bookingtest.Madrid) }
	iv := func(h1, m1, h2, m2 int) booking.Interval { return booking.Interval{Start: at(h1, m1), End: at(h2, m2)} }
	tests := []struct {
		name string
		a, b booking.Interval
		want bool
	}{
		{"AdjacentAfter", iv(10, 0, 11, 0), iv(11, 0, 12, 0), false},
		{"AdjacentBefore", iv(11, 0, 12, 0), iv(10, 0, 11, 0), false},
		{"Apart", iv(10, 0, 11, 0), iv(12, 0, 13, 0), false},
		{"PartlyOverlapping", iv(10, 0, 11, 0), iv(10, 30, 11, 30), true},
		{"PartlyOverlappingReversed", iv(10, 30, 11, 30), iv(10, 0, 11, 0), true},
		{"Inside", iv(10, 0, 12, 0), iv(10, 30, 11, 0), true},
		{"Containing", iv(10, 30, 11, 0), iv(10, 0, 12, 0), true},
		{"Same", iv(10, 0, 11, 0), iv(10, 0, 11, 0), true},
		{"OneMinuteShared", iv(10, 0, 11, 1), iv(11, 0, 12, 0), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.a.Overlaps(tt.b); got != tt.want {
				t.Fatalf("Overlaps = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestErrorCode(t *testing.T) {
	t.Parallel()
	t.Run("NilIsZero", func(t *testing.T) {
		t.Parallel()
		if got := booking.ErrorCode(nil); got != 0 {
			t.Fatalf("ErrorCode(nil) = %v, want 0", got)
		}
	})
	t.Run("PlainErrorIsInternal", func(t *testing.T) {
		t.Parallel()
		if got, want := booking.ErrorCode(errors.New("boom")), booking.CodeInternal; got != want {
			t.Fatalf("ErrorCode = %v, want %v", got, want)
		}
	})
	t.Run("WrappedErrorKeepsItsCode", func(t *testing.T) {
		t.Parallel()
		err := booking.AtIndex(booking.Errorf(booking.CodeResourceNotFound, "gone"), 3)
		if got, want := booking.ErrorCode(err), booking.CodeResourceNotFound; got != want {
			t.Fatalf("ErrorCode = %v, want %v", got, want)
		}
		wantIndex(t, err, 3)
	})
	t.Run("StringIsCodeAndName", func(t *testing.T) {
		t.Parallel()
		if got, want := booking.CodeResourceNotFound.String(), "1002 - RESOURCE_NOT_FOUND"; got != want {
			t.Fatalf("String = %q, want %q", got, want)
		}
	})
	t.Run("EveryCodeHasAName", func(t *testing.T) {
		t.Parallel()
		for _, c := range booking.Codes() {
			if c.Name() == "UNKNOWN" {
				t.Errorf("code %d has no name", int(c))
			}
		}
	})
}
