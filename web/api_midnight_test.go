package web_test

import (
	"net/http"
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestBookingAcrossMidnight checks that a booking may cross midnight when the rule's hours are open on
// both sides (the desks' rule is open 00:00–24:00), and that the rooms' 08:00–20:00 rule still refuses it.
func TestBookingAcrossMidnight(t *testing.T) {
	t.Parallel()

	t.Run("WalkUpAt2320UntilTwentyPastMidnight", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		tb.Clock.Set(fx.At(0, 23, 20))
		b := created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskOne, fx.At(0, 23, 20), fx.At(1, 0, 21))}), 1)[0]
		wantInt(t, "duration", b["duration"], 61*60*1000)
		// The desk is busy on both sides of midnight.
		r := tb.call(t, fx.Bob, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskOne, fx.At(1, 0, 0), fx.At(1, 1, 0))})
		wantProblem(t, r, http.StatusConflict, booking.CodeResourceNotAvailable, 0)
	})

	t.Run("MoreThanADayIs4004", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskOne, fx.At(1, 12, 0), fx.At(2, 13, 0))})
		p := wantProblem(t, r, http.StatusConflict, booking.CodeDurationExceedsMaximum, 0)
		wantValue(t, "detail", p["detail"], "the booking lasts 25h; one that crosses midnight lasts at most 24h")
		tb.wantRows(t, "bookings", 0)
	})

	t.Run("ARoomClosedAtNightIs4003", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		tb.Clock.Set(fx.At(0, 19, 0))
		r := tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, fx.At(0, 19, 30), fx.At(0, 20, 30))})
		wantProblem(t, r, http.StatusConflict, booking.CodeDateOutsideResourceHours, 0)
	})

	t.Run("MovedAcrossMidnight", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskOne, fx.At(1, 20, 0), fx.At(1, 22, 0))}), 1)[0]["id"].(string)
		b := detail(t, tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id), map[string]any{"endDate": fx.At(2, 2, 0).UnixMilli()}), http.StatusOK)
		wantInt(t, "endDate", b["endDate"], fx.At(2, 2, 0).UnixMilli())
	})
}
