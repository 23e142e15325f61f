package web_test

import (
	"cmp"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// These tests cover a booking's lifecycle over HTTP: reading it, checking in (by ID and by poster code),
// releasing, cancelling, approving or rejecting, and changing it. Every transition responds with the
// booking in the same shape as GET /bookings/{id} (bookingDetailDTO).

var (
	// detailKeys are the keys of a booking returned by GET /bookings/{id}: those of the interface's
	// Booking, plus allDay, the check-in window and the contracted reservables.
	detailKeys   = append(slices.Clone(bookingKeys), "allDay", "checkIn", "bookingReservableList")
	intervalKeys = []string{"startDate", "endDate"}
)

// bookingPath returns /api/v1/bookings/{id}, followed by the action if one is given (checkin, checkout,
// approval).
func bookingPath(id string, action ...string) string {
	return strings.Join(append([]string{api + "/bookings/" + id}, action...), "/")
}

func posterCheckInPath(user, posterCode string) string {
	return api + "/users/" + user + "/resources/checkin?postercode=" + posterCode
}

// detail checks the response's status and that its body has exactly the shape of a booking, and
// returns the booking.
func detail(t *testing.T, r reply, status int) map[string]any {
	t.Helper()
	wantStatus(t, r, status)
	return wantDetailShape(t, "booking", r.object(t))
}

// wantDetailShape checks that v has exactly the keys of a booking, including the keys of its check-in
// window and of each contracted reservable.
func wantDetailShape(t *testing.T, where string, v any) map[string]any {
	t.Helper()
	b := wantKeys(t, where, v, detailKeys...)
	wantKeys(t, where+".checkIn", b["checkIn"], intervalKeys...)
	for i, e := range array(t, where+".bookingReservableList", b["bookingReservableList"]) {
		br := wantKeys(t, fmt.Sprintf("%s.bookingReservableList[%d]", where, i), e, bookingReservableKeys...)
		wantKeys(t, fmt.Sprintf("%s.bookingReservableList[%d].reservable", where, i), br["reservable"], reservableKeys...)
	}
	return b
}

// get fetches a booking as the user and fails the test unless that succeeds.
func (tb *testBundle) get(t *testing.T, as uuid.UUID, id string) map[string]any {
	t.Helper()
	return detail(t, tb.call(t, as, http.MethodGet, bookingPath(id), nil), http.StatusOK)
}

// wantStatusOf checks a booking's status, fetched as Alice, its organizer.
func (tb *testBundle) wantStatusOf(t *testing.T, id, want string) {
	t.Helper()
	wantValue(t, "status of "+id, tb.get(t, fx.Alice, id)["status"], want)
}

// checkIn sets the clock to at and checks Alice in to her booking. The check-in must succeed.
func (tb *testBundle) checkIn(t *testing.T, id string, at time.Time) {
	t.Helper()
	tb.Clock.Set(at)
	b := detail(t, tb.call(t, fx.Alice, http.MethodPost, bookingPath(id, "checkin"), nil), http.StatusOK)
	wantValue(t, "status", b["status"], "ACTIVE")
}

// bookWith creates one space booking through the API, with the extra fields in kv, and returns its ID.
func (tb *testBundle) bookWith(t *testing.T, as, resource uuid.UUID, start, end time.Time, kv ...any) string {
	t.Helper()
	e := spaceBooking(resource, start, end)
	for i := 0; i+1 < len(kv); i += 2 {
		e[kv[i].(string)] = kv[i+1]
	}
	b := created(t, tb.call(t, as, http.MethodPost, bookingsPath("me"), []any{e}), 1)[0]
	return b["id"].(string)
}

func invite(users ...uuid.UUID) []any {
	out := make([]any, len(users))
	for i, u := range users {
		out[i] = map[string]any{"type": "REQUIRED", "user": map[string]any{"id": u.String()}}
	}
	return out
}

func TestGetBooking(t *testing.T) {
	t.Parallel()

	t.Run("ShapeAndValues", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		start, end := fx.At(1, 10, 0), fx.At(1, 12, 0)
		id := tb.book(t, fx.Alice, fx.RoomGoya, start, end)
		contracted(t, tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), contract(id,
			order(fx.ReservableCoffee, "quantity", 2, "comment", "decaf"))), id, 1)

		b := tb.get(t, fx.Alice, id)
		wantKeys(t, "supervisedBooking", b["supervisedBooking"])
		wantKeys(t, "body", b["body"], "content", "bodyType")
		wantUser(t, "creator", b["creator"], fx.Alice, "alice", "Archer")
		wantUser(t, "organizer", b["organizer"], fx.Alice, "alice", "Archer")
		wantKeys(t, "resource", b["resource"], bookedResourceKeys...)
		wantKeys(t, "resource.floor", field(b, "resource.floor"), floorKeys...)
		wantKeys(t, "resource.subcategory", field(b, "resource.subcategory"), subcategoryKeys...)
		wantKeys(t, "resource.resourceRule", field(b, "resource.resourceRule"), ruleKeysAllDay...)
		wantFields(t, "booking", b, map[string]any{
			"id": id, "startDate": num(start.UnixMilli()), "endDate": num(end.UnixMilli()), "duration": num(2 * hourMs),
			"status": "PENDING", "accessControlType": "ANY", "subject": "Team sync", "importance": "LOW",
			"resourceType": "SPACE", "buildingAccessStatus": "PENDING", "body.content": "Weekly planning",
			"resource.id": fx.RoomGoya.String(), "allDay": false,
			// The room rule opens check-in 10 minutes before the start and closes it 15 minutes after.
			"checkIn": map[string]any{"startDate": num(fx.At(1, 9, 50).UnixMilli()), "endDate": num(fx.At(1, 10, 15).UnixMilli())},
		})

		list := array(t, "bookingReservableList", b["bookingReservableList"])
		if len(list) != 1 {
			t.Fatalf("bookingReservableList = %v, want the coffee", list)
		}
		wantFields(t, "coffee", list[0], map[string]any{
			"reservable.id": fx.ReservableCoffee.String(), "quantity": num(2), "comment": "decaf",
			"minimumCancellationMs": num(2 * hourMs),
		})
	})

	t.Run("NoReservablesIsAnEmptyList", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		r := tb.call(t, fx.Alice, http.MethodGet, bookingPath(id), nil)
		detail(t, r, http.StatusOK)
		if !strings.Contains(string(r.body), `"bookingReservableList":[]`) {
			t.Errorf("body = %s, want an empty bookingReservableList, not null", r.body)
		}
	})

	t.Run("WhoMaySeeIt", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		// Rita books for Alice and invites Bob. The organizer, the creator, the attendee and the admin can
		// all see the booking.
		e := spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		e["internalAttendees"] = invite(fx.Bob)
		b := created(t, tb.call(t, fx.Rita, http.MethodPost, bookingsPath(fx.Alice.String()), []any{e}), 1)[0]
		id := b["id"].(string)
		for _, as := range []uuid.UUID{fx.Alice, fx.Rita, fx.Bob, fx.Adam} {
			wantValue(t, "id", tb.get(t, as, id)["id"], id)
		}
	})

	for _, tc := range []struct {
		name   string
		as     uuid.UUID
		id     func(t *testing.T, tb *testBundle) string
		status int
		code   booking.Code
		detail []string
	}{
		{name: "AnotherEmployee", as: fx.Bob, id: func(t *testing.T, tb *testBundle) string {
			return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		}, status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "OtherOrganization", as: fx.Boris, id: func(t *testing.T, tb *testBundle) string {
			return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		}, status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "Unknown", as: fx.Alice, id: func(t *testing.T, tb *testBundle) string { return uuid.NewString() },
			status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "NotAUUID", as: fx.Alice, id: func(t *testing.T, tb *testBundle) string { return "42" },
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"bookingId"}},
		{name: "NoToken", id: func(t *testing.T, tb *testBundle) string {
			return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		}, status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			r := tb.call(t, tc.as, http.MethodGet, bookingPath(tc.id(t, tb)), nil)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
		})
	}
}

