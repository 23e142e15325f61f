package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// These tests cover My bookings and a booking's own page: what people see of their bookings, and every
// action on them, with and without htmx, including each refusal. The clock starts at Monday 2026-11-23
// 09:00 in Madrid.

// mbUser loads a fixture user from organization A.
func (pb *pageBundle) mbUser(t *testing.T, id uuid.UUID) booking.User {
	t.Helper()
	if id == fx.Boris {
		return pb.User(t, fx.OrgB, id)
	}
	return pb.User(t, fx.OrgA, id)
}

// mbCreate books the resource from start to end (end excluded) for the organizer, calling the domain
// directly. Each edit function may change the request, for example its subject or attendees.
func (pb *pageBundle) mbCreate(t *testing.T, organizer, resource uuid.UUID, start, end time.Time, edit ...func(*booking.NewBooking)) booking.Booking {
	t.Helper()
	u := pb.mbUser(t, organizer)
	nb := booking.NewBooking{ResourceID: resource, Start: start, End: end}
	for _, e := range edit {
		e(&nb)
	}
	category := booking.CategorySpace
	if resource == fx.DeskOne || resource == fx.DeskTwo {
		category = booking.CategoryWorkstation
	}
	bs, err := pb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: u, Organizer: u, Category: category, Bookings: []booking.NewBooking{nb}})
	if err != nil {
		t.Fatalf("book %s %s–%s: %v", resource, start, end, err)
	}
	return bs[0]
}

// mbGet fetches a booking as its organizer.
func (pb *pageBundle) mbGet(t *testing.T, organizer uuid.UUID, id uuid.UUID) booking.Booking {
	t.Helper()
	b, err := pb.Service.Booking(t.Context(), pb.mbUser(t, organizer), id)
	if err != nil {
		t.Fatalf("read booking %s: %v", id, err)
	}
	return b
}

// mbWantStatus checks a booking's status in the database.
func (pb *pageBundle) mbWantStatus(t *testing.T, organizer uuid.UUID, id uuid.UUID, want booking.Status) {
	t.Helper()
	if got := pb.mbGet(t, organizer, id).Status; got != want {
		t.Errorf("status of %s = %s, want %s", id, got, want)
	}
}

// card returns the CSS selector of a booking's card.
func card(id uuid.UUID) string { return "#booking-" + id.String() }

func withSubject(s string) func(*booking.NewBooking) {
	return func(nb *booking.NewBooking) { nb.Subject = s }
}

