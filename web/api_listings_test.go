package web_test

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// userBookingsPath returns the path of GET /api/v1/users/{user}/bookings with the query.
func userBookingsPath(user string, query url.Values) string {
	p := api + "/users/" + user + "/bookings"
	if len(query) > 0 {
		p += "?" + query.Encode()
	}
	return p
}

func msParam(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// aliceBookings holds the IDs of the bookings that the listing tests use, in the order of Alice's
// listing: latest start first.
type aliceBookings struct {
	byRita    string // Goya on day 3, made by Rita for Alice
	velazquez string // Velázquez on day 2
	invited   string // Velázquez on day 1 at 14:00, Bob's booking with Alice invited
	goya      string // Goya on day 1 at 10:00, cancelled
	bobs      string // Goya on day 1 at 12:00, Bob's, without Alice
	boris     string // Globex's room on day 1
}

func (a aliceBookings) all() []string { return []string{a.byRita, a.velazquez, a.invited, a.goya} }

func prepareListings(t *testing.T, tb *testBundle) aliceBookings {
	t.Helper()
	var a aliceBookings
	a.goya = tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
	a.velazquez = tb.book(t, fx.Alice, fx.RoomVelazquez, fx.At(2, 10, 0), fx.At(2, 11, 0))
	a.invited = tb.bookWith(t, fx.Bob, fx.RoomVelazquez, fx.At(1, 14, 0), fx.At(1, 15, 0), "internalAttendees", invite(fx.Alice))
	a.bobs = tb.book(t, fx.Bob, fx.RoomGoya, fx.At(1, 12, 0), fx.At(1, 13, 0))
	b := created(t, tb.call(t, fx.Rita, http.MethodPost, bookingsPath(fx.Alice.String()),
		[]any{spaceBooking(fx.RoomGoya, fx.At(3, 10, 0), fx.At(3, 11, 0))}), 1)[0]
	a.byRita = b["id"].(string)
	a.boris = tb.book(t, fx.Boris, fx.RoomB, fx.At(1, 10, 0), fx.At(1, 11, 0))
	detail(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(a.goya), nil), http.StatusOK)
	return a
}

