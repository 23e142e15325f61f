package web_test

import (
	"net/http"
	"testing"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// A team tied to a value of the groups claim gets its members from each sign-in through the identity
// provider: Alice joins it when her token names the group, leaves it when it does not, and stays when the
// token carries no groups claim.
func TestTeamsFollowTheSignIn(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	pb := setupPagesOIDC(t, m)
	setSignIn(t, pb, identity.SignInSettings{Domains: []string{"acme.test"}, DefaultRole: booking.RoleEmployee, GroupsClaim: "groups"})
	if _, err := pb.Identity().CreateTeam(t.Context(), pb.User(t, fx.OrgA, fx.Adam), identity.TeamFields{Name: "Sales", IDPGroup: "sales-madrid"}); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		groups []string // nil: the token has no groups claim
		want   int
	}{
		{[]string{"engineering", "Sales-Madrid"}, 1},
		{nil, 1},
		{[]string{"engineering"}, 0},
	} {
		m.QueueUser(&providerUser{MockUser: mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true, Groups: step.groups}})
		pb.browser(t).get("/bookings").wantStatus(t, http.StatusOK)
		if got := fx.TableCount(t, pb.Bundle, "team_members"); got != step.want {
			t.Errorf("groups %q: %d members of Sales, want %d", step.groups, got, step.want)
		}
	}
}