// TestCheckIn uses a booking of Goya today 10:00–11:00, made at 09:00. Its check-in window opens at
// 09:50 and closes at 10:15 (10:15 itself is outside).
func TestCheckIn(t *testing.T) {
	t.Parallel()
	today := func(t *testing.T, tb *testBundle) string {
		return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
	}

	t.Run("OpensActive", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := today(t, tb)
		tb.Clock.Set(fx.At(0, 9, 50)) // the window's first moment
		b := detail(t, tb.call(t, fx.Alice, http.MethodPost, bookingPath(id, "checkin"), nil), http.StatusOK)
		wantValue(t, "id", b["id"], id)
		wantValue(t, "status", b["status"], "ACTIVE")
		wantInt(t, "startDate", b["startDate"], fx.At(0, 10, 0).UnixMilli())
		wantInt(t, "endDate", b["endDate"], fx.At(0, 11, 0).UnixMilli())
		tb.wantStatusOf(t, id, "ACTIVE")

		// Checking in again succeeds and returns the booking unchanged.
		tb.Clock.Set(fx.At(0, 10, 30))
		b = detail(t, tb.call(t, fx.Alice, http.MethodPost, bookingPath(id, "checkin"), nil), http.StatusOK)
		wantValue(t, "status", b["status"], "ACTIVE")
	})

	t.Run("LastMomentOfTheWindow", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := today(t, tb)
		tb.checkIn(t, id, fx.At(0, 10, 15).Add(-time.Millisecond))
	})

	t.Run("ReceptionistForAlice", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := today(t, tb)
		tb.Clock.Set(fx.At(0, 10, 0))
		b := detail(t, tb.call(t, fx.Rita, http.MethodPost, bookingPath(id, "checkin"), nil), http.StatusOK)
		wantValue(t, "status", b["status"], "ACTIVE")
	})

	for _, tc := range []struct {
		name    string
		as      uuid.UUID
		prepare func(t *testing.T, tb *testBundle) string // creates the booking and sets the clock
		status  int
		code    booking.Code
		detail  []string
	}{
		{name: "BeforeTheWindow", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := today(t, tb)
			tb.Clock.Set(fx.At(0, 9, 50).Add(-time.Millisecond))
			return id
		}, status: http.StatusConflict, code: booking.CodeCheckInNotOpenYet, detail: []string{"09:50"}},
		{name: "AfterTheWindow", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := today(t, tb)
			tb.Clock.Set(fx.At(0, 10, 15))
			return id
		}, status: http.StatusConflict, code: booking.CodeCheckInClosed, detail: []string{"10:15"}},
		{name: "Cancelled", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := today(t, tb)
			detail(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(id), nil), http.StatusOK)
			tb.Clock.Set(fx.At(0, 10, 0))
			return id
		}, status: http.StatusConflict, code: booking.CodeBookingNotModifiable, detail: []string{"CANCELLED"}},
		{name: "WaitingApproval", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := tb.book(t, fx.Alice, fx.RoomBoard, fx.At(0, 10, 0), fx.At(0, 11, 0))
			tb.Clock.Set(fx.At(0, 10, 0))
			return id
		}, status: http.StatusConflict, code: booking.CodeBookingNotModifiable, detail: []string{"WAITING_APPROVAL"}},
		{name: "AnotherEmployeesBooking", as: fx.Bob, prepare: func(t *testing.T, tb *testBundle) string {
			id := today(t, tb)
			tb.Clock.Set(fx.At(0, 10, 0))
			return id
		}, status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "AttendeeIsNotTheOrganizer", as: fx.Bob, prepare: func(t *testing.T, tb *testBundle) string {
			id := tb.bookWith(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0), "internalAttendees", invite(fx.Bob))
			tb.Clock.Set(fx.At(0, 10, 0))
			return id
		}, status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "OtherOrganization", as: fx.Boris, prepare: func(t *testing.T, tb *testBundle) string {
			id := today(t, tb)
			tb.Clock.Set(fx.At(0, 10, 0))
			return id
		}, status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "Unknown", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			return uuid.NewString()
		}, status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "NotAUUID", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			return "goya"
		}, status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"bookingId"}},
		{name: "NoToken", prepare: func(t *testing.T, tb *testBundle) string {
			return today(t, tb)
		}, status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			id := tc.prepare(t, tb)
			r := tb.call(t, tc.as, http.MethodPost, bookingPath(id, "checkin"), nil)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
			tb.wantNoneActive(t)
		})
	}
}

