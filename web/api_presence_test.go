package web_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// presencePath is the "Who's in" address of a person's view of the Madrid building.
func presencePath(user, query string) string {
	return api + "/users/" + user + "/buildings/" + fx.BuildingMadrid.String() + "/presence" + query
}

// TestAPIPresence: the API says who is in exactly as the pages do. Bob shares his desk with his team;
// Alice, in his team, sees it with its exact shape; Rita (receptionist) and Adam (admin) do not, and
// nobody may ask for another person's view.
func TestAPIPresence(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	addTeam(t, tb.Bundle, fx.Alice, fx.Bob)
	bob := tb.User(t, fx.OrgA, fx.Bob)
	made, err := tb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: bob, Organizer: bob,
		Category: booking.CategoryWorkstation, Bookings: []booking.NewBooking{fx.Request(fx.DeskTwo, fx.At(1, 9, 0), fx.At(1, 17, 0))}})
	if err != nil {
		t.Fatal(err)
	}
	r := tb.call(t, fx.Alice, http.MethodGet, presencePath("me", "?date=2026-11-24"), nil)
	wantStatus(t, r, http.StatusOK)
	var got map[string]any
	if err := json.Unmarshal(r.body, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"from": float64(fx.At(1, 0, 0).UnixMilli()), "to": float64(fx.At(2, 0, 0).UnixMilli()),
		"bookings": []any{map[string]any{
			"bookingId": made[0].ID.String(),
			"user":      map[string]any{"id": fx.Bob.String(), "name": "bob", "surname": "Baker"},
			"resource":  map[string]any{"id": fx.DeskTwo.String(), "name": "Desk 2"},
			"floor":     map[string]any{"id": fx.FloorMadrid.String(), "name": "madrid-1"},
			"startDate": float64(fx.At(1, 9, 0).UnixMilli()), "endDate": float64(fx.At(1, 17, 0).UnixMilli()),
			"status": "PENDING", "team": true, "favourite": false,
		}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Alice's view (-want +got):\n%s", diff)
	}
	for _, viewer := range []uuid.UUID{fx.Rita, fx.Adam} {
		r := tb.call(t, viewer, http.MethodGet, presencePath("me", "?date=2026-11-24"), nil)
		if obj := r.object(t); len(obj["bookings"].([]any)) != 0 {
			t.Errorf("%s sees %v, want nothing (Bob shows his team only)", viewer, obj["bookings"])
		}
	}
	wantProblem(t, tb.call(t, fx.Adam, http.MethodGet, presencePath(fx.Alice.String(), ""), nil), http.StatusForbidden, booking.CodeForbidden, noIndex)
	wantProblem(t, tb.call(t, fx.Alice, http.MethodGet, presencePath("me", "?date=24-11-2026"), nil), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	wantProblem(t, tb.call(t, fx.Alice, http.MethodGet, presencePath("me", "?days=15"), nil), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	wantProblem(t, tb.call(t, fx.Boris, http.MethodGet, presencePath("me", ""), nil), http.StatusNotFound, booking.CodeBuildingNotFound, noIndex)
}

// TestAPIFavouritesAndVisibility: starring and unstarring through the API, and choosing who sees one's
// bookings; another organization's ids are not found and bad values change nothing.
func TestAPIFavouritesAndVisibility(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	fav := api + "/users/me/favourites"
	for _, p := range []string{fav + "/resources/" + fx.DeskOne.String(), fav + "/people/" + fx.Bob.String()} {
		for range 2 {
			wantStatus(t, tb.call(t, fx.Alice, http.MethodPut, p, nil), http.StatusNoContent)
		}
	}
	r := tb.call(t, fx.Alice, http.MethodGet, fav, nil)
	if diff := cmp.Diff(map[string]any{"resources": []any{fx.DeskOne.String()}, "people": []any{fx.Bob.String()}}, r.object(t)); diff != "" {
		t.Errorf("favourites (-want +got):\n%s", diff)
	}
	wantStatus(t, tb.call(t, fx.Alice, http.MethodDelete, fav+"/people/"+fx.Bob.String(), nil), http.StatusNoContent)
	wantProblem(t, tb.call(t, fx.Alice, http.MethodPut, fav+"/resources/"+fx.RoomB.String(), nil), http.StatusNotFound, booking.CodeResourceNotFound, noIndex)
	wantProblem(t, tb.call(t, fx.Alice, http.MethodPut, fav+"/people/"+fx.Boris.String(), nil), http.StatusNotFound, booking.CodeUserNotFound, noIndex)
	wantProblem(t, tb.call(t, fx.Alice, http.MethodPut, fav+"/people/"+fx.Alice.String(), nil), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	wantProblem(t, tb.call(t, fx.Rita, http.MethodGet, api+"/users/"+fx.Alice.String()+"/favourites", nil), http.StatusForbidden, booking.CodeForbidden, noIndex)
	if diff := cmp.Diff(map[string]any{"resources": []any{fx.DeskOne.String()}, "people": []any{}}, tb.call(t, fx.Alice, http.MethodGet, fav, nil).object(t)); diff != "" {
		t.Errorf("favourites after the refusals (-want +got):\n%s", diff)
	}

	vis := api + "/users/me/visibility"
	if diff := cmp.Diff(map[string]any{"bookingsVisibleTo": nil, "organizationDefault": "TEAM"}, tb.call(t, fx.Alice, http.MethodGet, vis, nil).object(t)); diff != "" {
		t.Errorf("visibility at first (-want +got):\n%s", diff)
	}
	r = tb.call(t, fx.Alice, http.MethodPut, vis, map[string]any{"bookingsVisibleTo": "NOBODY"})
	if diff := cmp.Diff(map[string]any{"bookingsVisibleTo": "NOBODY", "organizationDefault": "TEAM"}, r.object(t)); diff != "" {
		t.Errorf("visibility set (-want +got):\n%s", diff)
	}
	wantProblem(t, tb.call(t, fx.Alice, http.MethodPut, vis, map[string]any{"bookingsVisibleTo": "EVERYONE"}), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	wantProblem(t, tb.call(t, fx.Alice, http.MethodPut, vis, map[string]any{"visibleTo": "TEAM"}), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	r = tb.call(t, fx.Alice, http.MethodPut, vis, map[string]any{"bookingsVisibleTo": nil})
	if obj := r.object(t); obj["bookingsVisibleTo"] != nil {
		t.Errorf("after null: %v, want the organization's default again", obj)
	}
}

// TestAPIDefaultVisibility: an admin widens the organization's default to everyone; a colleague in no
// team then sees Bob, who made no choice of his own, while the other organization keeps its default.
func TestAPIDefaultVisibility(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	bob := tb.User(t, fx.OrgA, fx.Bob)
	if _, err := tb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: bob, Organizer: bob,
		Category: booking.CategoryWorkstation, Bookings: []booking.NewBooking{fx.Request(fx.DeskTwo, fx.At(1, 9, 0), fx.At(1, 17, 0))}}); err != nil {
		t.Fatal(err)
	}
	seen := func() int {
		r := tb.call(t, fx.Rita, http.MethodGet, presencePath("me", "?date=2026-11-24"), nil)
		return len(r.object(t)["bookings"].([]any))
	}
	if n := seen(); n != 0 {
		t.Fatalf("Rita sees %d bookings under the default TEAM, want 0", n)
	}
	wantProblem(t, tb.call(t, fx.Adam, http.MethodPut, api+"/admin/identity", map[string]any{"defaultBookingsVisibleTo": "EVERYONE"}),
		http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	r := tb.call(t, fx.Adam, http.MethodPut, api+"/admin/identity", map[string]any{"defaultBookingsVisibleTo": "ORGANIZATION"})
	if got := r.object(t)["defaultBookingsVisibleTo"]; got != "ORGANIZATION" {
		t.Fatalf("defaultBookingsVisibleTo = %v, want ORGANIZATION", got)
	}
	if n := seen(); n != 1 {
		t.Errorf("Rita sees %d bookings under the default ORGANIZATION, want Bob's", n)
	}
	if n := fx.RowCount(t, tb.Bundle, `SELECT count(*) FROM organizations WHERE id = $1 AND bookings_visible_to = 'TEAM'`, fx.OrgB); n != 1 {
		t.Errorf("the other organization's default changed")
	}
}
