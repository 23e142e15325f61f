package layout_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// refused fails unless err is a refusal of code with the message id.
func refused(t *testing.T, err error, code booking.Code, id string) {
	t.Helper()
	var e *booking.Error
	if !errors.As(err, &e) || e.Code != code || e.MessageID != id {
		t.Fatalf("err = %v, want %v with %s", err, code, id)
	}
}

// teamOf makes a team of org named name and returns its id.
func teamOf(t *testing.T, b *fx.Bundle, org uuid.UUID, name string) uuid.UUID {
	t.Helper()
	id := uuid.New()
	if _, err := b.Pool.Exec(t.Context(), `INSERT INTO teams (organization_id, id, name) VALUES ($1, $2, $3)`, org, id, name); err != nil {
		t.Fatal(err)
	}
	return id
}

var corner = booking.MapCoordinates{TopLeftX: 0, TopLeftY: 0, BottomRightX: 200, BottomRightY: 200}

func TestNeighbourhoodRules(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	s := layout.New(b.Pool, b.Service)
	ctx, adam := t.Context(), b.User(t, fx.OrgA, fx.Adam)
	sales, globex := teamOf(t, b, fx.OrgA, "Sales"), teamOf(t, b, fx.OrgB, "Globex sales")
	ok := layout.NeighbourhoodFields{TeamID: sales, Name: "Sales corner", Area: corner}
	for _, tc := range []struct {
		name  string
		floor uuid.UUID
		f     layout.NeighbourhoodFields
		code  booking.Code
		id    string
	}{
		{"NoName", fx.FloorMadrid, layout.NeighbourhoodFields{TeamID: sales, Name: " ", Area: corner}, booking.CodeInvalidRequest, "refusal.neighbourhood.nameRequired"},
		{"LongName", fx.FloorMadrid, layout.NeighbourhoodFields{TeamID: sales, Name: strings.Repeat("a", 101), Area: corner}, booking.CodeInvalidRequest, "refusal.neighbourhood.nameTooLong"},
		{"Empty", fx.FloorMadrid, layout.NeighbourhoodFields{TeamID: sales, Name: "Line", Area: booking.MapCoordinates{TopLeftX: 5, BottomRightX: 5, BottomRightY: 9}}, booking.CodeInvalidRequest, "refusal.neighbourhood.empty"},
		{"Outside", fx.FloorMadrid, layout.NeighbourhoodFields{TeamID: sales, Name: "Far", Area: booking.MapCoordinates{TopLeftX: -1, BottomRightX: 5, BottomRightY: 9}}, booking.CodeInvalidRequest, "refusal.neighbourhood.outside"},
		{"AnotherOrganizationsTeam", fx.FloorMadrid, layout.NeighbourhoodFields{TeamID: globex, Name: "Theirs", Area: corner}, booking.CodeInvalidRequest, "refusal.neighbourhood.noTeam"},
		{"AnotherOrganizationsFloor", fx.FloorB, ok, booking.CodeObjectNotFound, "refusal.neighbourhood.noFloor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.CreateNeighbourhood(ctx, adam, tc.floor, tc.f)
			refused(t, err, tc.code, tc.id)
		})
	}
	_, err := s.CreateNeighbourhood(ctx, b.User(t, fx.OrgA, fx.Rita), fx.FloorMadrid, ok)
	fx.WantCode(t, err, booking.CodeForbidden)

	for i := range layout.MaxNeighbourhoods {
		f := ok
		f.Name = fmt.Sprintf("Zone %d", i)
		if _, err := s.CreateNeighbourhood(ctx, adam, fx.FloorMadrid, f); err != nil {
			t.Fatalf("zone %d: %v", i, err)
		}
	}
	_, err = s.CreateNeighbourhood(ctx, adam, fx.FloorMadrid, ok)
	refused(t, err, booking.CodeInvalidRequest, "refusal.neighbourhood.tooMany")
	if _, err := s.CreateNeighbourhood(ctx, adam, fx.FloorNewYork, ok); err != nil {
		t.Errorf("a zone on another floor: %v", err)
	}

	zones, err := b.Service.FloorNeighbourhoods(ctx, adam, fx.FloorMadrid)
	if err != nil || len(zones) != layout.MaxNeighbourhoods || zones[0].TeamName != "Sales" {
		t.Fatalf("Neighbourhoods = %d zones (%v), want %d of Sales", len(zones), err, layout.MaxNeighbourhoods)
	}
	if zs, _ := b.Service.FloorNeighbourhoods(ctx, b.User(t, fx.OrgB, fx.Boris), fx.FloorMadrid); len(zs) != 0 {
		t.Errorf("organization B sees %d of A's zones", len(zs))
	}
	borisAdmin := b.User(t, fx.OrgB, fx.Boris)
	borisAdmin.Role = booking.RoleAdmin
	fx.WantCode(t, s.ChangeNeighbourhood(ctx, borisAdmin, zones[0].ID, ok), booking.CodeObjectNotFound)
	fx.WantCode(t, s.DeleteNeighbourhood(ctx, borisAdmin, zones[0].ID), booking.CodeObjectNotFound)
}

// TestTeamOnlyAtOnce checks that making a neighbourhood for its team only refuses the next booking of a
// non-member, although the layout was read before.
func TestTeamOnlyAtOnce(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	s := layout.New(b.Pool, b.Service)
	ctx, adam, alice := t.Context(), b.User(t, fx.OrgA, fx.Adam), alice(t, b)
	sales := teamOf(t, b, fx.OrgA, "Sales")
	id, err := s.CreateNeighbourhood(ctx, adam, fx.FloorMadrid, layout.NeighbourhoodFields{TeamID: sales, Name: "Sales corner", Area: corner})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, b, alice, fx.Request(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0)))
	if err := s.ChangeNeighbourhood(ctx, adam, id, layout.NeighbourhoodFields{TeamID: sales, Name: "Sales corner", Area: corner, TeamOnly: true}); err != nil {
		t.Fatal(err)
	}
	_, err = b.Service.CreateBookings(ctx, booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace,
		Bookings: []booking.NewBooking{fx.Request(fx.RoomGoya, fx.At(1, 12, 0), fx.At(1, 13, 0))}})
	refused(t, err, booking.CodeResourceNotAvailable, "refusal.booking.teamOnly")
	if err := s.DeleteNeighbourhood(ctx, adam, id); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, b, alice, fx.Request(fx.RoomGoya, fx.At(1, 12, 0), fx.At(1, 13, 0)))
}