func TestPageMyBookings(t *testing.T) {
	t.Parallel()

	t.Run("UpcomingSoonestFirstInTheBuildingsZone", func(t *testing.T) {
		pb := setupPages(t)
		later := pb.mbCreate(t, fx.Alice, fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0), withSubject("Planning"))
		soon := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
		// 16:00 in Madrid is 10:00 in New York.
		ny := pb.mbCreate(t, fx.Alice, fx.RoomHudson, fx.At(1, 16, 0), fx.At(1, 17, 0))
		pb.mbCreate(t, fx.Bob, fx.RoomGoya, fx.At(0, 12, 0), fx.At(0, 13, 0)) // Bob's, not Alice's

		p := pb.signedIn(t, fx.Alice).get("/bookings")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "My bookings")
		if got := p.attr(`.tabs a[href="/bookings?when=upcoming"]`, "aria-current"); got != "page" {
			t.Errorf("Upcoming tab aria-current = %q, want page", got)
		}
		if got := p.count(".booking-card"); got != 3 {
			t.Fatalf("cards = %d, want Alice's 3; page: %s", got, p.text("main"))
		}
		var order []string
		p.doc.Find(".booking-card").Each(func(_ int, s *goquery.Selection) { order = append(order, s.AttrOr("id", "")) })
		if want := []string{"booking-" + soon.ID.String(), "booking-" + later.ID.String(), "booking-" + ny.ID.String()}; strings.Join(order, " ") != strings.Join(want, " ") {
			t.Errorf("cards in order %v, want soonest first %v", order, want)
		}
		p.wantText(t, card(soon.ID), "Goya", "Mon 23 Nov, 10:00–11:00 Madrid time", "Pending check-in", "madrid-1 · Madrid HQ",
			"Check-in opens at 09:50 Madrid time.")
		p.wantText(t, card(later.ID), "Velázquez", "Tue 24 Nov, 10:00–11:00 Madrid time", "Planning")
		p.wantText(t, card(ny.ID), "Hudson", "Tue 24 Nov, 10:00–11:00 New York time", "New York Office")
		if got := p.text(card(soon.ID) + " .badge"); got != "Status: Pending check-in" {
			t.Errorf("badge = %q, want the status in words", got)
		}
		if got := p.attr(card(soon.ID)+" h2 a", "href"); got != "/bookings/"+soon.ID.String() {
			t.Errorf("card links to %q, want the booking's page", got)
		}
	})

	t.Run("PastListsWhatIsOver", func(t *testing.T) {
		pb := setupPages(t)
		alice := pb.mbUser(t, fx.Alice)
		gone := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		if _, err := pb.Service.Cancel(t.Context(), alice, gone.ID); err != nil {
			t.Fatalf("cancel: %v", err)
		}
		kept := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(2, 10, 0), fx.At(2, 11, 0))
		b := pb.signedIn(t, fx.Alice)

		p := b.get("/bookings?when=past")
		p.wantStatus(t, http.StatusOK)
		if got := p.attr(`.tabs a[href="/bookings?when=past"]`, "aria-current"); got != "page" {
			t.Errorf("Past tab aria-current = %q, want page", got)
		}
		p.wantText(t, card(gone.ID), "Goya", "Tue 24 Nov, 10:00–11:00 Madrid time", "Cancelled")
		if p.count(card(kept.ID)) != 0 || p.count(card(gone.ID)+" form") != 0 {
			t.Errorf("past shows an upcoming booking or actions on a cancelled one: %s", p.text("main"))
		}
		p = b.get("/bookings")
		if p.count(card(gone.ID)) != 0 || p.count(card(kept.ID)) != 1 {
			t.Errorf("upcoming: want only the kept booking; page: %s", p.text("main"))
		}
	})

	t.Run("PastIsPagedWithShowMore", func(t *testing.T) {
		pb := setupPages(t)
		alice := pb.mbUser(t, fx.Alice)
		var reqs []booking.NewBooking
		for d := 1; d <= booking.DefaultPageSize+1; d++ {
			reqs = append(reqs, booking.NewBooking{ResourceID: fx.RoomGoya, Start: fx.At(d, 10, 0), End: fx.At(d, 11, 0)})
		}
		bs, err := pb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: reqs})
		if err != nil {
			t.Fatalf("book: %v", err)
		}
		for _, bk := range bs {
			if _, err := pb.Service.Cancel(t.Context(), alice, bk.ID); err != nil {
				t.Fatalf("cancel: %v", err)
			}
		}
		b := pb.signedIn(t, fx.Alice)
		p := b.get("/bookings?when=past")
		if got := p.count(".booking-card"); got != booking.DefaultPageSize {
			t.Fatalf("first page = %d cards, want %d", got, booking.DefaultPageSize)
		}
		p.wantText(t, ".booking-card", "Mon 14 Dec") // latest first
		more := p.attr(".more a", "href")
		if more == "" || p.attr(".more a", "hx-get") != more {
			t.Fatalf("Show more link = %q (hx-get %q), want one to the next page", more, p.attr(".more a", "hx-get"))
		}
		next := b.hxGet(more)
		next.wantStatus(t, http.StatusOK)
		if next.count("header.top") != 0 {
			t.Errorf("Show more answered a whole page, want the next cards only")
		}
		if got := next.count(".booking-card"); got != 1 || next.count(".more") != 0 {
			t.Errorf("next page = %d cards and %d more links, want 1 card (Tue 24 Nov) and none", got, next.count(".more"))
		}
		next.wantText(t, ".booking-card", "Tue 24 Nov")
		// Without JavaScript, the link loads a full page.
		b.get(more).wantText(t, "h1", "My bookings")
	})

	t.Run("BookedNoticeAndEmptyState", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		p := b.get("/bookings?booked=2")
		p.wantText(t, ".notice.ok", "2 bookings made.")
		p.wantText(t, ".empty", "You have no upcoming bookings.")
		if p.attr(".empty a", "href") != "/find" {
			t.Errorf("empty state does not lead to the search")
		}
		b.get("/bookings?when=past").wantText(t, ".empty", "No past bookings yet.")
		if b.get("/bookings?booked=nonsense").count(".notice") != 0 {
			t.Errorf("a bad booked= shows a notice")
		}
	})

	t.Run("InvitedSeesTheBookingWithoutActions", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Bob, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0), func(nb *booking.NewBooking) {
			nb.InternalAttendees = []booking.InternalAttendee{{Type: booking.AttendeeRequired, UserID: fx.Alice}}
		})
		b := pb.signedIn(t, fx.Alice)
		p := b.get("/bookings")
		p.wantText(t, card(bk.ID), "Goya", "Organized by bob Baker; you are invited.")
		if got := p.count(card(bk.ID) + " form"); got != 0 {
			t.Errorf("an invited person is offered %d actions, want none", got)
		}
		p = b.get("/bookings/" + bk.ID.String())
		p.wantText(t, ".facts", "Organizer", "bob Baker")
		p.wantText(t, "#services", "Only bob Baker, who organizes this booking, can order its services.")
		if p.count("#services form") != 0 {
			t.Errorf("an invited person is offered the services form")
		}
		b.post("/bookings/"+bk.ID.String()+"/checkin", url.Values{}).wantStatus(t, http.StatusNotFound)
		pb.mbWantStatus(t, fx.Bob, bk.ID, booking.StatusPending)
	})
}

