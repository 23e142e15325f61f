package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// These tests cover the poster page as seen by the person holding the phone. It shows their own booking
// as theirs, offers check-in only when it can succeed, checks in at once when it books, and offers the
// same booking lengths as the kiosk.

func TestPosterOwnBooking(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	// Alice's Goya booking, 12:00–13:00. Check-in opens 10 minutes before the start and closes 15 minutes
	// after it.
	findBook(t, pb, fx.Alice, fx.RoomGoya, booking.CategorySpace, fx.At(0, 12, 0), fx.At(0, 13, 0))
	alice, bob := pb.signedIn(t, fx.Alice), pb.signedIn(t, fx.Bob)

	p := alice.get("/p/MAD-R1")
	p.wantText(t, "#resource-status", "Free until 12:00 Madrid time")
	p.wantText(t, "#own-booking", "Yours, from 12:00 to 13:00 — check in from 11:50")
	if p.count("form[action='/p/MAD-R1/checkin']") != 0 {
		t.Errorf("check-in is offered before it opens")
	}

	pb.Clock.Set(fx.At(0, 11, 55))
	p = alice.get("/p/MAD-R1")
	p.wantText(t, "#own-booking", "Yours, from 12:00 to 13:00 — check in by 12:15")
	if p.count("form[action='/p/MAD-R1/checkin'] button") != 1 {
		t.Errorf("check-in is not offered while it is open")
	}
	if n := bob.get("/p/MAD-R1").count("form[action='/p/MAD-R1/checkin']"); n != 0 {
		t.Errorf("check-in is offered to bob, who has no booking here")
	}

	pb.Clock.Set(fx.At(0, 12, 5))
	p = alice.get("/p/MAD-R1")
	p.wantText(t, "#resource-status", "Yours, from 12:00 to 13:00 — check in by 12:15")
	p.wantNoText(t, "main", "Busy")
	alice.post("/p/MAD-R1/checkin", url.Values{}).wantStatus(t, http.StatusOK)
	p = alice.get("/p/MAD-R1")
	p.wantText(t, "#resource-status", "Yours, checked in until 13:00")
	p.wantNoText(t, "main", "Busy")
	if p.count("form[action='/p/MAD-R1/checkin']")+p.count("form[action='/p/MAD-R1/book']") != 0 {
		t.Errorf("a checked-in booking still offers check-in or book now")
	}
	bob.get("/p/MAD-R1").wantText(t, "#resource-status", "Busy until 13:00 Madrid time — booked by alice Archer")
}

func TestPosterBookChecksIn(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	alice := pb.signedIn(t, fx.Alice)
	p := alice.get("/p/MAD-R1")
	// The kiosk's lengths: 30 minutes, 1 hour, 2 hours, and the longest allowed (4 hours, until 13:00).
	var got []string
	p.doc.Find("form[action='/p/MAD-R1/book'] input[name=until]").Each(func(_ int, s *goquery.Selection) {
		v, _ := s.Attr("value")
		got = append(got, v)
	})
	want := []string{rfc3339(fx.At(0, 9, 30)), rfc3339(fx.At(0, 10, 0)), rfc3339(fx.At(0, 11, 0)), rfc3339(fx.At(0, 13, 0))}
	if len(got) != len(want) {
		t.Fatalf("lengths offered = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("length %d = %s, want %s", i, got[i], want[i])
		}
	}
	p = alice.post("/p/MAD-R1/book", url.Values{"until": {rfc3339(fx.At(0, 10, 0))}})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".kiosk-outcome", "Booked for you and checked in until 10:00 Madrid time.")
	p.wantText(t, "#resource-status", "Yours, checked in until 10:00")
	if got := countBookings(t, pb, "organizer_id = $1 AND status = 'ACTIVE' AND end_date = $2", fx.Alice, fx.At(0, 10, 0)); got != 1 {
		t.Errorf("active bookings of alice until 10:00 = %d, want 1", got)
	}
}

// TestBrowserPosterOwn uses a phone at a poster. A booking made elsewhere shows as the person's own and can
// be checked in from the poster; booking another room from its poster checks in at once.
func TestBrowserPosterOwn(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	findBook(t, pb, fx.Alice, fx.RoomGoya, booking.CategorySpace, fx.At(0, 9, 0), fx.At(0, 10, 0))
	phone := newTabSized(t, pb.srv.URL, 390, 844)
	kioskBrowserSignIn(phone, fx.Alice, "/p/MAD-R1")
	phone.waitText("#resource-status", "Yours, from 09:00 to 10:00 — check in by 09:15")
	phone.do(chromedp.Click(chromedp.CSS("form[action='/p/MAD-R1/checkin'] button")))
	phone.waitText("#resource-status", "Yours, checked in until 10:00")
	if s := phone.text("main"); strings.Contains(s, "Busy") {
		t.Errorf("the poster of her own booking says Busy: %s", s)
	}
	phone.check("poster-own")

	phone.open("/p/MAD-R2")
	phone.waitText("h1", "Velázquez")
	phone.do(
		chromedp.Click(chromedp.CSS(`form[action='/p/MAD-R2/book'] input[name=until][value="`+rfc3339(fx.At(0, 9, 30))+`"]`)),
		chromedp.Click(chromedp.CSS("form[action='/p/MAD-R2/book'] button")),
	)
	phone.waitText(".kiosk-outcome", "Booked for you and checked in until 09:30 Madrid time.")
	phone.waitText("#resource-status", "Yours, checked in until 09:30")
	phone.check("poster-booked")
}

// TestPosterBookAndCheckInAllOrNothing checks that booking from the poster and checking in happen together.
// If the check-in fails, nothing is booked, and trying again books and checks in.
func TestPosterBookAndCheckInAllOrNothing(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	alice := pb.signedIn(t, fx.Alice)
	// Make the database refuse every check-in, as if it failed underneath the service.
	if _, err := pb.Pool.Exec(t.Context(), `
CREATE FUNCTION refuse_check_in() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'check-in fails';
END $$;
CREATE TRIGGER refuse_check_in BEFORE UPDATE ON bookings
    FOR EACH ROW WHEN (NEW.status = 'ACTIVE') EXECUTE FUNCTION refuse_check_in();`); err != nil {
		t.Fatal(err)
	}
	p := alice.post("/p/MAD-R1/book", url.Values{"until": {rfc3339(fx.At(0, 10, 0))}})
	p.wantStatus(t, http.StatusInternalServerError)
	if got := countBookings(t, pb, "organizer_id = $1", fx.Alice); got != 0 {
		t.Errorf("bookings of alice after the failed check-in = %d, want 0", got)
	}
	if _, err := pb.Pool.Exec(t.Context(), "DROP TRIGGER refuse_check_in ON bookings"); err != nil {
		t.Fatal(err)
	}
	p = alice.post("/p/MAD-R1/book", url.Values{"until": {rfc3339(fx.At(0, 10, 0))}})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".kiosk-outcome", "Booked for you and checked in until 10:00 Madrid time.")
}