func TestCheckInByPosterCode(t *testing.T) {
	t.Parallel()
	// open books Goya (poster MAD-R1) for Alice today 10:00–11:00 and sets the clock inside its check-in
	// window.
	open := func(t *testing.T, tb *testBundle) string {
		t.Helper()
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
		tb.Clock.Set(fx.At(0, 9, 55))
		return id
	}

	for _, tc := range []struct {
		name, user string
		as         uuid.UUID
	}{
		{"Me", "me", fx.Alice},
		{"OwnUserID", fx.Alice.String(), fx.Alice},
		{"ReceptionistForAlice", fx.Alice.String(), fx.Rita},
		{"AdminForAlice", fx.Alice.String(), fx.Adam},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			// Check-in must not pick Alice's booking of another room, or her Goya booking tomorrow.
			other := tb.book(t, fx.Alice, fx.RoomVelazquez, fx.At(0, 10, 0), fx.At(0, 11, 0))
			later := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
			id := open(t, tb)
			b := detail(t, tb.call(t, tc.as, http.MethodPost, posterCheckInPath(tc.user, "MAD-R1"), nil), http.StatusOK)
			wantValue(t, "id", b["id"], id)
			wantValue(t, "status", b["status"], "ACTIVE")
			wantUser(t, "organizer", b["organizer"], fx.Alice, "alice", "Archer")
			tb.wantStatusOf(t, other, "PENDING")
			tb.wantStatusOf(t, later, "PENDING")

			// Scanning the poster again succeeds and changes nothing.
			b = detail(t, tb.call(t, tc.as, http.MethodPost, posterCheckInPath(tc.user, "MAD-R1"), nil), http.StatusOK)
			wantValue(t, "status", b["status"], "ACTIVE")
		})
	}

	for _, tc := range []struct {
		name, user, path string // if set, used instead of posterCheckInPath(user, "MAD-R1")
		as               uuid.UUID
		prepare          func(t *testing.T, tb *testBundle)
		status           int
		code             booking.Code
		detail           []string
	}{
		{name: "MissingPosterCode", as: fx.Alice, path: api + "/users/me/resources/checkin",
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"postercode"}},
		{name: "EmptyPosterCode", as: fx.Alice, path: posterCheckInPath("me", ""),
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"postercode"}},
		{name: "UnknownPosterCode", as: fx.Alice, path: posterCheckInPath("me", "MAD-XX"),
			status: http.StatusNotFound, code: booking.CodeResourceNotFound, detail: []string{"MAD-XX"}},
		{name: "NoBookingAtAll", as: fx.Alice,
			status: http.StatusNotFound, code: booking.CodeNoBookingToCheckIn},
		{name: "WindowNotOpenYet", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) {
			tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0)) // clock still at 09:00, before the window
		}, status: http.StatusNotFound, code: booking.CodeNoBookingToCheckIn},
		{name: "WindowClosed", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) {
			tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
			tb.Clock.Set(fx.At(0, 10, 15))
		}, status: http.StatusNotFound, code: booking.CodeNoBookingToCheckIn},
		{name: "ColleagueScansAlicesRoom", as: fx.Bob, prepare: func(t *testing.T, tb *testBundle) { open(t, tb) },
			status: http.StatusNotFound, code: booking.CodeNoBookingToCheckIn},
		{name: "OtherOrganizationsSamePosterCode", as: fx.Boris, prepare: func(t *testing.T, tb *testBundle) { open(t, tb) },
			status: http.StatusNotFound, code: booking.CodeNoBookingToCheckIn},
		{name: "EmployeeForAnotherUser", as: fx.Bob, user: fx.Alice.String(), prepare: func(t *testing.T, tb *testBundle) { open(t, tb) },
			status: http.StatusForbidden, code: booking.CodeForbidden},
		{name: "ReceptionistForUnknownUser", as: fx.Rita, user: uuid.NewString(), prepare: func(t *testing.T, tb *testBundle) { open(t, tb) },
			status: http.StatusNotFound, code: booking.CodeUserNotFound},
		{name: "ReceptionistForOtherOrganization", as: fx.Rita, user: fx.Boris.String(),
			status: http.StatusNotFound, code: booking.CodeUserNotFound},
		{name: "UserIDNotAUUID", as: fx.Rita, user: "alice",
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"userId"}},
		{name: "NoToken", prepare: func(t *testing.T, tb *testBundle) { open(t, tb) },
			status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			if tc.prepare != nil {
				tc.prepare(t, tb)
			}
			user := cmp.Or(tc.user, "me")
			path := cmp.Or(tc.path, posterCheckInPath(user, "MAD-R1"))
			r := tb.call(t, tc.as, http.MethodPost, path, nil)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
			tb.wantNoneActive(t)
		})
	}
}

// wantNoneActive checks that no booking is checked in. Tests call it after a refused check-in.
func (tb *testBundle) wantNoneActive(t *testing.T) {
	t.Helper()
	var active int
	if err := tb.Pool.QueryRow(t.Context(), "SELECT count(*) FROM bookings WHERE status = 'ACTIVE'").Scan(&active); err != nil {
		t.Fatalf("count active bookings: %v", err)
	}
	if active != 0 {
		t.Errorf("%d bookings ACTIVE after a refused check-in, want 0", active)
	}
}

// exists reports whether the database has a booking with the ID.
func (tb *testBundle) exists(t *testing.T, id string) bool {
	t.Helper()
	var n int
	if err := tb.Pool.QueryRow(t.Context(), "SELECT count(*) FROM bookings WHERE id::text = $1", id).Scan(&n); err != nil {
		t.Fatalf("find booking: %v", err)
	}
	return n == 1
}

