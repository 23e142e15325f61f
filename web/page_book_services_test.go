package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The booking form's services. In the fixture Goya offers Coffee (quantity, delivery time and comment
// chosen; 2 hours' notice; usually at the start) and AV setup (one, 15 min after the start; 1 hour's
// notice); Velázquez offers Coffee. The clock says Monday 23 November 09:00 in Madrid.

// servicesQuery is the booking form's fields for the services fieldset.
func servicesQuery(resources []uuid.UUID, from, to string, days ...string) url.Values {
	v := bookForm(resources, days...)
	v.Set("from", from)
	v.Set("to", to)
	return v
}

// tick adds a ticked service with its quantity and delivery time ("" for none) to a form.
func tick(v url.Values, rv uuid.UUID, quantity, delivery string) url.Values {
	v.Add("reservable", rv.String())
	if quantity != "" {
		v.Set("quantity-"+rv.String(), quantity)
	}
	if delivery != "" {
		v.Set("delivery-"+rv.String(), delivery)
	}
	return v
}

// serviceContracts is what a booking holds of its services, as the tests compare it.
type serviceContracts struct {
	Start    time.Time
	Services string // "Coffee ×3 at 10:30, AV setup ×1 at 10:15"
}

func contractsOf(bs []booking.Booking) []serviceContracts {
	out := make([]serviceContracts, len(bs))
	for i, b := range bs {
		var parts []string
		for _, br := range b.Reservables {
			parts = append(parts, br.Reservable.Name+" ×"+strconv.Itoa(int(br.Quantity))+" at "+b.Start.Add(br.DeliveryTime).In(fx.Madrid).Format("15:04"))
		}
		out[i] = serviceContracts{Start: b.Start, Services: strings.Join(parts, ", ")}
	}
	return out
}

