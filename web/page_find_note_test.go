package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestFindHoursNoteFollows changes a search again and again after its hours started again for another
// kind or building. The note beside the hours says what was changed as long as it holds, says what
// changed next when something else is changed for the person, and goes once nothing is.
func TestFindHoursNoteFollows(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	// form is what the search form holds after an answer: the filters as sent, then the hidden inputs
	// of the parts the answer swapped in.
	form := func(sent url.Values, p htmlPage) url.Values {
		v := url.Values{}
		for k, vs := range sent {
			v[k] = append([]string(nil), vs...)
		}
		for _, name := range []string{"auto_building", "auto_kind", "auto_day", "auto_from", "auto_to"} {
			if p.count("#f-hours") > 0 {
				v.Del(name)
				if val, ok := p.doc.Find("#f-hours input[name=" + name + "]").Attr("value"); ok {
					v.Set(name, val)
				}
			}
		}
		for _, id := range []string{"#f-from", "#f-to"} {
			if val, ok := p.doc.Find("#f-hours " + id).Attr("value"); ok {
				v.Set(id[3:], val)
			}
		}
		if p.count("#f-hours-note") > 0 {
			v.Del("hours_note")
			if val, ok := p.doc.Find("#f-hours-note input[name=hours_note]").Attr("value"); ok {
				v.Set("hours_note", val)
			}
		}
		return v
	}
	search := func(v url.Values) htmlPage {
		t.Helper()
		p := b.hxGet("/find?" + v.Encode())
		p.wantStatus(t, http.StatusOK)
		return p
	}
	note := func(p htmlPage) string { return p.text(".hours-changed") }

	desks := url.Values{"building": {fx.BuildingMadrid.String()}, "date": {"2026-11-24"}, "kind": {"desk"}}
	page := b.get("/find?" + desks.Encode())
	if got := note(page); got != "" {
		t.Fatalf("a new search says %q", got)
	}
	v := form(desks, page)

	// Rooms: the hours nobody changed start again for them, and the note says so.
	v.Set("kind", "room")
	p := search(v)
	if got, want := note(p), "The hours changed to 09:00–13:00 to suit meeting rooms in Madrid HQ. Change them if you need others."; got != want {
		t.Errorf("after choosing rooms the note says %q, want %q", got, want)
	}
	v = form(v, p)

	// Something else changes: the hours are still those, and so is the note.
	v.Set("capacity", "4")
	p = search(v)
	if got, want := note(p), "The hours changed to 09:00–13:00 to suit meeting rooms in Madrid HQ. Change them if you need others."; got != want {
		t.Errorf("after another filter the note says %q, want %q", got, want)
	}
	v = form(v, p)

	// Back to desks: the hours start again for desks, and the note follows.
	v.Set("kind", "desk")
	p = search(v)
	if got, want := note(p), "The hours changed to 09:00–24:00 to suit desks in Madrid HQ. Change them if you need others."; got != want {
		t.Errorf("back to desks the note says %q, want %q", got, want)
	}
	v = form(v, p)

	// The person sets the hours: nothing is changed for them any more, and the note goes.
	v.Set("from", "10:00")
	p = search(v)
	if p.count("#f-hours-note") != 1 || note(p) != "" {
		t.Errorf("after the person set the hours: note %q (%d places), want it gone", note(p), p.count("#f-hours-note"))
	}
	v = form(v, p)
	if v.Get("hours_note") != "" {
		t.Errorf("the form still carries the note: %q", v.Get("hours_note"))
	}

	t.Run("DayToo", func(t *testing.T) {
		// At 21:30 in Madrid its rooms start tomorrow, while New York's start today: switching
		// buildings changes the day too, and the note says so until the person chooses a day.
		pb.Clock.Set(fx.At(0, 21, 30))
		defer pb.Clock.Set(fx.Now)
		b := pb.signedIn(t, fx.Alice)
		madrid := url.Values{"building": {fx.BuildingMadrid.String()}, "kind": {"room"}}
		page := b.get("/find?" + madrid.Encode())
		v := form(madrid, page)
		v.Set("date", page.attr("#f-start", "value"))
		v.Set("building", fx.BuildingNewYork.String())
		p := b.hxGet("/find?" + v.Encode())
		p.wantText(t, ".hours-changed", "The day and hours changed to Mon 23 Nov, ", "to suit meeting rooms in New York Office.")
		v = form(v, p)
		v.Set("date", p.attr("#f-days #f-start", "value"))
		v.Set("capacity", "2")
		p = b.hxGet("/find?" + v.Encode())
		p.wantText(t, ".hours-changed", "The day and hours changed to Mon 23 Nov, ")
		v = form(v, p)
		v.Set("date", "2026-11-25")
		p = b.hxGet("/find?" + v.Encode())
		if got := note(p); !strings.HasPrefix(got, "The hours changed to ") {
			t.Errorf("after the person chose a day the note says %q, want only the hours", got)
		}
	})
}