func TestCheckOut(t *testing.T) {
	t.Parallel()

	t.Run("FinishesNowAndFreesTheRest", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		start := fx.At(0, 10, 0)
		id := tb.book(t, fx.Alice, fx.RoomGoya, start, fx.At(0, 11, 0))
		tb.checkIn(t, id, fx.At(0, 9, 55))
		now := fx.At(0, 10, 20).Add(123*time.Millisecond + 456*time.Microsecond)
		tb.Clock.Set(now)
		b := detail(t, tb.call(t, fx.Alice, http.MethodPost, bookingPath(id, "checkout"), nil), http.StatusOK)
		wantValue(t, "status", b["status"], "FINISHED")
		wantInt(t, "startDate", b["startDate"], start.UnixMilli())
		wantInt(t, "endDate", b["endDate"], now.UnixMilli())
		wantInt(t, "duration", b["duration"], now.UnixMilli()-start.UnixMilli())

		// Checking out again succeeds and returns the booking unchanged.
		tb.Clock.Set(fx.At(0, 10, 40))
		b = detail(t, tb.call(t, fx.Alice, http.MethodPost, bookingPath(id, "checkout"), nil), http.StatusOK)
		wantValue(t, "status", b["status"], "FINISHED")
		wantInt(t, "endDate", b["endDate"], now.UnixMilli())

		// The rest of the slot can be booked again.
		tb.book(t, fx.Bob, fx.RoomGoya, fx.At(0, 10, 40), fx.At(0, 11, 0))
	})

	t.Run("BeforeTheStartIsACancellation", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
		tb.checkIn(t, id, fx.At(0, 9, 52))
		tb.Clock.Set(fx.At(0, 9, 55))
		b := detail(t, tb.call(t, fx.Alice, http.MethodPost, bookingPath(id, "checkout"), nil), http.StatusOK)
		wantValue(t, "status", b["status"], "CANCELLED")
		wantInt(t, "endDate", b["endDate"], fx.At(0, 11, 0).UnixMilli())
	})

	t.Run("AfterTheEndKeepsTheEnd", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
		tb.checkIn(t, id, fx.At(0, 10, 0))
		tb.Clock.Set(fx.At(0, 11, 30))
		b := detail(t, tb.call(t, fx.Alice, http.MethodPost, bookingPath(id, "checkout"), nil), http.StatusOK)
		wantValue(t, "status", b["status"], "FINISHED")
		wantInt(t, "endDate", b["endDate"], fx.At(0, 11, 0).UnixMilli())
	})

	for _, tc := range []struct {
		name    string
		as      uuid.UUID
		prepare func(t *testing.T, tb *testBundle) string
		status  int
		code    booking.Code
	}{
		{name: "Pending", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
		}, status: http.StatusConflict, code: booking.CodeBookingNotModifiable},
		{name: "Cancelled", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
			detail(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(id), nil), http.StatusOK)
			return id
		}, status: http.StatusConflict, code: booking.CodeBookingNotModifiable},
		{name: "AnotherEmployeesBooking", as: fx.Bob, prepare: func(t *testing.T, tb *testBundle) string {
			id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
			tb.checkIn(t, id, fx.At(0, 10, 0))
			return id
		}, status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "NotAUUID", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string { return "x" },
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			id := tc.prepare(t, tb)
			wantProblem(t, tb.call(t, tc.as, http.MethodPost, bookingPath(id, "checkout"), nil), tc.status, tc.code, noIndex)
		})
	}
}

func TestCancelBooking(t *testing.T) {
	t.Parallel()

	t.Run("CancelledAndKept", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := detail(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(id), nil), http.StatusOK)
		wantValue(t, "id", b["id"], id)
		wantValue(t, "status", b["status"], "CANCELLED")
		tb.wantRows(t, "bookings", 1)
		tb.wantStatusOf(t, id, "CANCELLED")

		// Cancelling again succeeds and returns the booking unchanged.
		b = detail(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(id), nil), http.StatusOK)
		wantValue(t, "status", b["status"], "CANCELLED")

		// The slot can be booked again.
		tb.book(t, fx.Bob, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
	})

	t.Run("WaitingApproval", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := detail(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(id), nil), http.StatusOK)
		wantValue(t, "status", b["status"], "CANCELLED")
	})

	t.Run("ReceptionistForAlice", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := detail(t, tb.call(t, fx.Rita, http.MethodDelete, bookingPath(id), nil), http.StatusOK)
		wantValue(t, "status", b["status"], "CANCELLED")
	})

	t.Run("ReservableOutsideItsCancellationTime", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 11, 30), fx.At(0, 12, 30))
		contracted(t, tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), contract(id, order(fx.ReservableCoffee))), id, 1)
		tb.Clock.Set(fx.At(0, 9, 30)) // exactly 2 hours before the start, which is still allowed
		b := detail(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(id), nil), http.StatusOK)
		wantValue(t, "status", b["status"], "CANCELLED")
	})

	for _, tc := range []struct {
		name    string
		as      uuid.UUID
		prepare func(t *testing.T, tb *testBundle) string
		status  int
		code    booking.Code
		detail  []string
		want    string // the booking's status afterwards; "" when there is no booking
	}{
		{name: "ReservableInsideItsCancellationTime", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			// Coffee can be cancelled until 2 hours before the start: until 09:30 for 11:30.
			id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 11, 30), fx.At(0, 12, 30))
			contracted(t, tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), contract(id, order(fx.ReservableCoffee))), id, 1)
			tb.Clock.Set(fx.At(0, 9, 45))
			return id
		}, status: http.StatusConflict, code: booking.CodeMinCancellationOfReservable, detail: []string{"Coffee"}, want: "PENDING"},
		{name: "Active", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
			tb.checkIn(t, id, fx.At(0, 10, 0))
			return id
		}, status: http.StatusConflict, code: booking.CodeBookingNotModifiable, detail: []string{"release"}, want: "ACTIVE"},
		{name: "Rejected", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := tb.book(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
			detail(t, tb.call(t, fx.Adam, http.MethodPost, bookingPath(id, "approval"), map[string]any{"approved": false}), http.StatusOK)
			return id
		}, status: http.StatusConflict, code: booking.CodeBookingNotModifiable, want: "REJECTED"},
		{name: "AnotherEmployeesBooking", as: fx.Bob, prepare: func(t *testing.T, tb *testBundle) string {
			return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		}, status: http.StatusNotFound, code: booking.CodeBookingNotFound, want: "PENDING"},
		{name: "AttendeeMayNotCancel", as: fx.Bob, prepare: func(t *testing.T, tb *testBundle) string {
			return tb.bookWith(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0), "internalAttendees", invite(fx.Bob))
		}, status: http.StatusNotFound, code: booking.CodeBookingNotFound, want: "PENDING"},
		{name: "OtherOrganization", as: fx.Boris, prepare: func(t *testing.T, tb *testBundle) string {
			return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		}, status: http.StatusNotFound, code: booking.CodeBookingNotFound, want: "PENDING"},
		{name: "Unknown", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string { return uuid.NewString() },
			status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "NotAUUID", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string { return "42" },
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"bookingId"}},
		{name: "NoToken", prepare: func(t *testing.T, tb *testBundle) string {
			return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		}, status: http.StatusUnauthorized, code: booking.CodeUnauthorized, want: "PENDING"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			id := tc.prepare(t, tb)
			r := tb.call(t, tc.as, http.MethodDelete, bookingPath(id), nil)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
			if tc.want != "" {
				tb.wantStatusOf(t, id, tc.want)
			}
		})
	}
}