func TestPageCheckIn(t *testing.T) {
	t.Parallel()

	t.Run("OpenWindowChecksInAndRedirectsBack", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
		b := pb.signedIn(t, fx.Alice)
		p := b.get("/bookings")
		p.wantText(t, card(bk.ID), "Check-in is open until 09:15 Madrid time.")
		form := card(bk.ID) + ` form[action="/bookings/` + bk.ID.String() + `/checkin"]`
		if p.count(form+` button[type=submit]`) != 1 || p.attr(form+` input[name=back]`, "value") != "/bookings?when=upcoming" {
			t.Fatalf("no check-in form coming back to the list; card: %s", p.text(card(bk.ID)))
		}
		p = b.post("/bookings/"+bk.ID.String()+"/checkin", url.Values{"back": {"/bookings?when=upcoming"}})
		p.wantStatus(t, http.StatusOK)
		if p.url.RequestURI() != "/bookings?when=upcoming" {
			t.Errorf("after check-in at %s, want back at /bookings?when=upcoming", p.url.RequestURI())
		}
		p.wantText(t, ".notice.ok", "You are checked in.")
		p.wantText(t, card(bk.ID), "Checked in", "Release early")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusActive)
		if b.get("/bookings").count(".notice.ok") != 0 {
			t.Errorf("the notice shows twice")
		}
	})

	t.Run("HTMXSwapsTheCard", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
		p := pb.signedIn(t, fx.Alice).hxPost("/bookings/"+bk.ID.String()+"/checkin", url.Values{"back": {"/bookings?when=upcoming"}})
		p.wantStatus(t, http.StatusOK)
		if p.count("header.top") != 0 || p.count("article"+card(bk.ID)) != 1 {
			t.Fatalf("htmx answer is not the card alone: %s", p.body)
		}
		p.wantText(t, card(bk.ID)+" [role=status]", "You are checked in.")
		p.wantText(t, card(bk.ID)+" .badge", "Checked in")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusActive)
	})

	t.Run("NotOpenYetIs409InWords", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
		b := pb.signedIn(t, fx.Alice)
		if b.get("/bookings").count(card(bk.ID)+` form[action$="/checkin"]`) != 0 {
			t.Errorf("check-in offered before it opens")
		}
		p := b.hxPost("/bookings/"+bk.ID.String()+"/checkin", url.Values{"back": {"/bookings"}})
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, card(bk.ID)+" [role=alert]", "Check-in opens at 09:50 Madrid time.")
		p.wantText(t, card(bk.ID), "Check-in opens at 09:50 Madrid time.", "Pending check-in")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusPending)
	})

	t.Run("ClosedIs409InWordsWithoutJavaScriptToo", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
		pb.Clock.Set(fx.At(0, 9, 20))
		b := pb.signedIn(t, fx.Alice)
		b.get("/bookings").wantText(t, card(bk.ID), "Check-in closed at 09:15 Madrid time without a check-in: the booking expires.")
		p := b.post("/bookings/"+bk.ID.String()+"/checkin", url.Values{"back": {"/bookings"}})
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, "h1", "Goya")
		p.wantText(t, card(bk.ID)+" [role=alert]", "Check-in closed at 09:15 Madrid time")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusPending)
	})
}

func TestPageRelease(t *testing.T) {
	t.Parallel()

	t.Run("ReleaseEarlyFinishesNow", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
		if _, err := pb.Service.CheckIn(t.Context(), pb.mbUser(t, fx.Alice), bk.ID); err != nil {
			t.Fatalf("check in: %v", err)
		}
		pb.Clock.Set(fx.At(0, 9, 30))
		b := pb.signedIn(t, fx.Alice)
		b.get("/bookings/"+bk.ID.String()).wantText(t, card(bk.ID), "Checked in at 09:00 Madrid time.", "Release early")
		p := b.post("/bookings/"+bk.ID.String()+"/checkout", url.Values{"back": {"/bookings/" + bk.ID.String()}})
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/bookings/"+bk.ID.String() {
			t.Errorf("after release at %s, want the booking's page", p.url)
		}
		p.wantText(t, ".notice.ok", "Released: Goya is free again for others.")
		p.wantText(t, card(bk.ID), "Finished", "Mon 23 Nov, 09:00–09:30 Madrid time")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusFinished)
	})

	t.Run("NotCheckedInIs409", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
		p := pb.signedIn(t, fx.Alice).hxPost("/bookings/"+bk.ID.String()+"/checkout", url.Values{})
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, "[role=alert]", "only a checked-in (ACTIVE) booking can be released")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusPending)
	})
}

