package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// Employees see a closed resource as closed, with the reason, on the search and on its poster page.
func TestPagesShowClosures(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	closures := []layout.LayoutClosure{
		{ID: "00000000-0000-4000-8000-000000009001", OrganizationID: fx.OrgA.String(), ResourceID: fx.RoomGoya.String(),
			StartDate: fx.At(1, 0, 0).UnixMilli(), EndDate: fx.At(2, 0, 0).UnixMilli(), Reason: "Painting"},
		{ID: "00000000-0000-4000-8000-000000009002", OrganizationID: fx.OrgA.String(), ResourceID: fx.RoomVelazquez.String(),
			StartDate: fx.At(0, 8, 0).UnixMilli(), EndDate: fx.At(0, 12, 0).UnixMilli(), Reason: "Carpet cleaning"},
	}
	if _, err := layout.New(pb.Pool, pb.Service).Import(t.Context(), layout.Layout{Closures: closures}); err != nil {
		t.Fatal(err)
	}
	b := pb.signedIn(t, fx.Alice)

	t.Run("Find", func(t *testing.T) {
		p := b.get(findPath("kind", "room", "date", "2026-11-24", "from", "10:00", "to", "11:00"))
		p.wantStatus(t, http.StatusOK)
		free, _ := resultNames(p)
		if got, want := strings.Join(free, ","), "Boardroom,Velázquez"; got != want {
			t.Errorf("free rooms = %s, want %s", got, want)
		}
		if got, want := squash(findResult(p, "Goya").Find(".until").Text()), "Unavailable — Closed: Painting"; got != want {
			t.Errorf("Goya: %q, want %q", got, want)
		}
	})

	t.Run("Poster", func(t *testing.T) {
		p := b.get("/p/MAD-R2")
		p.wantStatus(t, http.StatusOK)
		if got, want := squash(p.doc.Text()), "Closed: Carpet cleaning (from 08:00 to 12:00 Madrid time on Mon 23 Nov)"; !strings.Contains(got, want) {
			t.Errorf("poster page does not say %q:\n%s", want, got)
		}
	})
}

// The API refuses a booking, or a change, into a closure with 409 4014, whose detail gives the reason.
func TestAPIClosures(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	id := aliceGoyaTomorrow(t, tb) // Tue 24 Nov 10:00–11:00, before the closure
	closures := []layout.LayoutClosure{{ID: "00000000-0000-4000-8000-000000009001", OrganizationID: fx.OrgA.String(),
		BuildingID: fx.BuildingMadrid.String(), StartDate: fx.At(2, 0, 0).UnixMilli(), EndDate: fx.At(3, 0, 0).UnixMilli(), Reason: "Holiday"}}
	if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Closures: closures}); err != nil {
		t.Fatal(err)
	}
	const codeResourceClosed = booking.Code(4014)

	r := tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, fx.At(2, 10, 0), fx.At(2, 11, 0))})
	p := wantProblem(t, r, http.StatusConflict, codeResourceClosed, 0)
	wantValue(t, "detail", p["detail"], "Goya is closed on Wed 25 Nov: Holiday")

	r = tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id), map[string]any{"startDate": millis(fx.At(2, 10, 0)), "endDate": millis(fx.At(2, 11, 0))})
	p = wantProblem(t, r, http.StatusConflict, codeResourceClosed, noIndex)
	wantValue(t, "detail", p["detail"], "Goya is closed on Wed 25 Nov: Holiday")
	tb.wantRows(t, "bookings", 1)
}
