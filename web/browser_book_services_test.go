package web_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// TestBrowserBookRoomWithCoffee books a demo meeting room for three people on three days with coffee, in
// one form, on a phone and on a desktop. The search asks for 3 people (its address carries the
// search, as a link or the filters make it); the room's booking form offers Coffee service with a
// quantity of 3, and the three bookings each hold Coffee service × 3 at the delivery time chosen, inside
// the meeting.
func TestBrowserBookRoomWithCoffee(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	demo, err := layout.New(pb.Pool, pb.Service).LoadDemo(t.Context(), fx.Now)
	if err != nil {
		t.Fatalf("demo: %v", err)
	}
	for i, size := range []struct {
		name string
		w, h int
	}{{"phone", 390, 844}, {"desktop", 1440, 900}} {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			// Each size books its own week, so that the two never ask for the same room at once.
			var days []string
			for d := range 3 {
				days = append(days, fx.At(1+7*i+d, 0, 0).Format(time.DateOnly))
			}
			q := url.Values{"kind": {"room"}, "capacity": {"3"}, "date": days, "from": {"10:00"}, "to": {"11:00"}}
			b := newTabSized(t, pb.srv.URL, size.w, size.h)
			// The demo's employee, Lucía, reads the search and the booking form in Spanish.
			kioskBrowserSignIn(b, demo.Employee.ID, "/find?"+q.Encode())
			b.waitText("#results-h", "libre")

			// Tick the first free room; its booking form reads the services it offers.
			id, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(() => {
				const p = document.querySelector("#results input.pick");
				p.closest("li").scrollIntoView({block: "center"});
				return p.id;
			})()`))
			if err != nil || id == "" {
				t.Fatalf("find a free room: %q, %v", id, err)
			}
			room := strings.TrimPrefix(b.text(`label[for="`+id+`"]`), "Elegir ")
			b.do(chromedp.Click(chromedp.CSS("#" + id)))
			b.waitText("#booking-box", room, "Servicios", "Coffee service")
			b.waitSettled()

			line := `[...document.querySelectorAll("#b-services .service-line")].find(l => l.innerText.includes("Coffee service"))`
			quantity, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](line+`.querySelector("input[type=number]").value`))
			if err != nil || quantity != "3" {
				t.Errorf("Coffee service's quantity shows %q (%v), want 3, the people searched for", quantity, err)
			}
			b.wantNoSidewaysScroll("#booking-box")
			// Tick coffee and have it brought half an hour in.
			if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => {
				const l = `+line+`;
				l.querySelector("input[name=reservable]").click();
				l.querySelector("input[type=time]").value = "10:30";
				l.scrollIntoView({block: "center"});
				return true;
			})()`)); err != nil {
				t.Fatalf("tick coffee: %v", err)
			}
			b.waitSettled()
			if got, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](line+`.querySelector("input[type=time]").value`)); got != "10:30" {
				t.Fatalf("Coffee service's delivery shows %q after ticking, want 10:30 as typed", got)
			}
			b.viewportShot("book-services-form-" + size.name)
			b.copyShot("book-services-form-" + size.name)

			b.do(chromedp.Click(chromedp.CSS(`#booking-box form.booking-form button[type=submit]`)))
			// The demo's employee, Lucía, reads My bookings in Spanish.
			b.waitText("main", "3 reservas hechas.")
			b.waitText("main", "Servicios: Coffee service × 3")
			b.do(chromedp.ScrollIntoView(chromedp.CSS(".booking-card.just-booked")))
			b.viewportShot("book-services-list-" + size.name)
			b.copyShot("book-services-list-" + size.name)
			links, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".booking-card.just-booked h2 a")].map(a => a.getAttribute("href"))`))
			if err != nil || len(links) != 3 {
				t.Fatalf("just-booked cards link to %v (%v), want 3 bookings", links, err)
			}
			for j, link := range links {
				b.open(link)
				b.waitText("h1", room)
				b.waitText("#services .contracted", "Coffee service × 3", "entrega a las 10:30 hora de Madrid")
				b.waitText(".booking-when", "10:00–11:00")
				if j == 0 {
					b.axe("booking with coffee")
					b.do(chromedp.ScrollIntoView(chromedp.CSS("#services")))
					b.viewportShot("book-services-booking-" + size.name)
					b.copyShot("book-services-booking-" + size.name)
				}
			}
		})
	}
}

// wantNoSidewaysScroll fails the test if the element is wider than the screen or holds something wider
// than itself.
func (b *tab) wantNoSidewaysScroll(selector string) {
	b.t.Helper()
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		const r = e.getBoundingClientRect();
		if (r.right > document.documentElement.clientWidth + 1) return "right edge at " + r.right + " px";
		if (e.scrollWidth > e.clientWidth + 1) return "content " + e.scrollWidth + " px wide in " + e.clientWidth + " px";
		return "";
	})()`, selector)))
	if err != nil || got != "" {
		b.t.Errorf("%s does not fit the screen: %s %v", selector, got, err)
	}
}

// copyShot copies testdata/screens/name.png to the directory SHOTS names, when it is set, so that the
// screenshots can be looked at outside the repository.
func (b *tab) copyShot(name string) {
	dir := os.Getenv("SHOTS")
	if dir == "" {
		return
	}
	data, err := os.ReadFile(filepath.Join("testdata", "screens", name+".png"))
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name+".png"), data, 0o644)
	}
	if err != nil {
		b.t.Logf("copy screenshot %s: %v", name, err)
	}
}

// waitSettled waits until htmx has no request in flight and nothing left to swap or settle.
func (b *tab) waitSettled() {
	b.t.Helper()
	b.do(chromedp.Poll[chromedp.Void](`!document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling")`,
		chromedp.WithPollingTimeout(15*time.Second)))
}

// TestBrowserServiceFixed shows, on a phone, a booking whose coffee can no longer be changed: the line
// says so in words, and the services that are still open keep their form.
func TestBrowserServiceFixed(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	three, half := int32(3), 30*time.Minute
	bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0), func(nb *booking.NewBooking) {
		nb.Reservables = []booking.ReservableOrder{{ReservableID: fx.ReservableCoffee, Quantity: &three, DeliveryTime: &half}}
	})
	pb.Clock.Set(fx.At(1, 8, 30))
	b := newTabSized(t, pb.srv.URL, 390, 844)
	kioskBrowserSignIn(b, fx.Alice, "/bookings/"+bk.ID.String())
	b.waitText("#services .service.fixed", "Fixed: changes closed 2 hours before the start (08:00 Madrid time).")
	b.do(chromedp.ScrollIntoView(chromedp.CSS("#services .service.fixed")))
	b.axe("booking with a fixed service")
	b.viewportShot("book-services-fixed-phone")
	b.copyShot("book-services-fixed-phone")
}