func TestPageCancel(t *testing.T) {
	t.Parallel()

	t.Run("ConfirmThenCancelled", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := pb.signedIn(t, fx.Alice)
		p := b.get("/bookings")
		step := card(bk.ID) + " details.cancel"
		p.wantText(t, step+" > summary", "Cancel booking…")
		if _, open := p.doc.Find(step).Attr("open"); open {
			t.Errorf("the confirmation is open before anyone asked")
		}
		p.wantText(t, step+" form", "Cancel this booking?", "Yes, cancel it")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusPending) // showing the confirmation changes nothing

		p = b.post("/bookings/"+bk.ID.String()+"/cancel", url.Values{"back": {"/bookings?when=upcoming"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "Booking cancelled.")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusCancelled)
		b.get("/bookings?when=past").wantText(t, card(bk.ID), "Cancelled")
	})

	t.Run("HTMXOnTheBookingsPageAlsoSwapsItsServices", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		p := pb.signedIn(t, fx.Alice).hxPost("/bookings/"+bk.ID.String()+"/cancel", url.Values{"back": {"/bookings/" + bk.ID.String()}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, card(bk.ID)+" h1", "Goya")
		if p.attr("section#services", "hx-swap-oob") != "true" || p.count("#services form") != 0 {
			t.Errorf("the services section is not swapped beside the card, closed: %s", p.body)
		}
	})

	t.Run("HTMXSwapsTheCardAsCancelled", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		p := pb.signedIn(t, fx.Alice).hxPost("/bookings/"+bk.ID.String()+"/cancel", url.Values{"back": {"/bookings"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, card(bk.ID)+" .badge", "Cancelled")
		if p.count(card(bk.ID)+" form") != 0 {
			t.Errorf("a cancelled booking still offers actions")
		}
	})

	t.Run("ServicePastItsDeadlineKeepsItAndSaysSoBefore", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		if _, err := pb.Service.ContractReservables(t.Context(), pb.mbUser(t, fx.Alice), bk.ID,
			[]booking.ReservableOrder{{ReservableID: fx.ReservableCoffee}}); err != nil {
			t.Fatalf("order coffee: %v", err)
		}
		pb.Clock.Set(fx.At(1, 8, 30))
		b := pb.signedIn(t, fx.Alice)
		p := b.get("/bookings")
		p.wantText(t, card(bk.ID), "It can no longer be cancelled: Coffee could only be cancelled until 08:00 Madrid time.")
		if p.count(card(bk.ID)+" details.cancel") != 0 {
			t.Errorf("cancel offered although it would be refused")
		}
		r := b.hxPost("/bookings/"+bk.ID.String()+"/cancel", url.Values{"back": {"/bookings"}})
		r.wantStatus(t, http.StatusConflict)
		r.wantText(t, "[role=alert]", "Coffee is contracted on this booking and can only be cancelled until 2h before it starts")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusPending)
	})
}

