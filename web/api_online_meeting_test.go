package web_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// meetingTemplate is the ONLINE_MEETING_URL of the tests that offer online meetings.
const meetingTemplate = "https://meet.example.org/{bookingId}"

// setupMeetings is like setup, on a booking service that makes online meetings.
func setupMeetings(t *testing.T, deps ...func(*web.Deps)) *testBundle {
	t.Helper()
	return setupOn(t, fx.Setup(t, booking.WithOnlineMeetings(meetingTemplate)), nil, nil, deps...)
}

// setupPagesMeetings is like setupPages, on a booking service that makes online meetings.
func setupPagesMeetings(t *testing.T) *pageBundle {
	t.Helper()
	tb := setupMeetings(t, func(d *web.Deps) { d.Dev = true })
	return &pageBundle{Bundle: tb.Bundle, srv: tb.srv, server: tb.server}
}

func TestAPIOnlineMeeting(t *testing.T) {
	t.Parallel()

	t.Run("LinkInTheAnswerAndReadBack", func(t *testing.T) {
		t.Parallel()
		tb := setupMeetings(t)
		online := spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		online["createOnlineMeeting"] = true
		plain := spaceBooking(fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0))
		r := tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{online, plain})
		wantStatus(t, r, http.StatusCreated)
		list := array(t, "bookings", wantKeys(t, "body", r.object(t), "bookings")["bookings"])
		if len(list) != 2 {
			t.Fatalf("bookings = %d, want 2", len(list))
		}
		// The link is there only when the booking asked for a meeting.
		first := wantKeys(t, "bookings[0]", list[0], append(slices.Clone(bookingKeys), "onlineMeetingUrl")...)
		wantKeys(t, "bookings[1]", list[1], bookingKeys...)
		id, _ := first["id"].(string)
		want := "https://meet.example.org/" + id
		wantValue(t, "bookings[0].onlineMeetingUrl", first["onlineMeetingUrl"], want)
		r = tb.call(t, fx.Alice, http.MethodGet, api+"/bookings/"+id, nil)
		wantStatus(t, r, http.StatusOK)
		wantValue(t, "read back: onlineMeetingUrl", r.object(t)["onlineMeetingUrl"], want)
	})

	t.Run("RefusedWithoutAServer", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		online := spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		online["createOnlineMeeting"] = true
		r := tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{online})
		p := wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, 0)
		wantValue(t, "field", p["field"], "createOnlineMeeting")
		if d, _ := p["detail"].(string); !strings.Contains(d, "no online-meeting server configured") {
			t.Errorf("detail = %q, want it to say that no online-meeting server is configured", d)
		}
		tb.wantRows(t, "bookings", 0)

		// Asking for none is still fine.
		online["createOnlineMeeting"] = false
		created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{online}), 1)
	})
}

func TestPageOnlineMeeting(t *testing.T) {
	t.Parallel()
	bookForm := func() map[string][]string {
		return map[string][]string{"resource": {fx.RoomGoya.String()}, "date": {"2026-11-24"}, "from": {"10:00"}, "to": {"11:00"}}
	}

	t.Run("OfferedAndShownWithAServer", func(t *testing.T) {
		t.Parallel()
		pb := setupPagesMeetings(t)
		b := pb.signedIn(t, fx.Alice)
		b.get("/find?kind=room&resource="+fx.RoomGoya.String()+"&start=2026-11-24&from=10:00&to=11:00").
			wantText(t, "form.booking-form", "Create an online meeting")
		form := bookForm()
		form["online"] = []string{"1"}
		p := b.post("/bookings", form)
		p.wantStatus(t, http.StatusOK)
		link := p.attr(".booking-meeting a", "href")
		if !strings.HasPrefix(link, "https://meet.example.org/") {
			t.Fatalf("My bookings: meeting link %q, want one of meet.example.org", link)
		}
		id := strings.TrimPrefix(link, "https://meet.example.org/")
		detail := b.get("/bookings/" + id)
		detail.wantStatus(t, http.StatusOK)
		if got := detail.attr(".facts a.meeting-link", "href"); got != link {
			t.Errorf("booking page: meeting link %q, want %q", got, link)
		}
	})

	t.Run("NotOfferedWithoutAServer", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		p := b.get("/find?kind=room&resource=" + fx.RoomGoya.String() + "&start=2026-11-24&from=10:00&to=11:00")
		p.wantStatus(t, http.StatusOK)
		if p.count("form.booking-form") == 0 || p.count(`input[name="online"]`) != 0 {
			t.Errorf("booking forms %d, online boxes %d: want a form without the online meeting",
				p.count("form.booking-form"), p.count(`input[name="online"]`))
		}
		// A form sent with the box anyway is refused, and books nothing.
		form := bookForm()
		form["online"] = []string{"1"}
		refused := b.post("/bookings", form)
		refused.wantStatus(t, http.StatusBadRequest)
		refused.wantText(t, "main", "no online-meeting server configured")
		if n := fx.TableCount(t, pb.Bundle, "bookings"); n != 0 {
			t.Errorf("bookings = %d, want none", n)
		}
	})
}
