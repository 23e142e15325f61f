package identity_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// refusedWith fails unless err is a refusal of code with the message id.
func refusedWith(t *testing.T, err error, code booking.Code, id string) {
	t.Helper()
	var e *booking.Error
	if !errors.As(err, &e) || e.Code != code || e.MessageID != id {
		t.Fatalf("err = %v, want code %v with %s", err, code, id)
	}
}

// memberIDs are the ids of a team's members, by name.
func memberIDs(t *testing.T, b *bundle, team uuid.UUID) []uuid.UUID {
	t.Helper()
	_, members, err := b.People.Team(t.Context(), b.User(t, fx.OrgA, fx.Adam), team)
	if err != nil {
		t.Fatalf("Team: %v", err)
	}
	ids := []uuid.UUID{}
	for _, m := range members {
		ids = append(ids, m.ID)
	}
	return ids
}

// TestTeamRules checks what a team may be: a name of 1 to 100 characters that no other team of the
// organization has in any case, at most one source, and only admins change them.
func TestTeamRules(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, adam := t.Context(), b.User(t, fx.OrgA, fx.Adam)
	sales, err := b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: " Sales "})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    identity.TeamFields
		id   string
	}{
		{"NoName", identity.TeamFields{Name: "  "}, "refusal.team.nameRequired"},
		{"LongName", identity.TeamFields{Name: strings.Repeat("é", 101)}, "refusal.team.nameTooLong"},
		{"TakenInAnotherCase", identity.TeamFields{Name: "SALES"}, "refusal.team.nameTaken"},
		{"TwoSources", identity.TeamFields{Name: "Ops", IDPGroup: "ops", SCIMGroupID: uuid.New()}, "refusal.team.oneSource"},
		{"AnotherOrganizationsGroup", identity.TeamFields{Name: "Ops", SCIMGroupID: uuid.New()}, "refusal.team.noSCIMGroup"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := b.People.CreateTeam(ctx, adam, tc.f)
			refusedWith(t, err, booking.CodeInvalidRequest, tc.id)
		})
	}
	if _, err := b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: strings.Repeat("é", 100)}); err != nil {
		t.Errorf("a name of 100 characters: %v", err)
	}
	_, err = b.People.CreateTeam(ctx, b.User(t, fx.OrgA, fx.Rita), identity.TeamFields{Name: "Front desk"})
	refusedWith(t, err, booking.CodeForbidden, "refusal.team.onlyAdmins")

	// Another organization may have a team of the same name, and sees none of A's.
	boris := b.User(t, fx.OrgB, fx.Boris)
	boris.Role = booking.RoleAdmin
	if _, err := b.People.CreateTeam(ctx, boris, identity.TeamFields{Name: "Sales"}); err != nil {
		t.Errorf("Sales in organization B: %v", err)
	}
	_, _, err = b.People.Team(ctx, boris, sales)
	fx.WantCode(t, err, booking.CodeObjectNotFound)
	fx.WantCode(t, b.People.ChangeTeam(ctx, boris, sales, identity.TeamFields{Name: "Mine"}), booking.CodeObjectNotFound)
	fx.WantCode(t, b.People.DeleteTeam(ctx, boris, sales), booking.CodeObjectNotFound)
	fx.WantCode(t, b.People.AddTeamMembers(ctx, boris, sales, []uuid.UUID{fx.Boris}), booking.CodeObjectNotFound)
	refusedWith(t, b.People.AddTeamMembers(ctx, adam, sales, []uuid.UUID{fx.Alice, fx.Boris}), booking.CodeInvalidRequest, "refusal.identity.noUser")
	if got := memberIDs(t, b, sales); len(got) != 0 {
		t.Errorf("members after a refused addition = %v, want none", got)
	}
}

// TestTeamBounds checks the most teams an organization has and the most members a team has.
func TestTeamBounds(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, adam := t.Context(), b.User(t, fx.OrgA, fx.Adam)
	var last uuid.UUID
	for i := range identity.MaxTeams {
		id, err := b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: fmt.Sprintf("Team %d", i)})
		if err != nil {
			t.Fatalf("team %d: %v", i, err)
		}
		last = id
	}
	_, err := b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: "One more"})
	refusedWith(t, err, booking.CodeInvalidRequest, "refusal.team.tooMany")

	many := make([]uuid.UUID, identity.MaxTeamMembers+1)
	for i := range many {
		many[i] = uuid.New()
	}
	refusedWith(t, b.People.AddTeamMembers(ctx, adam, last, many), booking.CodeInvalidRequest, "refusal.team.tooManyMembers")
	if err := b.People.DeleteTeam(ctx, adam, last); err != nil {
		t.Fatal(err)
	}
	if _, err := b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: "One more"}); err != nil {
		t.Errorf("a team after one was deleted: %v", err)
	}
}