func TestPageChangeBooking(t *testing.T) {
	t.Parallel()
	change := func(date, from, to string) url.Values {
		return url.Values{"date": {date}, "start": {from}, "end": {to}, "back": {"/bookings"}}
	}

	t.Run("Moved", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := pb.signedIn(t, fx.Alice)
		p := b.get("/bookings")
		form := card(bk.ID) + " details form.change-form"
		for field, want := range map[string]string{"date": "2026-11-24", "start": "10:00", "end": "11:00"} {
			if got := p.attr(form+" input[name="+field+"]", "value"); got != want {
				t.Errorf("change form %s = %q, want %q", field, got, want)
			}
		}
		p = b.post("/bookings/"+bk.ID.String()+"/change", change("2026-11-25", "15:30", "16:45"))
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "Moved to Wed 25 Nov, 15:30–16:45 Madrid time.")
		p.wantText(t, card(bk.ID), "Wed 25 Nov, 15:30–16:45 Madrid time")
		got := pb.mbGet(t, fx.Alice, bk.ID)
		if !got.Start.Equal(fx.At(2, 15, 30)) || !got.End.Equal(fx.At(2, 16, 45)) {
			t.Errorf("booking at %s–%s, want Wed 15:30–16:45 Madrid", got.Start, got.End)
		}
	})

	t.Run("TakenSlotIs409AndKeepsWhatWasTyped", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		pb.mbCreate(t, fx.Bob, fx.RoomGoya, fx.At(1, 12, 0), fx.At(1, 13, 0))
		p := pb.signedIn(t, fx.Alice).hxPost("/bookings/"+bk.ID.String()+"/change", change("2026-11-24", "11:30", "12:30"))
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, card(bk.ID)+" [role=alert]", "Goya is already booked during part of that time.")
		if _, open := p.doc.Find(card(bk.ID) + " details:has(form.change-form)").Attr("open"); !open {
			t.Errorf("the change form is closed after its refusal")
		}
		if got := p.attr(card(bk.ID)+" input[name=start]", "value"); got != "11:30" {
			t.Errorf("typed start = %q after the refusal, want 11:30", got)
		}
		if got := pb.mbGet(t, fx.Alice, bk.ID); !got.Start.Equal(fx.At(1, 10, 0)) {
			t.Errorf("a refused change moved the booking to %s", got.Start)
		}
	})

	t.Run("OutsideHoursIs409", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		p := pb.signedIn(t, fx.Alice).post("/bookings/"+bk.ID.String()+"/change", change("2026-11-24", "20:00", "21:00"))
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, card(bk.ID)+" [role=alert]", "The resource can be booked from 08:00 to 20:00")
	})

	t.Run("EndBeforeStartIs400", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := pb.signedIn(t, fx.Alice)
		p := b.hxPost("/bookings/"+bk.ID.String()+"/change", change("2026-11-24", "11:00", "10:00"))
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, "[role=alert]", "The end time must be after the start time.")
		p = b.hxPost("/bookings/"+bk.ID.String()+"/change", change("tomorrow", "11:00", "12:00"))
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, "[role=alert]", "Give a date and the start and end times")
	})
}

// TestPageServices checks ordering services from a booking's page.
func TestPageServices(t *testing.T) {
	t.Parallel()
	coffee, av := fx.ReservableCoffee.String(), fx.ReservableAV.String()

	t.Run("FormShowsEveryRuleBeforeItBites", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 11, 30), fx.At(0, 12, 30))
		p := pb.signedIn(t, fx.Alice).get("/bookings/" + bk.ID.String())
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#services", "Nothing ordered yet.")
		cf := "fieldset:has(input[value=\"" + coffee + "\"])"
		p.wantText(t, cf+" legend", "Coffee")
		p.wantText(t, cf, "Can be ordered, changed or cancelled until 09:30 Madrid time.")
		if p.attr(cf+" input[name=quantity-"+coffee+"]", "min") != "1" || p.attr(cf+" input[name=delivery-"+coffee+"]", "min") != "11:30" ||
			p.attr(cf+" input[name=delivery-"+coffee+"]", "max") != "12:30" || p.count(cf+" textarea[name=comment-"+coffee+"]") != 1 {
			t.Errorf("coffee's quantity, delivery time (11:30–12:30) and comment fields are not all there")
		}
		if got, want := p.attr(cf+" input[name=quantity-"+coffee+"]", "max"), strconv.Itoa(booking.MaxOrderQuantity); got != want {
			t.Errorf("coffee's quantity goes up to %s, want %s as the booking form and the API allow", got, want)
		}
		avf := "fieldset:has(input[value=\"" + av + "\"])"
		p.wantText(t, avf, "Quantity: 1", "Delivered at 11:45 Madrid time.", "Can be ordered, changed or cancelled until 10:30 Madrid time.")
		if p.count(avf+" input[type=number]") != 0 || p.count(avf+" textarea") != 0 {
			t.Errorf("AV setup offers a quantity or a comment it does not allow")
		}
		if p.count("fieldset[disabled]") != 0 {
			t.Errorf("a service is disabled before its deadline")
		}
		// Every control has a label.
		p.doc.Find("#services input:not([type=hidden]), #services textarea").Each(func(_ int, s *goquery.Selection) {
			id, _ := s.Attr("id")
			if s.AttrOr("type", "") == "checkbox" {
				if s.ParentFiltered("label").Length() == 0 {
					t.Errorf("check box %s has no label", s.AttrOr("value", ""))
				}
				return
			}
			if id == "" || p.count(`label[for="`+id+`"]`) != 1 {
				t.Errorf("control %q has no label", id)
			}
		})
	})

	t.Run("OrderCoffeeWithQuantityDeliveryAndComment", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 11, 30), fx.At(0, 12, 30))
		b := pb.signedIn(t, fx.Alice)
		p := b.post("/bookings/"+bk.ID.String()+"/services", url.Values{
			"reservable": {coffee}, "quantity-" + coffee: {"3"}, "delivery-" + coffee: {"12:00"},
			"comment-" + coffee: {"Oat milk, please"},
		})
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/bookings/"+bk.ID.String() {
			t.Errorf("after ordering at %s, want the booking's page", p.url)
		}
		p.wantText(t, ".notice.ok", "Services saved.")
		p.wantText(t, ".contracted", "Coffee × 3", "delivered at 12:00 Madrid time", "“Oat milk, please”")
		if got := p.attr("input[name=quantity-"+coffee+"]", "value"); got != "3" {
			t.Errorf("quantity shown %q, want 3", got)
		}
		type order struct {
			Reservable   string
			Quantity     int32
			DeliveryTime time.Duration
			Comment      string
		}
		var got []order
		for _, r := range pb.mbGet(t, fx.Alice, bk.ID).Reservables {
			got = append(got, order{r.Reservable.Name, r.Quantity, r.DeliveryTime, r.Comment})
		}
		if diff := cmp.Diff([]order{{"Coffee", 3, 30 * time.Minute, "Oat milk, please"}}, got); diff != "" {
			t.Errorf("contracted (-want +got):\n%s", diff)
		}
		b.get("/bookings").wantText(t, card(bk.ID), "Services: Coffee × 3")
	})

	t.Run("HTMXSwapsTheSection", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 11, 30), fx.At(0, 12, 30))
		p := pb.signedIn(t, fx.Alice).hxPost("/bookings/"+bk.ID.String()+"/services", url.Values{"reservable": {av}})
		p.wantStatus(t, http.StatusOK)
		if p.count("header.top") != 0 || p.count("section#services") != 1 {
			t.Fatalf("htmx answer is not the services section alone: %s", p.body)
		}
		p.wantText(t, "#services [role=status]", "Services saved.")
		p.wantText(t, ".contracted", "AV setup", "delivered at 11:45 Madrid time")
	})

	t.Run("DesksHaveNoServicesSection", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.DeskOne, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := pb.signedIn(t, fx.Alice)
		if p := b.get("/bookings/" + bk.ID.String()); p.count("#services") != 0 {
			t.Errorf("a desk booking shows a services section")
		}
		if p := b.get("/bookings"); p.count(card(bk.ID)+` a[href$="#services"]`) != 0 {
			t.Errorf("a desk booking offers to order services")
		}
	})
}