func TestBookServicesFieldset(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	coffee, av := fx.ReservableCoffee.String(), fx.ReservableAV.String()

	t.Run("QuantityStartsAtThePeople", func(t *testing.T) {
		v := servicesQuery([]uuid.UUID{fx.RoomGoya}, "10:00", "11:00", "2026-11-24", "2026-11-25")
		v.Set("people", "3")
		p := b.hxGet("/find/services?" + v.Encode())
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#b-services legend", "Services")
		p.wantText(t, "#b-services", "Coffee", "AV setup", "Ordered once for every day booked")
		if got := p.attr(`input[name="quantity-`+coffee+`"]`, "value"); got != "3" {
			t.Errorf("Coffee's quantity = %q, want 3 (the people)", got)
		}
		if got := p.attr(`input[name="delivery-`+coffee+`"]`, "value"); got != "10:00" {
			t.Errorf("Coffee's delivery = %q, want 10:00 (its usual time, the start)", got)
		}
		if lo, hi := p.attr(`input[name="delivery-`+coffee+`"]`, "min"), p.attr(`input[name="delivery-`+coffee+`"]`, "max"); lo != "10:00" || hi != "11:00" {
			t.Errorf("Coffee's delivery lies between %q and %q, want 10:00 and 11:00", lo, hi)
		}
		if n := p.count(`input[name="quantity-` + av + `"]`); n != 0 {
			t.Errorf("AV setup has %d quantity inputs, want none: it comes as one", n)
		}
		p.wantText(t, "#b-services", "Quantity 1.", "Delivered at 10:15.")
	})

	t.Run("QuantityCountsTheInvitedAndTheOrganizer", func(t *testing.T) {
		v := servicesQuery([]uuid.UUID{fx.RoomGoya}, "10:00", "11:00", "2026-11-24")
		v.Add("attendee", fx.Bob.String())
		v.Set("guests", "ann@example.com, carl@example.org")
		p := b.hxGet("/find/services?" + v.Encode())
		if got := p.attr(`input[name="quantity-`+coffee+`"]`, "value"); got != "4" {
			t.Errorf("Coffee's quantity = %q, want 4 (Alice, Bob and two guests)", got)
		}
	})

	t.Run("UsualDeliveryAfterTheEndMovesToTheStart", func(t *testing.T) {
		p := b.hxGet("/find/services?" + servicesQuery([]uuid.UUID{fx.RoomGoya}, "10:00", "10:10", "2026-11-24").Encode())
		p.wantText(t, "#b-services", "AV setup: delivered at 10:00, the start, because its usual time (10:15) is after the meeting ends.")
		if strings.Contains(p.text("#b-services"), "10:15.") && strings.Contains(p.text("#b-services"), "Delivered at 10:15") {
			t.Errorf("the form still says AV setup comes at 10:15: %s", p.text("#b-services"))
		}
	})

	t.Run("TooLateCannotBeTicked", func(t *testing.T) {
		// Today at 10:00 is an hour away: Coffee needs 2 hours, AV setup 1.
		p := b.hxGet("/find/services?" + servicesQuery([]uuid.UUID{fx.RoomGoya}, "10:00", "11:00", "2026-11-23", "2026-11-24").Encode())
		p.wantText(t, "#b-services", "Coffee needs 2 hours' notice: too late for Mon 23 Nov.")
		if _, ok := p.doc.Find(`input[name=reservable][value="` + coffee + `"]`).Attr("disabled"); !ok {
			t.Errorf("Coffee can be ticked although it is too late")
		}
		if _, ok := p.doc.Find(`input[name=reservable][value="` + av + `"]`).Attr("disabled"); ok {
			t.Errorf("AV setup cannot be ticked, want it open until 09:00")
		}
	})

	t.Run("SeveralRoomsSayWhichOffers", func(t *testing.T) {
		p := b.hxGet("/find/services?" + servicesQuery([]uuid.UUID{fx.RoomGoya, fx.RoomVelazquez}, "10:00", "11:00", "2026-11-24").Encode())
		p.wantText(t, "#b-services", "AV setup (Goya only)")
		if strings.Contains(p.text("#b-services"), "Coffee (Goya") || strings.Contains(p.text("#b-services"), "Coffee (Vel") {
			t.Errorf("Coffee is marked as offered by some rooms only: %s", p.text("#b-services"))
		}
	})

	t.Run("DesksHaveNone", func(t *testing.T) {
		p := b.hxGet("/find/services?" + servicesQuery([]uuid.UUID{fx.DeskOne}, "10:00", "11:00", "2026-11-24").Encode())
		p.wantStatus(t, http.StatusOK)
		if n := p.count("#b-services fieldset"); n != 0 {
			t.Errorf("a desk's form has %d services fieldsets, want none", n)
		}
	})

	t.Run("TickedStaysTicked", func(t *testing.T) {
		v := tick(servicesQuery([]uuid.UUID{fx.RoomGoya}, "10:00", "12:00", "2026-11-24"), fx.ReservableCoffee, "7", "11:30")
		p := b.hxGet("/find/services?" + v.Encode())
		if _, ok := p.doc.Find(`input[name=reservable][value="` + coffee + `"]`).Attr("checked"); !ok {
			t.Errorf("Coffee is no longer ticked")
		}
		if got := p.attr(`input[name="quantity-`+coffee+`"]`, "value"); got != "7" {
			t.Errorf("Coffee's quantity = %q, want 7 as typed", got)
		}
		if got := p.attr(`input[name="delivery-`+coffee+`"]`, "value"); got != "11:30" {
			t.Errorf("Coffee's delivery = %q, want 11:30 as typed", got)
		}
	})
}