func TestUserBookings(t *testing.T) {
	t.Parallel()
	tb := setup(t) // shared: the subtests only read
	a := prepareListings(t, tb)
	q := func(kv ...string) url.Values { return with(url.Values{}, kv...) }

	for _, tc := range []struct {
		name, user string
		as         uuid.UUID
		query      url.Values
		want       []string
	}{
		{name: "NewestFirst", user: "me", as: fx.Alice, want: a.all()},
		{name: "OwnUserID", user: fx.Alice.String(), as: fx.Alice, want: a.all()},
		{name: "ReceptionistListsAlices", user: fx.Alice.String(), as: fx.Rita, want: a.all()},
		{name: "AdminListsAlices", user: fx.Alice.String(), as: fx.Adam, want: a.all()},
		{name: "OrganizerAndInviter", user: "me", as: fx.Bob, want: []string{a.invited, a.bobs}},
		{name: "CreatorForSomeoneElseIsNotListed", user: "me", as: fx.Rita, want: []string{}},
		{name: "OtherOrganization", user: "me", as: fx.Boris, want: []string{a.boris}},
		{name: "OneStatus", user: "me", as: fx.Alice, query: q("status", "CANCELLED"), want: []string{a.goya}},
		{name: "StatusesCommaSeparated", user: "me", as: fx.Alice, query: q("status", "PENDING,CANCELLED"), want: a.all()},
		{name: "StatusesWithSpaces", user: "me", as: fx.Alice, query: q("status", " CANCELLED , WAITING_APPROVAL "), want: []string{a.goya}},
		{name: "StatusesRepeated", user: "me", as: fx.Alice, query: url.Values{"status": {"PENDING", "CANCELLED"}}, want: a.all()},
		{name: "StatusWithoutMatch", user: "me", as: fx.Alice, query: q("status", "ACTIVE"), want: []string{}},
		{name: "From", user: "me", as: fx.Alice, query: q("from", msParam(fx.At(2, 0, 0))), want: []string{a.byRita, a.velazquez}},
		{name: "To", user: "me", as: fx.Alice, query: q("to", msParam(fx.At(2, 0, 0))), want: []string{a.invited, a.goya}},
		// Bookings that overlap from–to (to excluded): Goya 10–11 overlaps 10:30–14:00; Bob's 14–15 does not.
		{name: "FromTo", user: "me", as: fx.Alice, query: q("from", msParam(fx.At(1, 10, 30)), "to", msParam(fx.At(1, 14, 0))), want: []string{a.goya}},
		{name: "EndingAtFromIsOut", user: "me", as: fx.Alice, query: q("from", msParam(fx.At(1, 11, 0)), "to", msParam(fx.At(1, 14, 0))), want: []string{}},
		{name: "StatusAndRange", user: "me", as: fx.Alice, query: q("status", "PENDING", "to", msParam(fx.At(2, 0, 0))), want: []string{a.invited}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, next := bookingPage(t, tb.call(t, tc.as, http.MethodGet, userBookingsPath(tc.user, tc.query), nil))
			if got == nil {
				got = []string{}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("bookings = %v, want %v", got, tc.want)
			}
			if next != "" {
				t.Errorf("nextCursor = %q, want null", next)
			}
		})
	}

	t.Run("Values", func(t *testing.T) {
		t.Parallel()
		r := tb.call(t, fx.Alice, http.MethodGet, userBookingsPath("me", nil), nil)
		wantStatus(t, r, http.StatusOK)
		list := array(t, "bookings", r.object(t)["bookings"])
		byRita, invited, goya := list[0].(map[string]any), list[2].(map[string]any), list[3].(map[string]any)
		wantUser(t, "byRita.organizer", byRita["organizer"], fx.Alice, "alice", "Archer")
		wantUser(t, "byRita.creator", byRita["creator"], fx.Rita, "rita", "Reyes")
		wantUser(t, "invited.organizer", invited["organizer"], fx.Bob, "bob", "Baker")
		wantValue(t, "goya.status", goya["status"], "CANCELLED")
		wantInt(t, "goya.startDate", goya["startDate"], fx.At(1, 10, 0).UnixMilli())
		// As an attendee, Alice may read the booking she was invited to.
		wantValue(t, "invited read back", tb.get(t, fx.Alice, a.invited)["id"], a.invited)
	})

	t.Run("EmptyIsAnEmptyList", func(t *testing.T) {
		t.Parallel()
		r := tb.call(t, fx.Adam, http.MethodGet, userBookingsPath("me", nil), nil)
		wantStatus(t, r, http.StatusOK)
		if got, want := string(r.body), `{"bookings":[],"nextCursor":null}`; got != want+"\n" && got != want {
			t.Errorf("body = %s, want %s", got, want)
		}
	})

	t.Run("Pages", func(t *testing.T) {
		t.Parallel()
		for _, limit := range []int{1, 2, 3, 4, 100} {
			if got := tb.allPages(t, fx.Alice, userBookingsPath("me", nil), limit); !slices.Equal(got, a.all()) {
				t.Errorf("limit %d: every page = %v, want %v", limit, got, a.all())
			}
		}
		got, next := bookingPage(t, tb.call(t, fx.Alice, http.MethodGet, userBookingsPath("me", q("limit", "3")), nil))
		if want := a.all()[:3]; !slices.Equal(got, want) || next == "" {
			t.Fatalf("first page = %v, %q, want %v and a cursor", got, next, want)
		}
		got, next = bookingPage(t, tb.call(t, fx.Alice, http.MethodGet, userBookingsPath("me", q("limit", "3", "cursor", next)), nil))
		if want := a.all()[3:]; !slices.Equal(got, want) || next != "" {
			t.Fatalf("second page = %v, %q, want %v and no cursor", got, next, want)
		}
		// The filter applies to every page.
		if got, want := tb.allPages(t, fx.Alice, userBookingsPath("me", q("status", "PENDING")), 1), []string{a.byRita, a.velazquez, a.invited}; !slices.Equal(got, want) {
			t.Errorf("PENDING pages = %v, want %v", got, want)
		}
		// A receptionist can page through Alice's bookings.
		if got := tb.allPages(t, fx.Rita, userBookingsPath(fx.Alice.String(), nil), 1); !slices.Equal(got, a.all()) {
			t.Errorf("Alice's pages as Rita = %v, want %v", got, a.all())
		}
	})

	for _, tc := range []struct {
		name, user string
		as         uuid.UUID
		query      url.Values
		status     int
		code       booking.Code
		detail     []string
	}{
		{name: "UnknownStatus", as: fx.Alice, query: q("status", "DONE"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"status", "DONE"}},
		{name: "LowerCaseStatus", as: fx.Alice, query: q("status", "pending"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"status"}},
		{name: "OneBadStatusAmongGood", as: fx.Alice, query: q("status", "PENDING,DONE"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"DONE"}},
		{name: "LimitZero", as: fx.Alice, query: q("limit", "0"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"limit"}},
		{name: "LimitNegative", as: fx.Alice, query: q("limit", "-1"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"limit"}},
		{name: "LimitTooLarge", as: fx.Alice, query: q("limit", "101"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"limit"}},
		{name: "LimitNotANumber", as: fx.Alice, query: q("limit", "all"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"limit"}},
		{name: "CursorNotBase64", as: fx.Alice, query: q("cursor", "!!!"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"cursor"}},
		{name: "CursorNotOurs", as: fx.Alice, query: q("cursor", "YWJj"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"cursor"}},
		{name: "FromNotANumber", as: fx.Alice, query: q("from", "yesterday"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"from"}},
		{name: "ToNotANumber", as: fx.Alice, query: q("to", "2026-11-24"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"to"}},
		{name: "ToEqualsFrom", as: fx.Alice, query: q("from", msParam(fx.At(1, 0, 0)), "to", msParam(fx.At(1, 0, 0))), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"to"}},
		{name: "ToBeforeFrom", as: fx.Alice, query: q("from", msParam(fx.At(2, 0, 0)), "to", msParam(fx.At(1, 0, 0))), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"to"}},
		{name: "EmployeeForAnotherUser", as: fx.Bob, user: fx.Alice.String(), status: http.StatusForbidden, code: booking.CodeForbidden},
		{name: "ReceptionistForUnknownUser", as: fx.Rita, user: uuid.NewString(), status: http.StatusNotFound, code: booking.CodeUserNotFound},
		{name: "ReceptionistForOtherOrganization", as: fx.Rita, user: fx.Boris.String(), status: http.StatusNotFound, code: booking.CodeUserNotFound},
		{name: "UserIDNotAUUID", as: fx.Rita, user: "alice", status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"userId"}},
		{name: "NoToken", status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tb.call(t, tc.as, http.MethodGet, userBookingsPath(cmp.Or(tc.user, "me"), tc.query), nil)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
		})
	}
}

// TestUserBookingsPagesTies checks that bookings with the same start are ordered by ID, so that paging
// one at a time returns each of them exactly once.
func TestUserBookingsPagesTies(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	start, end := fx.At(4, 10, 0), fx.At(4, 11, 0)
	bs := created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{
		spaceBooking(fx.RoomGoya, start, end), spaceBooking(fx.RoomVelazquez, start, end), spaceBooking(fx.RoomBoard, start, end),
	}), 3)
	earlier := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
	var want []string
	for _, b := range bs {
		want = append(want, b["id"].(string))
	}
	slices.Sort(want)
	slices.Reverse(want) // latest start first, then the greater ID first
	want = append(want, earlier)
	for _, limit := range []int{1, 2} {
		if got := tb.allPages(t, fx.Alice, userBookingsPath("me", nil), limit); !slices.Equal(got, want) {
			t.Errorf("limit %d: every page = %v, want %v", limit, got, want)
		}
	}
}