// TestPageServicesRefused checks orders of services that are refused: past their deadline, outside the
// booking's time, or with the services module off. It also checks what the form keeps and what it says.
func TestPageServicesRefused(t *testing.T) {
	t.Parallel()
	coffee, av := fx.ReservableCoffee.String(), fx.ReservableAV.String()

	t.Run("TooLateIs409AndTheFormSaysSo", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := pb.signedIn(t, fx.Alice)
		b.get("/bookings/"+bk.ID.String()).wantText(t, "#services", "Can be ordered, changed or cancelled until 08:00 Madrid time.")

		pb.Clock.Set(fx.At(1, 8, 30))
		p := b.get("/bookings/" + bk.ID.String())
		p.wantText(t, ".service.fixed", "Coffee", "Not ordered: orders closed 2 hours before the start (08:00 Madrid time).")
		if p.count("fieldset.service") != 1 || p.count("fieldset[disabled]") != 0 { // AV setup can be ordered until 09:00
			t.Errorf("want coffee disabled and AV setup open; section: %s", p.text("#services"))
		}
		r := b.hxPost("/bookings/"+bk.ID.String()+"/services", url.Values{"reservable": {coffee}, "quantity-" + coffee: {"2"}})
		r.wantStatus(t, http.StatusConflict)
		r.wantText(t, "#services [role=alert]", "Coffee can only be changed until 2h before the booking starts.")
		if n := len(pb.mbGet(t, fx.Alice, bk.ID).Reservables); n != 0 {
			t.Errorf("a refused order contracted %d services", n)
		}

		pb.Clock.Set(fx.At(1, 9, 30))
		p = b.get("/bookings/" + bk.ID.String())
		if p.count("#services button[type=submit]") != 0 {
			t.Errorf("a save button shows when every deadline is past")
		}
		p.wantText(t, "#services", "It is too late to change the services of this booking.")
	})

	t.Run("ServicePastItsDeadlineIsKeptWhenOthersChange", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		three := int32(3)
		if _, err := pb.Service.ContractReservables(t.Context(), pb.mbUser(t, fx.Alice), bk.ID,
			[]booking.ReservableOrder{{ReservableID: fx.ReservableCoffee, Quantity: &three, Comment: "Decaf"}}); err != nil {
			t.Fatalf("order coffee: %v", err)
		}
		pb.Clock.Set(fx.At(1, 8, 30))
		b := pb.signedIn(t, fx.Alice)
		p := b.get("/bookings/" + bk.ID.String())
		if p.attr("input[type=hidden][name=keep]", "value") != coffee {
			t.Fatalf("the form does not keep the locked coffee order")
		}
		p = b.post("/bookings/"+bk.ID.String()+"/services", url.Values{"reservable": {av}, "keep": {coffee}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".contracted", "AV setup", "Coffee × 3", "“Decaf”")
	})

	t.Run("DeliveryOutsideTheBookingIs409InWords", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 11, 30), fx.At(0, 12, 30))
		p := pb.signedIn(t, fx.Alice).hxPost("/bookings/"+bk.ID.String()+"/services", url.Values{
			"reservable": {coffee}, "delivery-" + coffee: {"13:00"}, "comment-" + coffee: {"Late"},
		})
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, "[role=alert]", "Coffee: the delivery time must lie between 11:30 and 12:30 Madrid time.")
		if got := p.text("textarea[name=comment-" + coffee + "]"); got != "Late" {
			t.Errorf("typed comment = %q after the refusal, want it kept", got)
		}
		if p.attr("input[name=delivery-"+coffee+"]", "value") != "13:00" {
			t.Errorf("typed delivery time lost after the refusal")
		}
	})

	t.Run("OrganizationWithoutTheModule", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Boris, fx.RoomB, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := pb.signedIn(t, fx.Boris)
		p := b.get("/bookings/" + bk.ID.String())
		p.wantText(t, "#services", "Additional services are not available")
		if p.count("#services form") != 0 {
			t.Errorf("a services form shows without the module")
		}
		r := b.hxPost("/bookings/"+bk.ID.String()+"/services", url.Values{"reservable": {fx.ReservableB.String()}})
		r.wantStatus(t, http.StatusConflict)
		r.wantText(t, "[role=alert]", "Your organization has not activated additional services.")
	})
}

