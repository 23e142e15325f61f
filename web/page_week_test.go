package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// pageTeam puts the people in one new team of organization A.
func (pb *pageBundle) pageTeam(t *testing.T, people ...uuid.UUID) { addTeam(t, pb.Bundle, people...) }

// addTeam puts the people in one new team of organization A, named Sales.
func addTeam(t *testing.T, b *fx.Bundle, people ...uuid.UUID) {
	t.Helper()
	team := uuid.New()
	if _, err := b.Pool.Exec(t.Context(), `INSERT INTO teams (organization_id, id, name) VALUES ($1, $2, 'Sales')`, fx.OrgA, team); err != nil {
		t.Fatal(err)
	}
	for _, p := range people {
		if _, err := b.Pool.Exec(t.Context(), `INSERT INTO team_members (organization_id, team_id, user_id) VALUES ($1, $2, $3)`, fx.OrgA, team, p); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPageWeek: the start page shows Alice's two weeks: her own desk, her teammate Bob's, and the one
// tap that books her usual desk on a free day, which then shows as hers.
func TestPageWeek(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	pb.pageTeam(t, fx.Alice, fx.Bob)
	pb.mbCreate(t, fx.Alice, fx.DeskOne, fx.At(0, 10, 0), fx.At(0, 17, 0))
	pb.mbCreate(t, fx.Bob, fx.DeskTwo, fx.At(1, 9, 0), fx.At(1, 17, 0))
	pb.mbCreate(t, fx.Rita, fx.DeskTwo, fx.At(2, 9, 0), fx.At(2, 17, 0))
	b := pb.signedIn(t, fx.Alice)

	p := b.get("/")
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "h1", "My week")
	p.wantText(t, ".days-ahead > li:nth-child(1)", "Monday 23 November 2026", "Today", "Desk 1")
	p.wantText(t, ".days-ahead > li:nth-child(2)", "Tuesday 24 November 2026", "You are not in.",
		"1 of your team or favourites is in:", "bob Baker · Desk 2", "Book Desk 1, your usual")
	if got := p.text(".days-ahead > li:nth-child(3) .colleagues"); got != "" {
		t.Errorf("day 3 names %q, want nobody (Rita is in no team with Alice)", got)
	}
	if n := p.count(".days-ahead > li"); n != 14 {
		t.Errorf("%d days, want 14", n)
	}

	p = b.post("/week/book", url.Values{"resource": {fx.DeskOne.String()}, "date": {"2026-11-24"}, "building": {fx.BuildingMadrid.String()}})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".notice.ok", "Desk 1 is booked for you on Tue 24 Nov.")
	p.wantText(t, ".days-ahead > li:nth-child(2) .mine", "Desk 1")

	// Booking it again that day is refused in words, and changes nothing.
	p = b.post("/week/book", url.Values{"resource": {fx.DeskOne.String()}, "date": {"2026-11-24"}, "building": {fx.BuildingMadrid.String()}})
	p.wantText(t, ".notice.error", "Desk 1")
	// Another organization's desk and building are not found.
	p = b.post("/week/book", url.Values{"resource": {fx.RoomB.String()}, "date": {"2026-11-25"}})
	p.wantStatus(t, http.StatusNotFound)
	b.get("/?building="+fx.BuildingB.String()).wantStatus(t, http.StatusNotFound)
}

// TestPageWhosIn: Alice sees her teammate Bob on Tuesday, on the list and on the plan, stars him, and
// does not see Rita, who keeps her bookings to her team; once Rita shows hers to everyone, Alice sees her.
func TestPageWhosIn(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	pb.pageTeam(t, fx.Alice, fx.Bob)
	pb.mbCreate(t, fx.Bob, fx.DeskTwo, fx.At(1, 9, 0), fx.At(1, 17, 0))
	pb.mbCreate(t, fx.Rita, fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 17, 0))
	b := pb.signedIn(t, fx.Alice)

	path := "/whos-in?date=2026-11-24&building=" + fx.BuildingMadrid.String()
	p := b.get(path)
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "h1", "Who's in")
	p.wantText(t, ".whos-floor", "1 person", "bob Baker", "Desk 2 · 09:00–17:00", "Your team")
	p.wantText(t, ".whos-plan text", "bob Baker")
	if got := p.text(".whos-in"); strings.Contains(got, "rita") {
		t.Errorf("Who's in shows Rita: %q", got)
	}
	p = b.post("/favourites/people/"+fx.Bob.String(), url.Values{"on": {"true"}, "next": {path}})
	p.wantText(t, ".notice.ok", "Added to your favourites.")
	if got := p.attr(`form[action="/favourites/people/`+fx.Bob.String()+`"] button`, "aria-pressed"); got != "true" {
		t.Errorf("Bob's star aria-pressed = %q, want true", got)
	}

	rita := pb.signedIn(t, fx.Rita)
	rita.post("/settings/visibility", url.Values{"visibleTo": {"ORGANIZATION"}}).wantText(t, ".notice.ok", "Saved: who sees your bookings.")
	b.get(path).wantText(t, ".whos-floor", "2 people", "rita Reyes")

	// Bad input changes nothing; another organization's people and buildings are not found.
	b.post("/favourites/people/"+fx.Boris.String(), url.Values{"on": {"true"}}).wantStatus(t, http.StatusNotFound)
	b.post("/favourites/people/"+fx.Bob.String(), url.Values{"on": {"maybe"}}).wantStatus(t, http.StatusBadRequest)
	rita.post("/settings/visibility", url.Values{"visibleTo": {"EVERYONE"}}).wantStatus(t, http.StatusBadRequest)
	b.get("/whos-in?date=24-11-2026").wantStatus(t, http.StatusBadRequest)
	b.get("/whos-in?building="+fx.BuildingB.String()).wantStatus(t, http.StatusNotFound)
}

// TestPageStarResource: a desk's page stars it, and the week page then offers it as the usual desk of a
// person who has booked none.
func TestPageStarResource(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	p := b.get("/")
	p.wantText(t, ".my-week", "You have no usual desk yet")
	p = b.post("/favourites/resources/"+fx.DeskTwo.String(), url.Values{"on": {"true"}, "next": {"/find/resources/" + fx.DeskTwo.String()}})
	p.wantStatus(t, http.StatusOK)
	if got := p.attr(".star-resource button", "aria-pressed"); got != "true" {
		t.Errorf("star aria-pressed = %q, want true", got)
	}
	b.get("/").wantText(t, ".my-week", "Your usual desk: Desk 2.", "Book Desk 2, your usual")
	b.post("/favourites/resources/"+fx.RoomB.String(), url.Values{"on": {"true"}}).wantStatus(t, http.StatusNotFound)
}
