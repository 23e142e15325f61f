package web_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

func internal(ids ...uuid.UUID) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = map[string]any{"type": "REQUIRED", "user": map[string]any{"id": id.String()}}
	}
	return out
}

func external(emails ...string) []any {
	out := make([]any, len(emails))
	for i, e := range emails {
		out[i] = map[string]any{"type": "OPTIONAL", "email": e}
	}
	return out
}

func guests(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("guest%d@example.com", i)
	}
	return out
}

func TestBookingAttendeesAreBounded(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	room := func(kv ...any) []any {
		e := spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		for i := 0; i+1 < len(kv); i += 2 {
			e[kv[i].(string)] = kv[i+1]
		}
		return []any{spaceBooking(fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0)), e}
	}
	tests := []struct {
		name   string
		body   []any
		status int
		code   booking.Code
		detail string
	}{
		{"SameUserTwice", room("internalAttendees", internal(fx.Bob, fx.Rita, fx.Bob)), http.StatusBadRequest, booking.CodeInvalidRequest,
			"internalAttendees[2].user.id: " + fx.Bob.String() + " is already listed as internalAttendees[0]; list each person once"},
		{"SameEmailTwiceInAnotherCase", room("externalAttendees", external("ann@example.com", "Ann@Example.COM")), http.StatusBadRequest, booking.CodeInvalidRequest,
			"externalAttendees[1].email: Ann@Example.COM is already listed as externalAttendees[0]; list each guest once"},
		{"MoreThanAHundredTogether", room("internalAttendees", internal(fx.Bob), "externalAttendees", external(guests(100)...)), http.StatusBadRequest, booking.CodeInvalidRequest,
			"internalAttendees and externalAttendees: 101 attendees; at most 100 per booking, internal and external together"},
		{"AUserOfAnotherOrganization", room("internalAttendees", internal(fx.Bob, fx.Boris)), http.StatusNotFound, booking.CodeUserNotFound,
			"internalAttendees[1]: no user " + fx.Boris.String() + " in your organization"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), tt.body)
			p := wantProblem(t, r, tt.status, tt.code, 1)
			wantValue(t, "detail", p["detail"], tt.detail)
			tb.wantRows(t, "bookings", 0)
			tb.wantRows(t, "booking_attendees", 0)
		})
	}
	t.Run("AHundredTogetherIsFine", func(t *testing.T) {
		created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), room("internalAttendees", internal(fx.Bob), "externalAttendees", external(guests(99)...))), 2)
		tb.wantRows(t, "booking_attendees", 100)
	})
}