func TestPageBookingNotFound(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	bobs := pb.mbCreate(t, fx.Bob, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
	b := pb.signedIn(t, fx.Alice)
	id := bobs.ID.String()

	t.Run("SomeoneElsesBooking", func(t *testing.T) {
		b.get("/bookings/"+id).wantStatus(t, http.StatusNotFound)
		for _, action := range []string{"checkin", "checkout", "cancel", "change", "services"} {
			b.post("/bookings/"+id+"/"+action, url.Values{"date": {"2026-11-24"}, "start": {"10:00"}, "end": {"11:00"}}).wantStatus(t, http.StatusNotFound)
		}
		p := b.hxPost("/bookings/"+id+"/cancel", url.Values{})
		p.wantStatus(t, http.StatusNotFound)
		if p.header.Get("HX-Retarget") != "#notice" {
			t.Errorf("htmx 404 is not shown in the page's notice")
		}
		pb.mbWantStatus(t, fx.Bob, bobs.ID, booking.StatusPending)
	})

	t.Run("AnotherOrganization", func(t *testing.T) {
		pb.signedIn(t, fx.Boris).get("/bookings/"+id).wantStatus(t, http.StatusNotFound)
	})

	t.Run("BadIDs", func(t *testing.T) {
		for path, title := range map[string]string{"/bookings/nope": "Page not found", "/bookings/00000000-0000-4000-8000-999999999999": "Not found"} {
			p := b.get(path)
			p.wantStatus(t, http.StatusNotFound)
			p.wantText(t, "h1", title)
		}
		b.post("/bookings/nope/cancel", url.Values{}).wantStatus(t, http.StatusNotFound)
	})
}

func TestPageBookingDetail(t *testing.T) {
	t.Parallel()
	pb := setupPagesMeetings(t)
	rita := pb.mbUser(t, fx.Rita)
	alice := pb.mbUser(t, fx.Alice)
	bs, err := pb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: rita, Organizer: alice, Category: booking.CategorySpace, Bookings: []booking.NewBooking{{
		ResourceID: fx.RoomGoya, Start: fx.At(1, 10, 0), End: fx.At(1, 11, 0), Subject: "Quarterly review",
		CreateOnlineMeeting: true, Body: booking.Body{Content: "Bring the numbers"},
		InternalAttendees: []booking.InternalAttendee{{Type: booking.AttendeeRequired, UserID: fx.Bob}},
		ExternalAttendees: []booking.ExternalAttendee{{Type: booking.AttendeeOptional, Email: "guest@partner.test"}},
	}}})
	if err != nil {
		t.Fatalf("book: %v", err)
	}
	p := pb.signedIn(t, fx.Alice).get("/bookings/" + bs[0].ID.String())
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "h1", "Goya")
	p.wantText(t, "main", "Tue 24 Nov, 10:00–11:00 Madrid time", "Quarterly review", "Pending check-in",
		"Check-in opens Tue 24 Nov at 09:50 Madrid time.")
	p.wantText(t, ".facts", "Organizer", "alice Archer", "Booked by", "rita Reyes", "Capacity", "8 people",
		"Online meeting", "https://meet.example.org/"+bs[0].ID.String(), "Bring the numbers")
	if got, want := p.text(".attendees"), "bob Baker guest@partner.test (guest) (optional)"; got != want {
		t.Errorf("attendees = %q, want %q", got, want)
	}
	if p.count("h1") != 1 || p.count(".booking-page h2") < 2 {
		t.Errorf("headings: %d h1, %d h2; want one h1 and sections below", p.count("h1"), p.count(".booking-page h2"))
	}
}

