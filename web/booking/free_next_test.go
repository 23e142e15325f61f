package booking_test

import (
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// A resource that is busy during the searched hours is next free from the end of its busy time, for at
// least 15 minutes, until the next booking or the end of the window. One booking may take as much of that
// as the rule allows. Times of day are clock times, even on days the clocks change.
func TestSearchDayFreeNext(t *testing.T) {
	t.Parallel()
	madrid := bookingtest.Madrid
	const h = time.Hour
	room := booking.ResourceRule{StartTime: 8 * h, EndTime: 20 * h, MaximumDuration: 4 * h}
	wholeDay := booking.ResourceRule{StartTime: 0, EndTime: 24 * h}
	wholeDayFourHours := booking.ResourceRule{StartTime: 0, EndTime: 24 * h, MaximumDuration: 4 * h}
	nov24 := func(hh, mm int) time.Time { return time.Date(2026, 11, 24, hh, mm, 0, 0, madrid) }
	oct25 := func(hh, mm int) time.Time { return time.Date(2026, 10, 25, hh, mm, 0, 0, madrid) } // clocks go back at 03:00
	mar28 := func(hh, mm int) time.Time { return time.Date(2027, 3, 28, hh, mm, 0, 0, madrid) }  // clocks go forward at 02:00
	iv := func(start, end time.Time) booking.Interval { return booking.Interval{Start: start, End: end} }
	// day returns a search day for the hours [from, to), with busy intervals given as start, end pairs.
	day := func(rule booking.ResourceRule, from, to time.Time, busy ...time.Time) booking.SearchDay {
		d := booking.SearchDay{Hours: iv(from, to), Window: rule.Window(from, madrid), State: booking.SpotBusy}
		for i := 0; i+1 < len(busy); i += 2 {
			d.Busy = append(d.Busy, iv(busy[i], busy[i+1]))
		}
		return d
	}

	for _, tc := range []struct {
		name string
		rule booking.ResourceRule
		day  booking.SearchDay
		want booking.FreeTime
		ok   bool
	}{
		{"AfterTheBooking", room, day(room, nov24(10, 0), nov24(11, 0), nov24(10, 0), nov24(11, 0)),
			booking.FreeTime{Free: iv(nov24(11, 0), nov24(20, 0)), Book: iv(nov24(11, 0), nov24(15, 0)), From: 11 * h, To: 15 * h}, true},
		{"BackToBackBookings", room, day(room, nov24(10, 0), nov24(11, 0), nov24(10, 0), nov24(11, 0), nov24(11, 0), nov24(11, 10)),
			booking.FreeTime{Free: iv(nov24(11, 10), nov24(20, 0)), Book: iv(nov24(11, 10), nov24(15, 10)), From: 11*h + 10*time.Minute, To: 15*h + 10*time.Minute}, true},
		{"GapUnderFifteenMinutesSkipped", room, day(room, nov24(10, 0), nov24(11, 0), nov24(10, 0), nov24(11, 0), nov24(11, 10), nov24(12, 0)),
			booking.FreeTime{Free: iv(nov24(12, 0), nov24(20, 0)), Book: iv(nov24(12, 0), nov24(16, 0)), From: 12 * h, To: 16 * h}, true},
		{"GapOfFifteenMinutes", room, day(room, nov24(10, 0), nov24(11, 0), nov24(10, 0), nov24(11, 0), nov24(11, 15), nov24(12, 0)),
			booking.FreeTime{Free: iv(nov24(11, 0), nov24(11, 15)), Book: iv(nov24(11, 0), nov24(11, 15)), From: 11 * h, To: 11*h + 15*time.Minute}, true},
		{"BookingFromBeforeTheHours", room, day(room, nov24(10, 0), nov24(11, 0), nov24(9, 0), nov24(12, 30)),
			booking.FreeTime{Free: iv(nov24(12, 30), nov24(20, 0)), Book: iv(nov24(12, 30), nov24(16, 30)), From: 12*h + 30*time.Minute, To: 16*h + 30*time.Minute}, true},
		// Hours asked from before the room opens: the free time starts when it opens, never at 07:00.
		{"HoursBeforeTheWindowOpens", room, day(room, nov24(7, 0), nov24(10, 0), nov24(9, 0), nov24(10, 0)),
			booking.FreeTime{Free: iv(nov24(8, 0), nov24(9, 0)), Book: iv(nov24(8, 0), nov24(9, 0)), From: 8 * h, To: 9 * h}, true},
		{"NothingLeft", room, day(room, nov24(17, 0), nov24(18, 0), nov24(16, 0), nov24(20, 0)), booking.FreeTime{}, false},
		{"LessThanFifteenMinutesLeft", room, day(room, nov24(17, 0), nov24(18, 0), nov24(16, 0), nov24(19, 50)), booking.FreeTime{}, false},
		{"NoMaximumDuration", wholeDay, day(wholeDay, nov24(10, 0), nov24(11, 0), nov24(10, 0), nov24(11, 0)),
			booking.FreeTime{Free: iv(nov24(11, 0), nov24(24, 0)), Book: iv(nov24(11, 0), nov24(24, 0)), From: 11 * h, To: 24 * h}, true},

		{"ClocksGoBack", room, day(room, oct25(10, 0), oct25(11, 0), oct25(10, 0), oct25(11, 0)),
			booking.FreeTime{Free: iv(oct25(11, 0), oct25(20, 0)), Book: iv(oct25(11, 0), oct25(15, 0)), From: 11 * h, To: 15 * h}, true},
		{"ClocksGoForward", room, day(room, mar28(10, 0), mar28(11, 0), mar28(10, 0), mar28(11, 0)),
			booking.FreeTime{Free: iv(mar28(11, 0), mar28(20, 0)), Book: iv(mar28(11, 0), mar28(15, 0)), From: 11 * h, To: 15 * h}, true},
		{"ClocksGoBackUntilMidnight", wholeDay, day(wholeDay, oct25(0, 0), oct25(1, 0), oct25(0, 0), oct25(1, 0)),
			booking.FreeTime{Free: iv(oct25(1, 0), oct25(24, 0)), Book: iv(oct25(1, 0), oct25(24, 0)), From: 1 * h, To: 24 * h}, true},
		{"ClocksGoForwardUntilMidnight", wholeDay, day(wholeDay, mar28(0, 0), mar28(1, 0), mar28(0, 0), mar28(1, 0)),
			booking.FreeTime{Free: iv(mar28(1, 0), mar28(24, 0)), Book: iv(mar28(1, 0), mar28(24, 0)), From: 1 * h, To: 24 * h}, true},
		// Four hours from 01:00 on the day the clocks go back end at 04:00 (one hour repeats) ...
		{"ClocksGoBackMaximumDuration", wholeDayFourHours, day(wholeDayFourHours, oct25(0, 0), oct25(1, 0), oct25(0, 0), oct25(1, 0)),
			booking.FreeTime{Free: iv(oct25(1, 0), oct25(24, 0)), Book: iv(oct25(1, 0), oct25(4, 0)), From: 1 * h, To: 4 * h}, true},
		// ... and at 06:00 on the day they go forward (one hour is skipped).
		{"ClocksGoForwardMaximumDuration", wholeDayFourHours, day(wholeDayFourHours, mar28(0, 0), mar28(1, 0), mar28(0, 0), mar28(1, 0)),
			booking.FreeTime{Free: iv(mar28(1, 0), mar28(24, 0)), Book: iv(mar28(1, 0), mar28(6, 0)), From: 1 * h, To: 6 * h}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.day.FreeNext(tc.rule)
			if ok != tc.ok {
				t.Fatalf("FreeNext ok = %v, want %v (%+v)", ok, tc.ok, got)
			}
			same := func(a, b booking.Interval) bool { return a.Start.Equal(b.Start) && a.End.Equal(b.End) }
			if !same(got.Free, tc.want.Free) || !same(got.Book, tc.want.Book) || got.From != tc.want.From || got.To != tc.want.To {
				t.Errorf("FreeNext = %s, want %s", freeTimeString(got), freeTimeString(tc.want))
			}
			if ok {
				// From and To, read as clock times as a search reads them, give Book again.
				y, m, d := tc.day.Hours.Start.Date()
				start := time.Date(y, m, d, 0, 0, 0, int(got.From), madrid)
				end := time.Date(y, m, d, 0, 0, 0, int(got.To), madrid)
				if !start.Equal(got.Book.Start) || !end.Equal(got.Book.End) {
					t.Errorf("the hours %s–%s of the day are %s–%s, want the booking %s", got.From, got.To, start, end, freeTimeString(got))
				}
			}
		})
	}
}

func freeTimeString(f booking.FreeTime) string {
	return "free " + f.Free.Start.Format(time.RFC3339) + "–" + f.Free.End.Format(time.RFC3339) +
		", book " + f.Book.Start.Format(time.RFC3339) + "–" + f.Book.End.Format(time.RFC3339) +
		", hours " + f.From.String() + "–" + f.To.String()
}