func TestDecideApproval(t *testing.T) {
	t.Parallel()
	waiting := func(t *testing.T, tb *testBundle) string {
		t.Helper()
		return tb.book(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
	}

	t.Run("Approved", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := waiting(t, tb)
		b := detail(t, tb.call(t, fx.Adam, http.MethodPost, bookingPath(id, "approval"), map[string]any{"approved": true}), http.StatusOK)
		wantValue(t, "id", b["id"], id)
		wantValue(t, "status", b["status"], "PENDING")
		checkIn := b["checkIn"].(map[string]any)
		wantInt(t, "checkIn.startDate", checkIn["startDate"], fx.At(1, 9, 50).UnixMilli())
		wantInt(t, "checkIn.endDate", checkIn["endDate"], fx.At(1, 10, 15).UnixMilli())
		tb.wantStatusOf(t, id, "PENDING")

		// The booking was decided, so a second decision is refused.
		r := tb.call(t, fx.Adam, http.MethodPost, bookingPath(id, "approval"), map[string]any{"approved": false})
		wantProblem(t, r, http.StatusConflict, booking.CodeBookingNotModifiable, noIndex)
		tb.wantStatusOf(t, id, "PENDING")
	})

	t.Run("ApprovedLateOpensTheWindowAnew", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomBoard, fx.At(0, 10, 0), fx.At(0, 11, 0))
		tb.Clock.Set(fx.At(0, 10, 10)) // the original check-in window closes at 10:15
		b := detail(t, tb.call(t, fx.Adam, http.MethodPost, bookingPath(id, "approval"), map[string]any{"approved": true}), http.StatusOK)
		checkIn := b["checkIn"].(map[string]any)
		wantInt(t, "checkIn.endDate", checkIn["endDate"], fx.At(0, 10, 25).UnixMilli())
		tb.checkIn(t, id, fx.At(0, 10, 20))
	})

	t.Run("TooLateToApproveStillRejectable", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomBoard, fx.At(0, 10, 0), fx.At(0, 11, 0))
		tb.Clock.Set(fx.At(0, 10, 15)) // check-in has closed, so the next sweep will expire the request
		r := tb.call(t, fx.Adam, http.MethodPost, bookingPath(id, "approval"), map[string]any{"approved": true})
		wantProblem(t, r, http.StatusConflict, booking.CodeBookingNotModifiable, noIndex)
		tb.wantStatusOf(t, id, "WAITING_APPROVAL")
		b := detail(t, tb.call(t, fx.Adam, http.MethodPost, bookingPath(id, "approval"), map[string]any{"approved": false}), http.StatusOK)
		wantValue(t, "status", b["status"], "REJECTED")
	})

	t.Run("Rejected", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := waiting(t, tb)
		b := detail(t, tb.call(t, fx.Adam, http.MethodPost, bookingPath(id, "approval"), map[string]any{"approved": false}), http.StatusOK)
		wantValue(t, "status", b["status"], "REJECTED")
		tb.wantStatusOf(t, id, "REJECTED")
		// A rejected booking does not block the slot.
		tb.book(t, fx.Bob, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
	})

	for _, tc := range []struct {
		name    string
		as      uuid.UUID
		prepare func(t *testing.T, tb *testBundle) string // nil means a booking waiting for approval
		body    any
		status  int
		code    booking.Code
		detail  []string
	}{
		{name: "Receptionist", as: fx.Rita, body: map[string]any{"approved": true},
			status: http.StatusForbidden, code: booking.CodeForbidden},
		{name: "Employee", as: fx.Alice, body: map[string]any{"approved": true},
			status: http.StatusForbidden, code: booking.CodeForbidden},
		{name: "OtherOrganization", as: fx.Boris, body: map[string]any{"approved": true},
			status: http.StatusForbidden, code: booking.CodeForbidden},
		{name: "NotWaiting", as: fx.Adam, body: map[string]any{"approved": true},
			prepare: func(t *testing.T, tb *testBundle) string {
				return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
			}, status: http.StatusConflict, code: booking.CodeBookingNotModifiable, detail: []string{"PENDING"}},
		{name: "CancelledWhileWaiting", as: fx.Adam, body: map[string]any{"approved": true},
			prepare: func(t *testing.T, tb *testBundle) string {
				id := waiting(t, tb)
				detail(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(id), nil), http.StatusOK)
				return id
			}, status: http.StatusConflict, code: booking.CodeBookingNotModifiable},
		{name: "UnknownBooking", as: fx.Adam, body: map[string]any{"approved": true},
			prepare: func(t *testing.T, tb *testBundle) string { return uuid.NewString() },
			status:  http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "BookingIDNotAUUID", as: fx.Adam, body: map[string]any{"approved": true},
			prepare: func(t *testing.T, tb *testBundle) string { return "board" },
			status:  http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"bookingId"}},
		{name: "MissingApproved", as: fx.Adam, body: map[string]any{},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"approved"}},
		{name: "ApprovedNull", as: fx.Adam, body: `{"approved": null}`,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"approved"}},
		{name: "UnknownField", as: fx.Adam, body: map[string]any{"approved": true, "comment": "fine"},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"comment", "unknown"}},
		{name: "NotABoolean", as: fx.Adam, body: map[string]any{"approved": "yes"},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"approved", "boolean"}},
		{name: "ArrayInsteadOfObject", as: fx.Adam, body: []any{true},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"object"}},
		{name: "BareBoolean", as: fx.Adam, body: `true`,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"object"}},
		{name: "Null", as: fx.Adam, body: `null`,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"object"}},
		{name: "EmptyBody", as: fx.Adam, body: ``,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"body"}},
		{name: "MalformedJSON", as: fx.Adam, body: `{"approved": tru`,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"JSON"}},
		{name: "NoToken", body: map[string]any{"approved": true},
			status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			prepare := tc.prepare
			if prepare == nil {
				prepare = waiting
			}
			id := prepare(t, tb)
			before := tb.statuses(t)
			r := tb.call(t, tc.as, http.MethodPost, bookingPath(id, "approval"), tc.body)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
			if after := tb.statuses(t); after != before {
				t.Errorf("bookings = %s after a refused decision, want %s", after, before)
			}
		})
	}
}