// TestBookServicesWithoutScript checks that the form on /find and in a room's panel holds the room's
// services as the page is served, so that they can be ordered without a script.
func TestBookServicesWithoutScript(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	coffee := fx.ReservableCoffee.String()
	search := url.Values{"building": {fx.BuildingMadrid.String()}, "kind": {"room"}, "date": {"2026-11-24"},
		"from": {"10:00"}, "to": {"11:00"}, "capacity": {"3"}}
	for _, tt := range []struct{ name, path string }{
		{"Find", "/find?" + search.Encode() + "&resource=" + fx.RoomGoya.String()},
		{"Panel", "/find/resources/" + fx.RoomGoya.String() + "?" + search.Encode()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := b.get(tt.path)
			p.wantStatus(t, http.StatusOK)
			p.wantText(t, "#b-services legend", "Services")
			p.wantText(t, "#b-services", "Coffee", "AV setup")
			if got := p.attr(`input[name="quantity-`+coffee+`"]`, "value"); got != "3" {
				t.Errorf("Coffee's quantity = %q, want 3 (the people searched for)", got)
			}
			if got := p.attr("#b-services", "hx-trigger"); got != "services" {
				t.Errorf("the services are read again when the page loads (hx-trigger %q), want only on a change", got)
			}
		})
	}
	t.Run("NotForDesks", func(t *testing.T) {
		p := b.get("/find?" + url.Values{"building": {fx.BuildingMadrid.String()}, "kind": {"desk"}, "date": {"2026-11-24"},
			"resource": {fx.DeskOne.String()}}.Encode())
		p.wantStatus(t, http.StatusOK)
		if n := p.count("#b-services fieldset"); n != 0 {
			t.Errorf("a desk's form has %d services fieldsets, want none", n)
		}
	})
}

func TestBookWithServices(t *testing.T) {
	t.Parallel()

	t.Run("ThreeDaysWithCoffee", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		form := tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24", "2026-11-25", "2026-11-26"), fx.ReservableCoffee, "3", "10:30")
		form.Set("comment-"+fx.ReservableCoffee.String(), "oat milk")
		p := b.post("/bookings", form)
		if p.url.Path != "/bookings" || p.url.Query().Get("booked") != "3" {
			t.Fatalf("after booking: at %s, want /bookings?booked=3; %s", p.url, p.text("main"))
		}
		want := []serviceContracts{ // newest first
			{Start: fx.At(3, 10, 0), Services: "Coffee ×3 at 10:30"},
			{Start: fx.At(2, 10, 0), Services: "Coffee ×3 at 10:30"},
			{Start: fx.At(1, 10, 0), Services: "Coffee ×3 at 10:30"},
		}
		got := findOwnBookings(t, pb, fx.Alice)
		if diff := cmp.Diff(want, contractsOf(got)); diff != "" {
			t.Errorf("bookings made (-want +got):\n%s", diff)
		}
		for _, bk := range got {
			if len(bk.Reservables) != 1 || bk.Reservables[0].Comment != "oat milk" {
				t.Errorf("booking of %s holds %+v, want coffee with the comment oat milk", bk.Start, bk.Reservables)
			}
		}
		p.wantText(t, "main", "Services: Coffee × 3")
	})

	t.Run("UsualTimeAfterTheEndComesAtTheStart", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		form := tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"), fx.ReservableAV, "", "")
		form.Set("to", "10:10")
		b.post("/bookings", form)
		want := []serviceContracts{{Start: fx.At(1, 10, 0), Services: "AV setup ×1 at 10:00"}}
		if diff := cmp.Diff(want, contractsOf(findOwnBookings(t, pb, fx.Alice))); diff != "" {
			t.Errorf("bookings made (-want +got):\n%s", diff)
		}
	})

	t.Run("AllDayFromNowKeepsTheChosenTime", func(t *testing.T) {
		// An all-day booking of today starts now (09:00), not when the room's window opens (08:00).
		// Coffee chosen for 12:00 comes at 12:00 on both days.
		t.Parallel()
		pb := setupPages(t)
		for _, q := range []string{
			`UPDATE resource_rules SET all_day_bookings = true WHERE id = '` + fx.RuleRoom.String() + `'`,
			`UPDATE reservables SET minimum_cancellation_ms = 0 WHERE id = '` + fx.ReservableCoffee.String() + `'`,
		} {
			if _, err := pb.Pool.Exec(t.Context(), q); err != nil {
				t.Fatal(err)
			}
		}
		b := pb.signedIn(t, fx.Alice)
		form := tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-23", "2026-11-24"), fx.ReservableCoffee, "2", "12:00")
		form.Set("allday", "on")
		p := b.post("/bookings", form)
		if p.url.Query().Get("booked") != "2" {
			t.Fatalf("after booking: at %s, want /bookings?booked=2; %s", p.url, p.text("main"))
		}
		want := []serviceContracts{ // newest first
			{Start: fx.At(1, 8, 0), Services: "Coffee ×2 at 12:00"},
			{Start: fx.At(0, 9, 0), Services: "Coffee ×2 at 12:00"},
		}
		if diff := cmp.Diff(want, contractsOf(findOwnBookings(t, pb, fx.Alice))); diff != "" {
			t.Errorf("bookings made (-want +got):\n%s", diff)
		}
	})

	t.Run("EachRoomThatOffersIt", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		form := tick(tick(bookForm([]uuid.UUID{fx.RoomGoya, fx.RoomVelazquez}, "2026-11-24"), fx.ReservableAV, "", ""), fx.ReservableCoffee, "2", "")
		p := b.hxPost("/bookings", form)
		p.wantStatus(t, http.StatusOK)
		got := map[uuid.UUID]string{}
		for _, bk := range findOwnBookings(t, pb, fx.Alice) {
			got[bk.Resource.ID] = contractsOf([]booking.Booking{bk})[0].Services
		}
		want := map[uuid.UUID]string{fx.RoomGoya: "AV setup ×1 at 10:15, Coffee ×2 at 10:00", fx.RoomVelazquez: "Coffee ×2 at 10:00"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("services by room (-want +got):\n%s", diff)
		}
	})
}