// TestTeamMembersByHand checks that an admin adds and removes the members of a team made by hand, and
// cannot those of a tied team.
func TestTeamMembersByHand(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, adam := t.Context(), b.User(t, fx.OrgA, fx.Adam)
	sales, err := b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: "Sales"})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.People.AddTeamMembers(ctx, adam, sales, []uuid.UUID{fx.Bob, fx.Alice, fx.Bob}); err != nil {
		t.Fatal(err)
	}
	if err := b.People.AddTeamMembers(ctx, adam, sales, []uuid.UUID{fx.Alice}); err != nil {
		t.Fatalf("adding a member again: %v", err)
	}
	if d := cmp.Diff([]uuid.UUID{fx.Alice, fx.Bob}, memberIDs(t, b, sales)); d != "" {
		t.Errorf("members (-want +got):\n%s", d)
	}
	if err := b.People.RemoveTeamMember(ctx, adam, sales, fx.Alice); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]uuid.UUID{fx.Bob}, memberIDs(t, b, sales)); d != "" {
		t.Errorf("members after removing Alice (-want +got):\n%s", d)
	}
	tied, err := b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: "Ops", IDPGroup: "ops"})
	if err != nil {
		t.Fatal(err)
	}
	refusedWith(t, b.People.AddTeamMembers(ctx, adam, tied, []uuid.UUID{fx.Bob}), booking.CodeInvalidRequest, "refusal.team.tied")
	_, err = b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: "Ops two", IDPGroup: "ops"})
	refusedWith(t, err, booking.CodeInvalidRequest, "refusal.team.groupTaken")
}

// TestTeamsFollowTheGroupsClaim checks that each sign-in puts the person in the teams tied to the groups of
// the claim, and takes them out of the others; a sign-in without the claim leaves them.
func TestTeamsFollowTheGroupsClaim(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	ctx, adam := t.Context(), b.User(t, fx.OrgA, fx.Adam)
	fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")
	if err := b.People.SetSignInSettings(ctx, adam, identity.SignInSettings{Domains: []string{"acme.test"}, DefaultRole: booking.RoleEmployee, GroupsClaim: "groups"}); err != nil {
		t.Fatal(err)
	}
	sales, err := b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: "Sales", IDPGroup: "sales-madrid"})
	if err != nil {
		t.Fatal(err)
	}
	ops, err := b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: "Ops", IDPGroup: "ops"})
	if err != nil {
		t.Fatal(err)
	}
	byHand, err := b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: "Lunch club"})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.People.AddTeamMembers(ctx, adam, byHand, []uuid.UUID{fx.Bob}); err != nil {
		t.Fatal(err)
	}
	var got [][]int
	for _, claims := range []map[string]any{
		{"groups": []any{"Sales-Madrid", "engineering"}}, {"groups": []any{"ops"}}, {}, {"groups": "sales-madrid"}, {"groups": []any{}},
	} {
		if _, err := b.People.SignIn(ctx, identity.Identity{Subject: "idp|bob", Email: "bob@acme.test", EmailVerified: true, Claims: claims}); err != nil {
			t.Fatalf("SignIn with %v: %v", claims, err)
		}
		got = append(got, []int{len(memberIDs(t, b, sales)), len(memberIDs(t, b, ops)), len(memberIDs(t, b, byHand))})
	}
	want := [][]int{{1, 0, 1}, {0, 1, 1}, {0, 1, 1}, {1, 0, 1}, {0, 0, 1}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("members of Sales, Ops and the hand-made team after each sign-in (-want +got):\n%s", d)
	}
}

// TestTeamsFollowSCIMGroups checks that a team tied to a SCIM group starts with its members and follows
// each change of them, and keeps its last members as a hand-made team when the group is deleted.
func TestTeamsFollowSCIMGroups(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, adam := t.Context(), b.User(t, fx.OrgA, fx.Adam)
	c := identity.SCIMClient{OrganizationID: fx.OrgA, TokenName: "Okta"}
	g, err := b.People.ProvisionGroup(ctx, c, identity.GroupFields{DisplayName: "Sales EMEA", Members: []uuid.UUID{fx.Alice, fx.Bob}})
	if err != nil {
		t.Fatal(err)
	}
	sales, err := b.People.CreateTeam(ctx, adam, identity.TeamFields{Name: "Sales", SCIMGroupID: g.ID})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]uuid.UUID{fx.Alice, fx.Bob}, memberIDs(t, b, sales)); d != "" {
		t.Errorf("members once tied (-want +got):\n%s", d)
	}
	if _, err := b.People.ChangeProvisionedGroup(ctx, c, g.ID, "", func(f *identity.GroupFields) error {
		f.Members = []uuid.UUID{fx.Bob, fx.Rita}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]uuid.UUID{fx.Bob, fx.Rita}, memberIDs(t, b, sales)); d != "" {
		t.Errorf("members after the group changed (-want +got):\n%s", d)
	}
	refusedWith(t, b.People.RemoveTeamMember(ctx, adam, sales, fx.Bob), booking.CodeInvalidRequest, "refusal.team.tied")
	if err := b.People.DeleteProvisionedGroup(ctx, c, g.ID, ""); err != nil {
		t.Fatal(err)
	}
	teams, err := b.People.Teams(ctx, adam)
	if err != nil || len(teams) != 1 || !teams[0].ByHand() || teams[0].Members != 2 {
		t.Errorf("teams after the group was deleted = %+v, %v; want Sales by hand with 2 members", teams, err)
	}
}