// statuses returns the ID, status and times of every booking as text. Tests compare it before and after
// a refused call to show that nothing changed.
func (tb *testBundle) statuses(t *testing.T) string {
	t.Helper()
	rows, err := tb.Pool.Query(t.Context(), `SELECT id, resource_id, status, start_date, end_date, check_in_opens_at,
		check_in_closes_at FROM bookings ORDER BY id`)
	if err != nil {
		t.Fatalf("read bookings: %v", err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, resource uuid.UUID
		var status string
		var start, end, opens, closes time.Time
		if err := rows.Scan(&id, &resource, &status, &start, &end, &opens, &closes); err != nil {
			t.Fatalf("scan booking: %v", err)
		}
		fmt.Fprintf(&b, "[%s %s %s %d–%d check-in %d–%d]", id, resource, status, start.UnixMilli(), end.UnixMilli(),
			opens.UnixMilli(), closes.UnixMilli())
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("read bookings: %v", err)
	}
	return b.String()
}

// bookingPage checks that a response is a page of bookings, {bookings, nextCursor}, with each booking in
// the full shape. It returns the booking IDs and the cursor ("" when it is null).
func bookingPage(t *testing.T, r reply) ([]string, string) {
	t.Helper()
	wantStatus(t, r, http.StatusOK)
	body := wantKeys(t, "body", r.object(t), "bookings", "nextCursor")
	list := array(t, "bookings", body["bookings"])
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = wantDetailShape(t, fmt.Sprintf("bookings[%d]", i), e)["id"].(string)
	}
	switch c := body["nextCursor"].(type) {
	case nil:
		return out, ""
	case string:
		if c == "" {
			t.Errorf("nextCursor = \"\", want a cursor or null")
		}
		return out, c
	default:
		t.Fatalf("nextCursor = %#v, want a string or null", body["nextCursor"])
	}
	return out, ""
}

// allPages fetches path page by page, limit bookings at a time, following nextCursor. It returns every
// booking ID in order.
func (tb *testBundle) allPages(t *testing.T, as uuid.UUID, path string, limit int) []string {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var all []string
	cursor := ""
	for range 50 {
		p := fmt.Sprintf("%s%slimit=%d", path, sep, limit)
		if cursor != "" {
			p += "&cursor=" + url.QueryEscape(cursor)
		}
		got, next := bookingPage(t, tb.call(t, as, http.MethodGet, p, nil))
		if len(got) > limit {
			t.Fatalf("page of %d, want at most %d", len(got), limit)
		}
		all = append(all, got...)
		if next == "" {
			return all
		}
		cursor = next
	}
	t.Fatalf("more than 50 pages")
	return nil
}

func TestApprovals(t *testing.T) {
	t.Parallel()
	// prepare makes two Boardroom bookings, which wait for approval, and one Goya booking, which needs none.
	prepare := func(t *testing.T, tb *testBundle) (first, second string) {
		t.Helper()
		second = tb.book(t, fx.Alice, fx.RoomBoard, fx.At(2, 10, 0), fx.At(2, 11, 0))
		first = tb.book(t, fx.Bob, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
		tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		return first, second
	}

	t.Run("EarliestFirst", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		first, second := prepare(t, tb)
		got, next := bookingPage(t, tb.call(t, fx.Adam, http.MethodGet, api+"/approvals", nil))
		if want := []string{first, second}; !slices.Equal(got, want) {
			t.Errorf("approvals = %v, want %v", got, want)
		}
		if next != "" {
			t.Errorf("nextCursor = %q, want null", next)
		}

		// Once decided, a booking leaves the approval queue.
		detail(t, tb.call(t, fx.Adam, http.MethodPost, bookingPath(first, "approval"), map[string]any{"approved": true}), http.StatusOK)
		got, _ = bookingPage(t, tb.call(t, fx.Adam, http.MethodGet, api+"/approvals", nil))
		if want := []string{second}; !slices.Equal(got, want) {
			t.Errorf("approvals after a decision = %v, want %v", got, want)
		}
	})

	t.Run("EmptyQueueIsAnEmptyList", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Adam, http.MethodGet, api+"/approvals", nil)
		got, next := bookingPage(t, r)
		if len(got) != 0 || next != "" {
			t.Errorf("approvals = %v, %q, want none", got, next)
		}
		if !strings.Contains(string(r.body), `"bookings":[]`) || !strings.Contains(string(r.body), `"nextCursor":null`) {
			t.Errorf("body = %s, want an empty array and a null cursor", r.body)
		}
	})

	t.Run("Pages", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		first, second := prepare(t, tb)
		third := tb.book(t, fx.Bob, fx.RoomBoard, fx.At(3, 10, 0), fx.At(3, 11, 0))
		got, next := bookingPage(t, tb.call(t, fx.Adam, http.MethodGet, api+"/approvals?limit=1", nil))
		if want := []string{first}; !slices.Equal(got, want) || next == "" {
			t.Fatalf("first page = %v, %q, want %v and a cursor", got, next, want)
		}
		got, next = bookingPage(t, tb.call(t, fx.Adam, http.MethodGet, api+"/approvals?limit=2&cursor="+next, nil))
		if want := []string{second, third}; !slices.Equal(got, want) || next != "" {
			t.Fatalf("second page = %v, %q, want %v and no cursor", got, next, want)
		}
		if got, want := tb.allPages(t, fx.Adam, api+"/approvals", 1), []string{first, second, third}; !slices.Equal(got, want) {
			t.Errorf("every page = %v, want %v", got, want)
		}
	})

	for _, tc := range []struct {
		name, query string
		as          uuid.UUID
		status      int
		code        booking.Code
		detail      []string
	}{
		{name: "Receptionist", as: fx.Rita, status: http.StatusForbidden, code: booking.CodeForbidden},
		{name: "Employee", as: fx.Alice, status: http.StatusForbidden, code: booking.CodeForbidden},
		{name: "OtherOrganizationsEmployee", as: fx.Boris, status: http.StatusForbidden, code: booking.CodeForbidden},
		{name: "LimitZero", as: fx.Adam, query: "?limit=0", status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"limit"}},
		{name: "LimitTooLarge", as: fx.Adam, query: "?limit=101", status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"limit"}},
		{name: "LimitNotANumber", as: fx.Adam, query: "?limit=ten", status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"limit"}},
		{name: "BadCursor", as: fx.Adam, query: "?cursor=not-a-cursor", status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"cursor"}},
		{name: "NoToken", status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			prepare(t, tb)
			r := tb.call(t, tc.as, http.MethodGet, api+"/approvals"+tc.query, nil)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
		})
	}
}

// aliceGoyaTomorrow books Goya for Alice tomorrow 10:00–11:00 and returns the booking's ID.
func aliceGoyaTomorrow(t *testing.T, tb *testBundle) string {
	t.Helper()
	return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
}

// millis returns t in Unix milliseconds, as the API sends times.
func millis(t time.Time) int64 { return t.UnixMilli() }

// resourceRef returns {"id": id} for a request body. id is any type so that a test can send a wrong one.
func resourceRef(id any) map[string]any { return map[string]any{"id": id} }