// TestBookWithServicesRefused checks that a refused service books nothing: no booking and no contract,
// and the form comes back with the reason in words and the services as they were ticked.
func TestBookWithServicesRefused(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	coffee := fx.ReservableCoffee
	refusals := []struct {
		name   string
		form   url.Values
		status int
		words  string
	}{
		{"QuantityZero", tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24", "2026-11-25"), coffee, "0", ""),
			http.StatusBadRequest, "Coffee: the quantity must be a whole number from 1 to 10000."},
		{"QuantityTooLarge", tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"), coffee, "10001", ""),
			http.StatusBadRequest, "Coffee: the quantity must be a whole number from 1 to 10000."},
		{"QuantityNotANumber", tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"), coffee, "three", ""),
			http.StatusBadRequest, "Coffee: the quantity must be a whole number from 1 to 10000."},
		{"DeliveryNotATime", tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"), coffee, "2", "soon"),
			http.StatusBadRequest, "Coffee: the delivery time must be a time of day such as 10:30."},
		{"DeliveryAfterTheEnd", tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"), coffee, "2", "11:30"),
			http.StatusBadRequest, "Coffee: the delivery time must lie between 10:00 and 11:00 Madrid time."},
		{"UnknownService", tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"), uuid.New(), "2", ""),
			http.StatusNotFound, "One of the ticked services is not offered by the chosen rooms."},
		{"NotAnID", url.Values{"resource": {fx.RoomGoya.String()}, "date": {"2026-11-24"}, "from": {"10:00"}, "to": {"11:00"}, "reservable": {"coffee"}},
			http.StatusNotFound, "One of the ticked services is not offered by the chosen rooms."},
		{"OtherOrganizationsService", tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"), fx.ReservableB, "2", ""),
			http.StatusNotFound, "One of the ticked services is not offered by the chosen rooms."},
		{"TooLate", tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-23", "2026-11-24"), coffee, "2", ""),
			http.StatusConflict, "Coffee needs 2 hours' notice: too late for Mon 23 Nov."},
		{"CommentTooLong", func() url.Values {
			v := tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"), coffee, "2", "")
			v.Set("comment-"+coffee.String(), strings.Repeat("x", 501))
			return v
		}(), http.StatusBadRequest, "Coffee: the comment has 501 characters, and at most 500 fit."},
		{"TooMany", func() url.Values {
			v := bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24")
			for range 21 {
				v.Add("reservable", coffee.String())
			}
			return v
		}(), http.StatusBadRequest, "21 services are ticked, and at most 20 can be ordered with a booking."},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			b := pb.signedIn(t, fx.Alice)
			p := b.hxPost("/bookings", tt.form)
			p.wantStatus(t, tt.status)
			p.wantText(t, ".booking-error", "Nothing was booked.", tt.words)
			if n := fx.TableCount(t, pb.Bundle, "bookings"); n != 0 {
				t.Errorf("bookings = %d rows, want 0", n)
			}
			if n := fx.TableCount(t, pb.Bundle, "booking_reservables"); n != 0 {
				t.Errorf("booking_reservables = %d rows, want 0", n)
			}
			if strings.Contains(p.body, "Globex") {
				t.Errorf("the answer names the other organization's service")
			}
		})
	}

	t.Run("FormKeepsTheTickedServices", func(t *testing.T) {
		b := pb.signedIn(t, fx.Alice)
		form := tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"), coffee, "0", "10:45")
		form.Set("comment-"+coffee.String(), "decaf")
		p := b.hxPost("/bookings", form)
		if _, ok := p.doc.Find(`input[name=reservable][value="` + coffee.String() + `"]`).Attr("checked"); !ok {
			t.Errorf("Coffee is no longer ticked")
		}
		for name, want := range map[string]string{"quantity": "0", "delivery": "10:45", "comment": "decaf"} {
			if got := p.attr(`input[name="`+name+`-`+coffee.String()+`"]`, "value"); got != want {
				t.Errorf("%s = %q, want %q as sent", name, got, want)
			}
		}
	})

	t.Run("AllOrNone", func(t *testing.T) {
		other := setupPages(t)
		findBook(t, other, fx.Bob, fx.RoomGoya, booking.CategorySpace, fx.At(2, 10, 30), fx.At(2, 11, 30))
		b := other.signedIn(t, fx.Alice)
		p := b.hxPost("/bookings", tick(bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24", "2026-11-25"), coffee, "3", ""))
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, ".booking-error", "Nothing was booked.", "Goya on Wednesday 25 November 2026")
		if n := len(findOwnBookings(t, other, fx.Alice)); n != 0 {
			t.Errorf("Alice has %d bookings, want none", n)
		}
		if n := fx.TableCount(t, other.Bundle, "booking_reservables"); n != 0 {
			t.Errorf("booking_reservables = %d rows, want 0", n)
		}
	})
}

