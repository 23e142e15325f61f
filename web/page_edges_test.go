package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layoutimport"
)

// A booking that waits for approval still holds its room: My bookings lists it under Upcoming.
func TestPageMyBookingsWaitingForApprovalIsUpcoming(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	waiting := pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
	if waiting.Status != booking.StatusWaitingApproval {
		t.Fatalf("status = %s, want WAITING_APPROVAL", waiting.Status)
	}
	b := pb.signedIn(t, fx.Alice)
	up := b.get("/bookings")
	up.wantStatus(t, http.StatusOK)
	up.wantText(t, card(waiting.ID), "Boardroom", "Tue 24 Nov, 10:00–11:00 Madrid time")
	if n := b.get("/bookings?when=past").count(card(waiting.ID)); n != 0 {
		t.Errorf("the waiting booking is also under Past")
	}
}

// People whose "can be searched" is off are never offered by the colleague picker, however asked.
func TestPeopleSearchSkipsUnsearchablePeople(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	no := false
	if _, err := layoutimport.Import(t.Context(), pb.Service, layoutimport.Layout{Users: []layoutimport.LayoutUser{{
		ID: fx.Bob.String(), OrganizationID: fx.OrgA.String(), Name: "bob", Email: "bob@acme.test", CanBeSearched: &no,
	}}}); err != nil {
		t.Fatalf("Import: %v", err)
	}
	b := pb.signedIn(t, fx.Alice)
	for _, q := range []url.Values{
		{"field": {"attendee"}, "multi": {"1"}, "q": {"bob"}},
		{"field": {"attendee"}, "multi": {"1"}, "q": {"acme.test"}},
		{"field": {"user"}, "q": {"Baker"}},
		{"field": {"attendee"}, "multi": {"1"}, "attendee": {fx.Bob.String()}},                 // as if chosen before
		{"field": {"user"}, "user": {fx.Bob.String()}, "q": {"b"}},                             // the kiosk's picker
		{"field": {"attendee"}, "multi": {"1"}, "attendee": {fx.Bob.String()}, "q": {"alice"}}, // chosen, and a search
	} {
		p := b.hxGet("/people?" + q.Encode())
		p.wantStatus(t, http.StatusOK)
		if strings.Contains(p.text("body"), "bob@acme.test") || p.count(`input[value="`+fx.Bob.String()+`"]`) != 0 {
			t.Errorf("/people?%s offers Bob: %s", q.Encode(), p.text("body"))
		}
	}
	// The others still are.
	if p := b.hxGet("/people?field=attendee&multi=1&q=rita"); p.count(`input[value="`+fx.Rita.String()+`"]`) != 1 {
		t.Errorf("Rita is not offered: %s", p.text("body"))
	}
}