// TestChangeBooking checks changes that succeed: new times and another room.
func TestChangeBooking(t *testing.T) {
	t.Parallel()
	mine, ms, resource := aliceGoyaTomorrow, millis, resourceRef

	t.Run("NewTimes", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := mine(t, tb)
		start, end := fx.At(1, 14, 0), fx.At(1, 15, 30)
		b := detail(t, tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id),
			map[string]any{"startDate": ms(start), "endDate": ms(end)}), http.StatusOK)
		wantFields(t, "changed booking", b, map[string]any{
			"id":                id,
			"startDate":         num(ms(start)),
			"endDate":           num(ms(end)),
			"duration":          num(90 * minuteMs),
			"status":            "PENDING",
			"checkIn.startDate": num(ms(fx.At(1, 13, 50))),
			"checkIn.endDate":   num(ms(fx.At(1, 14, 15))),
		})
		wantFields(t, "read back", tb.get(t, fx.Alice, id), map[string]any{
			"startDate": num(ms(start)),
			"endDate":   num(ms(end)),
		})

		// The old slot is free again and the new one is taken.
		tb.book(t, fx.Bob, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		r := tb.call(t, fx.Bob, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, fx.At(1, 15, 0), fx.At(1, 16, 0))})
		wantProblem(t, r, http.StatusConflict, booking.CodeResourceNotAvailable, 0)
	})

	t.Run("OnlyTheEnd", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := mine(t, tb)
		b := detail(t, tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id), map[string]any{"endDate": ms(fx.At(1, 12, 0))}), http.StatusOK)
		wantFields(t, "changed booking", b, map[string]any{
			"startDate": num(ms(fx.At(1, 10, 0))),
			"endDate":   num(ms(fx.At(1, 12, 0))),
		})
	})

	t.Run("OverlappingItsOwnSlot", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := mine(t, tb)
		b := detail(t, tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id),
			map[string]any{"startDate": ms(fx.At(1, 10, 30)), "endDate": ms(fx.At(1, 11, 30))}), http.StatusOK)
		wantInt(t, "startDate", b["startDate"], ms(fx.At(1, 10, 30)))
	})

	t.Run("OtherRoom", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := mine(t, tb)
		b := detail(t, tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id),
			map[string]any{"resource": resource(fx.RoomVelazquez.String())}), http.StatusOK)
		wantKeys(t, "resource", b["resource"], bookedResourceKeys...)
		wantFields(t, "changed booking", b, map[string]any{
			"resource.id": fx.RoomVelazquez.String(),
			"startDate":   num(ms(fx.At(1, 10, 0))),
			"status":      "PENDING",
		})
		wantFields(t, "read back", tb.get(t, fx.Alice, id), map[string]any{"resource.id": fx.RoomVelazquez.String()})
	})

	t.Run("RoomRequiringApprovalWaits", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := mine(t, tb)
		b := detail(t, tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id),
			map[string]any{"resource": resource(fx.RoomBoard.String())}), http.StatusOK)
		wantValue(t, "status", b["status"], "WAITING_APPROVAL")
	})

	t.Run("ReceptionistForAlice", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := mine(t, tb)
		b := detail(t, tb.call(t, fx.Rita, http.MethodPatch, bookingPath(id), map[string]any{"endDate": ms(fx.At(1, 11, 30))}), http.StatusOK)
		wantInt(t, "endDate", b["endDate"], ms(fx.At(1, 11, 30)))
	})

	t.Run("ContractedReservablesFollow", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := mine(t, tb)
		contracted(t, tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), contract(id, order(fx.ReservableCoffee))), id, 1)
		b := detail(t, tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id),
			map[string]any{"resource": resource(fx.RoomVelazquez.String())}), http.StatusOK)
		if got := len(array(t, "bookingReservableList", b["bookingReservableList"])); got != 1 {
			t.Errorf("bookingReservableList = %d, want the coffee", got)
		}
	})

}