// TestBookingPageFixedService checks that a service past its deadline reads as fixed on the booking's
// page, in words, instead of a greyed-out form.
func TestBookingPageFixedService(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	coffee := booking.ReservableOrder{ReservableID: fx.ReservableCoffee, Quantity: ptrTo(int32(3)), DeliveryTime: ptrTo(30 * time.Minute), Comment: "oat milk"}
	bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0), func(nb *booking.NewBooking) {
		nb.Reservables = []booking.ReservableOrder{coffee}
	})
	pb.Clock.Set(fx.At(1, 8, 30)) // Coffee closed at 08:00; AV setup stays open until 09:00
	p := pb.signedIn(t, fx.Alice).get("/bookings/" + bk.ID.String())
	p.wantText(t, ".service.fixed", "Coffee", "Ordered: 3, delivered at 10:30 Madrid time, “oat milk”.",
		"Fixed: changes closed 2 hours before the start (08:00 Madrid time).")
	if n := p.count("#services [disabled]"); n != 0 {
		t.Errorf("the services form has %d disabled elements, want none: a fixed service is words", n)
	}
	if got := p.attr(`#services input[name=keep]`, "value"); got != fx.ReservableCoffee.String() {
		t.Errorf("keep = %q, want the coffee kept as it is", got)
	}
	p.wantText(t, "#services fieldset.service", "AV setup")
}
