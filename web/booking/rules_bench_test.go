package booking

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/uuid"
)

// Benchmarks of the pure code that every booking and every search runs, without a database.

var benchMadrid = mustZone("Europe/Madrid")

func mustZone(name string) *time.Location {
	l, err := Location(name)
	if err != nil {
		panic(err)
	}
	return l
}

// benchNow is a Monday morning in Madrid.
var benchNow = time.Date(2026, 11, 23, 9, 0, 0, 0, benchMadrid)

// roomRule is a meeting room's rule: 08:00–20:00, at most 4 h, 30 days ahead, check-in from 10 minutes
// before to 15 minutes after the start.
var roomRule = ResourceRule{
	ID: uuid.New(), StartTime: 8 * time.Hour, EndTime: 20 * time.Hour, MaximumDuration: 4 * time.Hour,
	MaximumAdvance: 30 * 24 * time.Hour, AdvanceCheckIn: 10 * time.Minute, ExpirationMargin: 15 * time.Minute,
	AccessControlType: "ANY",
}

// deskRule is a desk's rule: the whole day, all-day bookings allowed, with check-in until 11:00.
var deskRule = ResourceRule{
	ID: uuid.New(), EndTime: 24 * time.Hour, AllDayBookings: true, AllDayBookingsCheckIn: 11 * time.Hour,
	AccessControlType: "ANY",
}

// BenchmarkBookingRules measures the rule checks CreateBookings runs for one element before it reaches
// the database: the element's own checks, the rule's interval check, and the check-in window.
func BenchmarkBookingRules(b *testing.B) {
	start := time.Date(2026, 11, 24, 10, 0, 0, 0, benchMadrid)
	b.Run("Room", func(b *testing.B) {
		// The attendees arrive decoded with the request, so building them is not part of the measurement.
		internal := []InternalAttendee{{Type: AttendeeRequired, UserID: roomRule.ID}}
		external := []ExternalAttendee{{Type: AttendeeOptional, Email: "guest@example.com"}}
		b.ReportAllocs()
		for b.Loop() {
			nb := NewBooking{
				ResourceID: roomRule.ID, Start: start, End: start.Add(time.Hour), Subject: "Quarterly review",
				InternalAttendees: internal, ExternalAttendees: external,
			}
			if err := nb.normalize(); err != nil {
				b.Fatal(err)
			}
			iv := Interval{Start: nb.Start, End: nb.End}
			if err := roomRule.CheckInterval(iv, benchNow, benchMadrid); err != nil {
				b.Fatal(err)
			}
			_ = roomRule.CheckInWindow(iv, false, benchNow, benchMadrid)
		}
	})
	b.Run("AllDayDesk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			nb := NewBooking{ResourceID: deskRule.ID, Start: start, AllDay: true}
			if err := nb.normalize(); err != nil {
				b.Fatal(err)
			}
			iv, err := deskRule.AllDay(nb.Start, benchNow, benchMadrid)
			if err != nil {
				b.Fatal(err)
			}
			_ = deskRule.CheckInWindow(iv, true, benchNow, benchMadrid)
		}
	})
	b.Run("Refused", func(b *testing.B) { // outside the window: the refusal's message is written
		b.ReportAllocs()
		iv := Interval{Start: start.Add(9 * time.Hour), End: start.Add(11 * time.Hour)}
		for b.Loop() {
			if err := roomRule.CheckInterval(iv, benchNow, benchMadrid); ErrorCode(err) != CodeDateOutsideResourceHours {
				b.Fatalf("CheckInterval = %v", err)
			}
		}
	})
}

// BenchFloorDay returns a day of bookings on a floor of 150 desks followed by 50 meeting rooms. About two
// thirds of the desks are taken for the morning, the afternoon or the whole day, and each room has three
// to seven meetings of 30 to 90 minutes. busy[i] holds resource i's intervals, earliest first. The result
// is the same on every call; BenchmarkAvailability (package booking_test) books it too.
func BenchFloorDay(day time.Time) (busy [][]Interval) {
	rng := rand.New(rand.NewPCG(1, 2))
	at := func(h, m int) time.Time { return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute) }
	busy = make([][]Interval, 200)
	for i := range busy {
		if i < 150 {
			switch rng.IntN(6) {
			case 0, 1:
				busy[i] = []Interval{{at(0, 0), at(24, 0)}}
			case 2:
				busy[i] = []Interval{{at(8, 0), at(13, 0)}}
			case 3:
				busy[i] = []Interval{{at(14, 0), at(19, 0)}}
			}
			continue
		}
		t := at(8, 0)
		for range 3 + rng.IntN(5) {
			t = t.Add(time.Duration(rng.IntN(4)) * 30 * time.Minute)
			end := t.Add(time.Duration(1+rng.IntN(3)) * 30 * time.Minute)
			if end.After(at(20, 0)) {
				break
			}
			busy[i] = append(busy[i], Interval{t, end})
			t = end
		}
	}
	return busy
}

// benchFloor is BenchFloorDay with each resource's rule. The first booking of every tenth resource
// belongs to the actor.
type benchFloor struct {
	rules      []ResourceRule
	busy, mine [][]Interval
}

func newBenchFloor() benchFloor {
	f := benchFloor{busy: BenchFloorDay(time.Date(2026, 11, 24, 0, 0, 0, 0, benchMadrid))}
	for i, busy := range f.busy {
		rule := deskRule
		if i >= 150 {
			rule = roomRule
		}
		var mine []Interval
		if i%10 == 0 && len(busy) > 0 {
			mine = busy[:1]
		}
		f.rules, f.mine = append(f.rules, rule), append(f.mine, mine)
	}
	return f
}

// BenchmarkSearchFloorDay measures searching a floor of 200 resources for 10:00–11:00 on a busy day. For
// each resource, searchDayOf merges the busy intervals with the rule's window into free, busy, mine or
// unavailable, and finds how long it stays free, as Search calls it.
func BenchmarkSearchFloorDay(b *testing.B) {
	f := newBenchFloor()
	day := time.Date(2026, 11, 24, 0, 0, 0, 0, benchMadrid)
	b.ReportAllocs()
	free := 0
	for b.Loop() {
		free = 0
		for i, rule := range f.rules {
			if d := searchDayOf(rule, day, 10*time.Hour, 11*time.Hour, f.busy[i], f.mine[i], benchNow, benchMadrid); d.State == SpotFree {
				free++
			}
		}
	}
	b.ReportMetric(float64(free), "free/op")
}
