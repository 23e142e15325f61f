package identity_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// alicesBookings are three bookings Alice organizes: one tomorrow, one checked in and under way now, and
// one over yesterday.
type alicesBookings struct{ future, running, past string }

// setupDeactivation loads the fixture and Alice's three bookings.
func setupDeactivation(t *testing.T) (*bundle, alicesBookings) {
	t.Helper()
	b := setup(t)
	future := fx.LayoutBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0), booking.StatusPending)
	running := fx.LayoutBooking(fx.RoomVelazquez, fx.At(0, 8, 30), fx.At(0, 10, 0), booking.StatusActive)
	past := fx.LayoutBooking(fx.RoomGoya, fx.At(-1, 10, 0), fx.At(-1, 11, 0), booking.StatusFinished)
	if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Bookings: []layout.LayoutBooking{future, running, past}}); err != nil {
		t.Fatalf("import bookings: %v", err)
	}
	return b, alicesBookings{future: future.ID, running: running.ID, past: past.ID}
}

// bookingState is a booking's status and end, as stored.
type bookingState struct {
	Status string
	End    time.Time
}

func stateOf(t *testing.T, b *bundle, id string) bookingState {
	t.Helper()
	var s bookingState
	if err := b.Pool.QueryRow(t.Context(), `SELECT status, end_date FROM bookings WHERE id = $1`, id).Scan(&s.Status, &s.End); err != nil {
		t.Fatalf("booking %s: %v", id, err)
	}
	s.End = s.End.In(fx.Madrid)
	return s
}

// wantReleased checks that Alice's future booking is cancelled, the running one finished now, and the
// past one untouched.
func wantReleased(t *testing.T, b *bundle, bs alicesBookings) {
	t.Helper()
	got := map[string]bookingState{
		"future": stateOf(t, b, bs.future), "running": stateOf(t, b, bs.running), "past": stateOf(t, b, bs.past),
	}
	want := map[string]bookingState{
		"future":  {Status: "CANCELLED", End: fx.At(1, 11, 0)},
		"running": {Status: "FINISHED", End: fx.Now},
		"past":    {Status: "FINISHED", End: fx.At(-1, 11, 0)},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Alice's bookings (-want +got):\n%s", d)
	}
}

