package booking_test

import (
	"testing"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

func TestFixtureLoads(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	u := b.User(t, bookingtest.OrgA, bookingtest.Rita)
	if got, want := u.Role, "RECEPTIONIST"; string(got) != want {
		t.Fatalf("Role = %v, want %v", got, want)
	}
}
