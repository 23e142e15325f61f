package booking_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

func day(y int, m time.Month, d int) booking.Date { return booking.Date{Year: y, Month: m, Day: d} }

// utc is an instant written in UTC, to show the offset each occurrence got.
func utc(m time.Month, d, hh, mm int) time.Time { return time.Date(2026, m, d, hh, mm, 0, 0, time.UTC) }

// TestSeriesExpandAcrossDST checks that an occurrence keeps its local times on both sides of each change
// of offset in 2026, in Madrid (29 Mar forward, 25 Oct back) and New York (8 Mar forward, 1 Nov back):
// the UTC instants move by an hour, the local times do not.
func TestSeriesExpandAcrossDST(t *testing.T) {
	t.Parallel()
	weekdays := booking.EveryWeekday
	sundays := []time.Weekday{time.Sunday}
	tests := []struct {
		name       string
		loc        *time.Location
		days       []time.Weekday
		first      booking.Date
		until      booking.Date
		start, end int
		want       [][2]time.Time // each occurrence's start and end, in UTC
	}{
		{"MadridForward", bookingtest.Madrid, weekdays, day(2026, 3, 27), day(2026, 3, 30), 9 * 60, 18 * 60,
			[][2]time.Time{{utc(3, 27, 8, 0), utc(3, 27, 17, 0)}, {utc(3, 30, 7, 0), utc(3, 30, 16, 0)}}},
		{"MadridBack", bookingtest.Madrid, weekdays, day(2026, 10, 23), day(2026, 10, 26), 9 * 60, 18 * 60,
			[][2]time.Time{{utc(10, 23, 7, 0), utc(10, 23, 16, 0)}, {utc(10, 26, 8, 0), utc(10, 26, 17, 0)}}},
		{"NewYorkForward", bookingtest.NewYork, weekdays, day(2026, 3, 6), day(2026, 3, 9), 9 * 60, 18 * 60,
			[][2]time.Time{{utc(3, 6, 14, 0), utc(3, 6, 23, 0)}, {utc(3, 9, 13, 0), utc(3, 9, 22, 0)}}},
		{"NewYorkBack", bookingtest.NewYork, weekdays, day(2026, 10, 30), day(2026, 11, 2), 9 * 60, 18 * 60,
			[][2]time.Time{{utc(10, 30, 13, 0), utc(10, 30, 22, 0)}, {utc(11, 2, 14, 0), utc(11, 2, 23, 0)}}},
		// On the day of the change itself: 09:00–18:00 has the new offset all day.
		{"MadridOnTheSunday", bookingtest.Madrid, sundays, day(2026, 3, 29), day(2026, 3, 29), 9 * 60, 18 * 60,
			[][2]time.Time{{utc(3, 29, 7, 0), utc(3, 29, 16, 0)}}},
		// 02:30 does not exist on 29 Mar in Madrid: it becomes 03:30 CEST (01:30 UTC). The end, 24:00, is
		// the next midnight.
		{"MadridGap", bookingtest.Madrid, sundays, day(2026, 3, 29), day(2026, 3, 29), 2*60 + 30, 24 * 60,
			[][2]time.Time{{utc(3, 29, 1, 30), utc(3, 29, 22, 0)}}},
		// 02:30 happens twice on 25 Oct in Madrid: the first, 02:30 CEST (00:30 UTC), is taken.
		{"MadridTwice", bookingtest.Madrid, sundays, day(2026, 10, 25), day(2026, 10, 25), 2*60 + 30, 4 * 60,
			[][2]time.Time{{utc(10, 25, 0, 30), utc(10, 25, 3, 0)}}},
		// 02:30 does not exist on 8 Mar in New York: 03:30 EDT (07:30 UTC).
		{"NewYorkGap", bookingtest.NewYork, sundays, day(2026, 3, 8), day(2026, 3, 8), 2*60 + 30, 4 * 60,
			[][2]time.Time{{utc(3, 8, 7, 30), utc(3, 8, 8, 0)}}},
		// 01:30 happens twice on 1 Nov in New York: the first, 01:30 EDT (05:30 UTC).
		{"NewYorkTwice", bookingtest.NewYork, sundays, day(2026, 11, 1), day(2026, 11, 1), 1*60 + 30, 3 * 60,
			[][2]time.Time{{utc(11, 1, 5, 30), utc(11, 1, 8, 0)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := booking.SeriesRule{Weekdays: tt.days, EveryWeeks: 1, First: tt.first, Until: tt.until, Start: tt.start, End: tt.end}
			occ, err := r.Expand(tt.loc)
			if err != nil {
				t.Fatalf("Expand: %v", err)
			}
			var got [][2]time.Time
			for _, o := range occ {
				got = append(got, [2]time.Time{o.Interval.Start.UTC(), o.Interval.End.UTC()})
				if o.Interval.Start.Location() != tt.loc {
					t.Errorf("occurrence of %s is in %v, want %v", o.Date, o.Interval.Start.Location(), tt.loc)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("occurrences (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSeriesExpandDays checks which days a rule names.
func TestSeriesExpandDays(t *testing.T) {
	t.Parallel()
	mon, wed, fri := time.Monday, time.Wednesday, time.Friday
	tests := []struct {
		name  string
		days  []time.Weekday
		every int
		first booking.Date
		until booking.Date
		want  []string
	}{
		{"EveryWeekday", booking.EveryWeekday, 1, day(2026, 12, 4), day(2026, 12, 9),
			[]string{"2026-12-04", "2026-12-07", "2026-12-08", "2026-12-09"}},
		// Weeks are counted from the Monday of the first date's week, so Wed 2 Dec starts week 0 and the
		// Monday of that week (30 Nov, before the first date) is not booked.
		{"EveryTwoWeeks", []time.Weekday{mon, wed}, 2, day(2026, 12, 2), day(2026, 12, 31),
			[]string{"2026-12-02", "2026-12-14", "2026-12-16", "2026-12-28", "2026-12-30"}},
		{"EveryFourWeeks", []time.Weekday{fri}, 4, day(2026, 12, 1), day(2027, 2, 1),
			[]string{"2026-12-04", "2027-01-01", "2027-01-29"}},
		{"UntilIncluded", []time.Weekday{fri}, 1, day(2026, 12, 4), day(2026, 12, 11),
			[]string{"2026-12-04", "2026-12-11"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := booking.SeriesRule{Weekdays: tt.days, EveryWeeks: tt.every, First: tt.first, Until: tt.until, Start: 9 * 60, End: 18 * 60}
			occ, err := r.Expand(bookingtest.Madrid)
			if err != nil {
				t.Fatalf("Expand: %v", err)
			}
			var got []string
			for _, o := range occ {
				got = append(got, o.Date.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("days (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSeriesRuleBounds checks that a rule out of bounds is refused with 2000 and words that say why.
func TestSeriesRuleBounds(t *testing.T) {
	t.Parallel()
	ok := booking.SeriesRule{Weekdays: booking.EveryWeekday, EveryWeeks: 1, First: day(2026, 12, 1), Until: day(2027, 6, 1), Start: 9 * 60, End: 18 * 60}
	if _, err := ok.Expand(bookingtest.Madrid); err != nil {
		t.Fatalf("six months of weekdays: %v", err)
	}
	tests := []struct {
		name string
		fn   func(*booking.SeriesRule)
		want string
	}{
		{"NoWeekday", func(r *booking.SeriesRule) { r.Weekdays = nil }, "weekdays: choose at least one day of the week"},
		{"WeekdayTwice", func(r *booking.SeriesRule) { r.Weekdays = []time.Weekday{time.Monday, time.Monday} }, "weekdays: name each day of the week once"},
		{"EveryZeroWeeks", func(r *booking.SeriesRule) { r.EveryWeeks = 0 }, "everyWeeks: repeat every 1 to 4 weeks"},
		{"EveryFiveWeeks", func(r *booking.SeriesRule) { r.EveryWeeks = 5 }, "everyWeeks: repeat every 1 to 4 weeks"},
		{"NoUntil", func(r *booking.SeriesRule) { r.Until = booking.Date{} }, "give the first and the last day of the series"},
		{"UntilBeforeFirst", func(r *booking.SeriesRule) { r.Until = day(2026, 11, 30) }, "untilDate: the last day comes before the first"},
		{"SixMonthsAndADay", func(r *booking.SeriesRule) { r.Until = day(2027, 6, 2) }, "untilDate: a series lasts at most 6 months; choose an earlier last day"},
		{"EndBeforeStart", func(r *booking.SeriesRule) { r.End = r.Start }, "endTime: the end must come after the start, at 24:00 at the latest"},
		{"StartOutsideDay", func(r *booking.SeriesRule) { r.Start = 24 * 60 }, "startTime: the start must be a time of day from 00:00 to 23:59"},
		{"TooManyDays", func(r *booking.SeriesRule) {
			r.Weekdays = []time.Weekday{0, 1, 2, 3, 4, 5, 6}
		}, "the series names 183 days; at most 140 are booked at once: choose fewer weekdays or an earlier last day"},
		{"NoDayInRange", func(r *booking.SeriesRule) {
			r.Weekdays, r.Until = []time.Weekday{time.Saturday}, day(2026, 12, 4)
		}, "no day of the week you chose falls between the first and the last day"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ok
			tt.fn(&r)
			_, err := r.Expand(bookingtest.Madrid)
			bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
			if got := err.(*booking.Error).Message; got != tt.want {
				t.Errorf("message = %q, want %q", got, tt.want)
			}
		})
	}
}