func TestSetUserActive(t *testing.T) {
	t.Parallel()

	t.Run("DeactivationReleasesBookingsAndRefusesAccess", func(t *testing.T) {
		b, bs := setupDeactivation(t)
		adam, rita := b.User(t, fx.OrgA, fx.Adam), b.User(t, fx.OrgA, fx.Rita)
		if err := b.People.SetUserActive(t.Context(), adam, fx.Alice, false); err != nil {
			t.Fatalf("SetUserActive: %v", err)
		}
		wantReleased(t, b, bs)
		if _, err := b.Service.UserByID(t.Context(), fx.OrgA, fx.Alice); !errors.Is(err, booking.ErrDeactivated) {
			t.Errorf("UserByID: err = %v, want ErrDeactivated", err)
		}
		if _, err := b.People.UserByToken(t.Context(), fx.OrgA, fx.Alice, fx.Now.Add(time.Minute)); !errors.Is(err, booking.ErrDeactivated) {
			t.Errorf("UserByToken: err = %v, want ErrDeactivated", err)
		}
		alice := fx.Alice
		_, err := b.Service.ActingFor(t.Context(), rita, &alice)
		fx.WantCode(t, err, booking.CodeUserNotFound)
		if found, err := b.Service.SearchPeople(t.Context(), rita, "alice"); err != nil || len(found) != 0 {
			t.Errorf("SearchPeople(alice) = %v, %v; want nobody", found, err)
		}
		// Doing it again changes nothing, and the audit log has the one deactivation, by Adam.
		if err := b.People.SetUserActive(t.Context(), adam, fx.Alice, false); err != nil {
			t.Fatalf("SetUserActive again: %v", err)
		}
		wantReleased(t, b, bs)
		if got := fx.RowCount(t, b.Bundle, `SELECT count(*) FROM admin_audit WHERE collection = 'users' AND object_id = $1
			AND action = 'DEACTIVATE' AND actor_id = $2 AND after->'releasedBookings' ? $3`, fx.Alice, fx.Adam, bs.future); got != 1 {
			t.Errorf("audit entries of the deactivation = %d, want 1 naming the released booking", got)
		}
	})

	t.Run("ReactivationLetsThemSignInWithNewTokensOnly", func(t *testing.T) {
		b, bs := setupDeactivation(t)
		adam := b.User(t, fx.OrgA, fx.Adam)
		for _, active := range []bool{false, true} {
			if err := b.People.SetUserActive(t.Context(), adam, fx.Alice, active); err != nil {
				t.Fatalf("SetUserActive(%v): %v", active, err)
			}
		}
		if u, err := b.Service.UserByID(t.Context(), fx.OrgA, fx.Alice); err != nil || !u.Active {
			t.Errorf("UserByID = %+v, %v; want Alice, active", u, err)
		}
		_, err := b.People.UserByToken(t.Context(), fx.OrgA, fx.Alice, fx.Now.Add(-time.Minute))
		fx.WantMessagePrefix(t, err, "the token was revoked")
		if _, err := b.People.UserByToken(t.Context(), fx.OrgA, fx.Alice, fx.Now.Add(time.Second)); err != nil {
			t.Errorf("a token issued after the reactivation: %v", err)
		}
		wantReleased(t, b, bs) // the released bookings stay released
	})

	t.Run("Refusals", func(t *testing.T) {
		b, _ := setupDeactivation(t)
		adam, rita := b.User(t, fx.OrgA, fx.Adam), b.User(t, fx.OrgA, fx.Rita)
		for _, tc := range []struct {
			name  string
			actor booking.User
			user  uuid.UUID
			want  booking.Code
		}{
			{"NotAnAdmin", rita, fx.Alice, booking.CodeForbidden},
			{"AnotherOrganizationsPerson", adam, fx.Boris, booking.CodeUserNotFound},
			{"UnknownPerson", adam, uuid.New(), booking.CodeUserNotFound},
			{"Oneself", adam, fx.Adam, booking.CodeInvalidRequest},
		} {
			t.Run(tc.name, func(t *testing.T) {
				fx.WantCode(t, b.People.SetUserActive(t.Context(), tc.actor, tc.user, false), tc.want)
			})
		}
		for _, who := range []struct{ org, id uuid.UUID }{{fx.OrgA, fx.Alice}, {fx.OrgB, fx.Boris}, {fx.OrgA, fx.Adam}} {
			if _, err := b.Service.UserByID(t.Context(), who.org, who.id); err != nil {
				t.Errorf("after the refusals, UserByID(%s): %v", who.id, err)
			}
		}
	})

	t.Run("ImportDeactivatesAndReactivatesTheSameWay", func(t *testing.T) {
		b, bs := setupDeactivation(t)
		alice := fixtureUser(t, fx.Alice)
		importAlice := func(active *bool) {
			t.Helper()
			alice.Active = active
			if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{alice}}); err != nil {
				t.Fatalf("import: %v", err)
			}
		}
		no, yes := false, true
		importAlice(&no)
		wantReleased(t, b, bs)
		importAlice(nil) // left out: stays deactivated
		if _, err := b.Service.UserByID(t.Context(), fx.OrgA, fx.Alice); !errors.Is(err, booking.ErrDeactivated) {
			t.Errorf("after an import without active: err = %v, want ErrDeactivated", err)
		}
		importAlice(&yes)
		if _, err := b.Service.UserByID(t.Context(), fx.OrgA, fx.Alice); err != nil {
			t.Errorf("after an import with active true: %v", err)
		}
	})
}

// fixtureUser returns a person of the fixture's layout document.
func fixtureUser(t *testing.T, id uuid.UUID) layout.LayoutUser {
	t.Helper()
	for _, u := range fx.Layout().Users {
		if u.ID == id.String() {
			return u
		}
	}
	t.Fatalf("no user %s in the fixture", id)
	return layout.LayoutUser{}
}