// TestBrowserMyBookings uses My bookings, a booking's page and Approvals in Chromium. It checks that htmx
// replaces the card and the services section in place, and that axe-core finds no serious problem on any
// of the pages.
func TestBrowserMyBookings(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	now := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0), withSubject("Stand-up"))
	room := pb.mbCreate(t, fx.Alice, fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0), withSubject("Planning"))
	pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(2, 15, 0), fx.At(2, 16, 0), withSubject("Board meeting"))
	pb.mbCreate(t, fx.Alice, fx.DeskOne, fx.At(3, 9, 0), fx.At(3, 17, 0))
	gone := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(4, 10, 0), fx.At(4, 11, 0))
	if _, err := pb.Service.Cancel(t.Context(), pb.mbUser(t, fx.Alice), gone.ID); err != nil {
		t.Fatalf("cancel: %v", err)
	}

	b := newTab(t, pb.srv.URL)
	b.open("/login?next=/bookings")
	b.do(chromedp.Click(chromedp.CSS(`form:has(input[value="` + fx.Alice.String() + `"]) button`)))
	b.waitText("h1", "My bookings")
	b.check("my-bookings")

	b.do(chromedp.Click(chromedp.CSS(card(now.ID) + ` form[action$="/checkin"] button`)))
	b.waitText(card(now.ID), "You are checked in.", "Checked in", "Release early")
	b.do(chromedp.Click(chromedp.CSS(card(room.ID) + " details.cancel > summary")))
	b.waitText(card(room.ID)+" details.cancel", "Cancel this booking?")
	b.check("my-bookings-actions")

	// A refusal (400 here) appears next to the form as a written message.
	b.do(chromedp.Click(chromedp.CSS(card(room.ID)+" details:has(.change-form) > summary")),
		chromedp.SetValue(chromedp.CSS(card(room.ID)+" input[name=end]"), "09:00"),
		chromedp.Click(chromedp.CSS(card(room.ID)+" .change-form button")))
	b.waitText(card(room.ID)+" [role=alert]", "The end time must be after the start time.")

	b.open("/bookings?when=past")
	b.waitText(card(gone.ID), "Cancelled")
	b.check("my-bookings-past")

	b.open("/bookings/" + room.ID.String())
	b.waitText("h1", "Velázquez")
	b.do(chromedp.Click(chromedp.CSS(`#services input[type=checkbox]`)))
	b.do(chromedp.Click(chromedp.CSS(`#services button[type=submit]`)))
	b.waitText("#services", "Services saved.", "Coffee")
	b.check("booking")

	// On a phone, the cards and the services form still work.
	b.do(chromedp.EmulateViewport(390, 844))
	b.open("/bookings")
	b.waitText(card(room.ID), "Velázquez", "Services: Coffee")
	b.check("my-bookings-phone")
	b.open("/bookings/" + room.ID.String())
	b.check("booking-phone")

	// Cancelling on the booking's own page also closes its services section, which is swapped in along
	// with the card.
	b.do(chromedp.Click(chromedp.CSS(card(room.ID)+" details.cancel > summary")),
		chromedp.Click(chromedp.CSS(card(room.ID)+" details.cancel button")))
	b.waitText(card(room.ID), "Booking cancelled.", "Cancelled")
	b.waitText("#services", "Services can only be ordered for a booking that is still to come.")

	a := newTab(t, pb.srv.URL)
	a.open("/login?next=/approvals")
	a.do(chromedp.Click(chromedp.CSS(`form:has(input[value="` + fx.Adam.String() + `"]) button`)))
	a.waitText("h1", "Approvals")
	a.waitText(".approval", "Boardroom", "for alice Archer")
	a.check("approvals")
	a.do(chromedp.Click(chromedp.CSS(`.approval button[value=approve]`)))
	a.waitText(".approval", "Approved — now pending check-in")
}

// TestPageMyBookingsWaitingForApprovalIsUpcoming checks that a booking waiting for approval, which
// still holds its room, is listed under Upcoming.
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