// TestChangeBookingRefused checks changes that are refused, and that a refused change leaves the booking
// as it was.
func TestChangeBookingRefused(t *testing.T) {
	t.Parallel()
	mine, ms, resource := aliceGoyaTomorrow, millis, resourceRef
	for _, tc := range []struct {
		name    string
		as      uuid.UUID
		prepare func(t *testing.T, tb *testBundle) string // nil means aliceGoyaTomorrow
		body    any
		status  int
		code    booking.Code
		detail  []string
	}{
		{name: "SlotTaken", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			tb.book(t, fx.Bob, fx.RoomVelazquez, fx.At(1, 10, 30), fx.At(1, 11, 30))
			return mine(t, tb)
		}, body: map[string]any{"resource": resource(fx.RoomVelazquez.String())},
			status: http.StatusConflict, code: booking.CodeResourceNotAvailable, detail: []string{"Velázquez"}},
		{name: "NewTimesTaken", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			tb.book(t, fx.Bob, fx.RoomGoya, fx.At(1, 12, 0), fx.At(1, 13, 0))
			return mine(t, tb)
		}, body: map[string]any{"startDate": ms(fx.At(1, 11, 30)), "endDate": ms(fx.At(1, 12, 30))},
			status: http.StatusConflict, code: booking.CodeResourceNotAvailable},
		{name: "OutsideResourceHours", as: fx.Alice, body: map[string]any{"startDate": ms(fx.At(1, 19, 0)), "endDate": ms(fx.At(1, 21, 0))},
			status: http.StatusConflict, code: booking.CodeDateOutsideResourceHours},
		{name: "LongerThanMaximum", as: fx.Alice, body: map[string]any{"endDate": ms(fx.At(1, 14, 1))},
			status: http.StatusConflict, code: booking.CodeDurationExceedsMaximum},
		{name: "InThePast", as: fx.Alice, body: map[string]any{"startDate": ms(fx.At(0, 8, 0)), "endDate": ms(fx.At(0, 8, 30))},
			status: http.StatusConflict, code: booking.CodeDateInThePast},
		{name: "BeyondMaximumAdvance", as: fx.Alice, body: map[string]any{"startDate": ms(fx.At(31, 10, 0)), "endDate": ms(fx.At(31, 11, 0))},
			status: http.StatusConflict, code: booking.CodeDateExceedsMaximumAdvance},
		{name: "UnknownResource", as: fx.Alice, body: map[string]any{"resource": resource(uuid.NewString())},
			status: http.StatusNotFound, code: booking.CodeResourceNotFound},
		{name: "HiddenResource", as: fx.Alice, body: map[string]any{"resource": resource(fx.RoomHidden.String())},
			status: http.StatusNotFound, code: booking.CodeResourceNotFound},
		{name: "OtherOrganizationsResource", as: fx.Alice, body: map[string]any{"resource": resource(fx.RoomB.String())},
			status: http.StatusNotFound, code: booking.CodeResourceNotFound},
		{name: "RoomBookingToADesk", as: fx.Alice, body: map[string]any{"resource": resource(fx.DeskOne.String())},
			status: http.StatusConflict, code: booking.CodeResourceNotASpace},
		{name: "ReservableNotOfferedByNewRoom", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := mine(t, tb)
			contracted(t, tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), contract(id, order(fx.ReservableAV))), id, 1)
			return id
		}, body: map[string]any{"resource": resource(fx.RoomVelazquez.String())},
			status: http.StatusNotFound, code: booking.CodeResourceReservableNotFound},
		{name: "Cancelled", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := mine(t, tb)
			detail(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(id), nil), http.StatusOK)
			return id
		}, body: map[string]any{"endDate": ms(fx.At(1, 12, 0))},
			status: http.StatusConflict, code: booking.CodeBookingNotModifiable},
		{name: "Active", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
			tb.checkIn(t, id, fx.At(0, 10, 0))
			return id
		}, body: map[string]any{"endDate": ms(fx.At(0, 12, 0))},
			status: http.StatusConflict, code: booking.CodeBookingNotModifiable},
		{name: "AnotherEmployeesBooking", as: fx.Bob, body: map[string]any{"endDate": ms(fx.At(1, 12, 0))},
			status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "OtherOrganization", as: fx.Boris, body: map[string]any{"endDate": ms(fx.At(1, 12, 0))},
			status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "UnknownBooking", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string { return uuid.NewString() },
			body: map[string]any{"endDate": ms(fx.At(1, 12, 0))}, status: http.StatusNotFound, code: booking.CodeBookingNotFound},

		// Malformed requests.
		{name: "EmptyObject", as: fx.Alice, body: map[string]any{},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"startDate", "endDate", "resource"}},
		{name: "UnknownField", as: fx.Alice, body: map[string]any{"subject": "Moved"},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"subject", "unknown"}},
		{name: "ResourceIDNotAUUID", as: fx.Alice, body: map[string]any{"resource": resource("velazquez")},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"resource.id", "velazquez"}},
		{name: "ResourceWithoutID", as: fx.Alice, body: map[string]any{"resource": map[string]any{}},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"resource.id"}},
		{name: "ResourceIDNotAString", as: fx.Alice, body: map[string]any{"resource": resource(7)},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"resource.id", "string"}},
		{name: "EndBeforeStart", as: fx.Alice, body: map[string]any{"endDate": ms(fx.At(1, 9, 0))},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"endDate"}},
		{name: "EndEqualsStart", as: fx.Alice, body: map[string]any{"startDate": ms(fx.At(1, 11, 0))},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"endDate"}},
		{name: "StartDateNotANumber", as: fx.Alice, body: map[string]any{"startDate": "tomorrow"},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"startDate", "integer"}},
		{name: "ArrayInsteadOfObject", as: fx.Alice, body: []any{map[string]any{"endDate": ms(fx.At(1, 12, 0))}},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"object"}},
		{name: "Null", as: fx.Alice, body: `null`,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"object"}},
		{name: "BookingIDNotAUUID", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string { return "goya" },
			body: map[string]any{"endDate": ms(fx.At(1, 12, 0))}, status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"bookingId"}},
		{name: "NoToken", body: map[string]any{"endDate": ms(fx.At(1, 12, 0))},
			status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			prepare := tc.prepare
			if prepare == nil {
				prepare = mine
			}
			id := prepare(t, tb)
			var before map[string]any
			if tb.exists(t, id) {
				before = tb.get(t, fx.Alice, id)
			}
			stored := tb.statuses(t)
			r := tb.call(t, tc.as, http.MethodPatch, bookingPath(id), tc.body)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
			if after := tb.statuses(t); after != stored {
				t.Errorf("bookings = %s after a refused change, want %s", after, stored)
			}
			if before != nil {
				kept := []string{"startDate", "endDate", "status", "resource.id"}
				wantFields(t, "read back after a refused change", tb.get(t, fx.Alice, id), fields(before, kept...))
			}
		})
	}
}

// TestNewRoutesWrongMethod checks that a wrong method on a lifecycle, availability or catalogue route
// gets 405 with a problem body.
func TestNewRoutesWrongMethod(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	id := uuid.NewString()
	for _, tc := range []struct{ method, path string }{
		{http.MethodPut, bookingPath(id)},
		{http.MethodPost, bookingPath(id)},
		{http.MethodGet, bookingPath(id, "checkin")},
		{http.MethodDelete, bookingPath(id, "checkout")},
		{http.MethodGet, bookingPath(id, "approval")},
		{http.MethodPost, api + "/approvals"},
		{http.MethodPut, api + "/users/me/bookings"},
		{http.MethodGet, api + "/users/me/resources/checkin?postercode=MAD-R1"},
		{http.MethodGet, api + "/users/me/bookings/workstations/standard"},
		{http.MethodPost, api + "/users/me/buildings/" + fx.BuildingMadrid.String() + "/availability"},
		{http.MethodPost, api + "/buildings"},
		{http.MethodDelete, api + "/buildings/" + fx.BuildingMadrid.String() + "/floors"},
		{http.MethodPost, api + "/subcategories"},
		{http.MethodPut, api + "/features"},
		{http.MethodPost, api + "/resources/" + fx.RoomGoya.String() + "/reservables"},
		{http.MethodPost, api + "/openapi.json"},
	} {
		t.Run(tc.method+tc.path, func(t *testing.T) {
			t.Parallel()
			for _, as := range []uuid.UUID{fx.Alice, uuid.Nil} {
				r := tb.call(t, as, tc.method, tc.path, nil)
				wantStatus(t, r, http.StatusMethodNotAllowed)
				if mt, _, _ := mime.ParseMediaType(r.header.Get("Content-Type")); mt != "application/problem+json" {
					t.Errorf("Content-Type = %q, want application/problem+json", r.header.Get("Content-Type"))
				}
				p := wantKeys(t, "problem", r.object(t), "status", "title", "detail")
				wantInt(t, "status", p["status"], http.StatusMethodNotAllowed)
				wantValue(t, "title", p["title"], "Method Not Allowed")
				wantDetail(t, p, tc.method)
			}
		})
	}
}
