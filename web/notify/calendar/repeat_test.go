package calendar_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/notify/calendar"
	"github.com/workspacebooking/booking/web/notify/calendar/caltest"
)

// weekly is a series in Madrid, Tuesdays and Thursdays 09:00–10:30 from Tue 20 Oct to Tue 3 Nov 2026,
// across the change to winter time on Sun 25 Oct, with Thu 29 Oct left out.
func weekly(t *testing.T) calendar.Event {
	madrid := zone(t, "Europe/Madrid")
	ev := meeting(t)
	ev.Start, ev.End = time.Date(2026, 10, 20, 9, 0, 0, 0, madrid), time.Date(2026, 10, 20, 10, 30, 0, 0, madrid)
	ev.Repeat = &calendar.Repeat{
		Weekdays: []time.Weekday{time.Thursday, time.Tuesday}, Interval: 1,
		Until:  time.Date(2026, 11, 3, 9, 0, 0, 0, madrid),
		Except: []time.Time{time.Date(2026, 10, 29, 9, 0, 0, 0, madrid)},
	}
	return ev
}

// TestRepeatReadByICALJS: ical.js reads one VEVENT whose RRULE and EXDATE give the series' days at
// 09:00 Madrid time on both sides of the change of offset, without the day left out.
func TestRepeatReadByICALJS(t *testing.T) {
	t.Parallel()
	t.Run("WeeklyAcrossDST", func(t *testing.T) {
		t.Parallel()
		doc := invite(t, calendar.Request, weekly(t))
		if got, want := prop(t, doc, "RRULE"), "RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU,TH;WKST=MO;UNTIL=20261103T080000Z"; got != want {
			t.Errorf("RRULE = %s, want %s", got, want)
		}
		if got, want := props(doc, "EXDATE"), []string{"EXDATE;TZID=Europe/Madrid:20261029T090000"}; !cmp.Equal(got, want) {
			t.Errorf("EXDATE = %q, want %q", got, want)
		}
		read := caltest.Read(t, doc)
		if n := len(read.Events); n != 1 {
			t.Fatalf("%d VEVENTs, want one for the whole series", n)
		}
		got := read.Events[0]
		want := []string{"2026-10-20T07:00:00.000Z", "2026-10-22T07:00:00.000Z", "2026-10-27T08:00:00.000Z", "2026-11-03T08:00:00.000Z"}
		if d := cmp.Diff(want, got.Occurrences); d != "" {
			t.Errorf("occurrences ical.js expands (-want +got):\n%s", d)
		}
		if d := cmp.Diff([]string{"2026-10-29T08:00:00.000Z Europe/Madrid"}, got.Exdates); d != "" {
			t.Errorf("EXDATEs ical.js reads (-want +got):\n%s", d)
		}
		if got.StartZone != "Europe/Madrid" || got.Sequence == nil || *got.Sequence != 3 {
			t.Errorf("DTSTART zone %s, SEQUENCE %v: want Europe/Madrid and 3", got.StartZone, got.Sequence)
		}
	})
	t.Run("EveryTwoWeeks", func(t *testing.T) {
		t.Parallel()
		ev := weekly(t)
		ev.Repeat.Interval, ev.Repeat.Except = 2, nil
		ev.Repeat.Weekdays = []time.Weekday{time.Tuesday, time.Friday}
		ev.Repeat.Until = time.Date(2026, 11, 17, 9, 0, 0, 0, ev.Zone)
		got := caltest.Read(t, invite(t, calendar.Request, ev)).Events[0]
		want := []string{"2026-10-20T07:00:00.000Z", "2026-10-23T07:00:00.000Z", "2026-11-03T08:00:00.000Z", "2026-11-06T08:00:00.000Z", "2026-11-17T08:00:00.000Z"}
		if d := cmp.Diff(want, got.Occurrences); d != "" {
			t.Errorf("occurrences (-want +got):\n%s", d)
		}
	})
	t.Run("CancelTheWholeSeries", func(t *testing.T) {
		t.Parallel()
		doc := invite(t, calendar.Cancel, weekly(t))
		read := caltest.Read(t, doc)
		if read.Method != "CANCEL" || len(read.Events) != 1 || read.Events[0].Status != "CANCELLED" || read.Events[0].RRule == "" {
			t.Errorf("method %s, %d events: want CANCEL of the one repeating event", read.Method, len(read.Events))
		}
	})
	t.Run("Refused", func(t *testing.T) {
		t.Parallel()
		for name, edit := range map[string]func(*calendar.Repeat){
			"NoWeekday":   func(r *calendar.Repeat) { r.Weekdays = nil },
			"NoInterval":  func(r *calendar.Repeat) { r.Interval = 0 },
			"UntilBefore": func(r *calendar.Repeat) { r.Until = r.Until.AddDate(0, -1, 0) },
		} {
			ev := weekly(t)
			edit(ev.Repeat)
			if _, err := calendar.Invite(calendar.Request, ev); err == nil || !strings.Contains(err.Error(), "repeat") {
				t.Errorf("%s: err = %v, want a refusal of the repeat", name, err)
			}
		}
	})
}
