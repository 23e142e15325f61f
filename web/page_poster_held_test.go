package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestPosterDeskAlreadyHeld opens a desk's poster as someone who already has another desk that day. A
// person holds one desk at a time, so the page says which desk they have before it offers anything, and
// offers a booking only for the time before that desk's booking starts.
func TestPosterDeskAlreadyHeld(t *testing.T) {
	t.Parallel()
	ends := func(p htmlPage) []string {
		var out []string
		p.doc.Find("form[action='/p/MAD-D1/book'] input[name=until]").Each(func(_ int, s *goquery.Selection) {
			v, _ := s.Attr("value")
			out = append(out, v)
		})
		return out
	}
	t.Run("HeldNow", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		findBook(t, pb, fx.Alice, fx.DeskTwo, booking.CategoryWorkstation, fx.At(0, 9, 0), fx.At(0, 18, 0))
		alice := pb.signedIn(t, fx.Alice)
		p := alice.get("/p/MAD-D1")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#resource-status", "Free")
		p.wantText(t, ".held", "You already have Desk 2 from 09:00 to 18:00 Madrid time on Mon 23 Nov.")
		if got := p.attr(".held a", "href"); got != "/bookings" {
			t.Errorf("the note links to %q, want My bookings", got)
		}
		if n := p.count("form[action='/p/MAD-D1/book']"); n != 0 {
			t.Errorf("Book now is offered to someone who holds a desk now")
		}
		// Bob has no desk: the poster offers him the booking, and says nothing of a desk held.
		bob := pb.signedIn(t, fx.Bob).get("/p/MAD-D1")
		if bob.count(".held") != 0 || bob.count("form[action='/p/MAD-D1/book'] button") != 1 {
			t.Errorf("Bob, who has no desk: held note %d, Book now %d; want none and one", bob.count(".held"), bob.count("form[action='/p/MAD-D1/book'] button"))
		}
	})
	t.Run("HeldLater", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		findBook(t, pb, fx.Alice, fx.DeskTwo, booking.CategoryWorkstation, fx.At(0, 11, 0), fx.At(0, 18, 0))
		alice := pb.signedIn(t, fx.Alice)
		p := alice.get("/p/MAD-D1")
		p.wantText(t, ".held", "You already have Desk 2 from 11:00 to 18:00 Madrid time on Mon 23 Nov", "until 11:00")
		got, want := ends(p), []string{rfc3339(fx.At(0, 9, 30)), rfc3339(fx.At(0, 10, 0)), rfc3339(fx.At(0, 11, 0))}
		if len(got) != len(want) {
			t.Fatalf("ends offered = %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("end %d = %s, want %s", i, got[i], want[i])
			}
		}
		// The longest end offered is booked.
		p = alice.post("/p/MAD-D1/book", url.Values{"until": {want[len(want)-1]}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".kiosk-outcome", "Booked for you and checked in until 11:00 Madrid time.")
	})
}

// TestBrowserPosterDeskAlreadyHeld shows a desk's poster on a phone to someone who already has another
// desk: the note is on the screen, without a Book button.
func TestBrowserPosterDeskAlreadyHeld(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	findBook(t, pb, fx.Alice, fx.DeskTwo, booking.CategoryWorkstation, fx.At(0, 9, 0), fx.At(0, 18, 0))
	const w, h = 390, 844
	phone := newTabSized(t, pb.srv.URL, w, h)
	kioskBrowserSignIn(phone, fx.Alice, "/p/MAD-D1")
	phone.waitText(".held", "You already have Desk 2")
	phone.wantOnScreen(".held a", w, h)
	phone.axe("poster-held")
	phone.viewportShot("poster-held")
}
