package layout_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// beaOfB adds Bea, an admin of organization B, and returns her.
func beaOfB(t *testing.T, tb *testBundle) booking.User {
	t.Helper()
	id := uuid.New()
	if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{
		{ID: id.String(), OrganizationID: bookingtest.OrgB.String(), Name: "Bea", Email: "bea@globex.test", Role: "ADMIN"},
	}}); err != nil {
		t.Fatal(err)
	}
	return tb.User(t, bookingtest.OrgB, id)
}

// wantRefused fails unless err is code with exactly the message want, and nothing was written.
func wantRefused(t *testing.T, err error, code booking.Code, want string) {
	t.Helper()
	bookingtest.WantCode(t, err, code)
	if got := err.Error(); got != code.String()+": "+want {
		t.Errorf("message = %q, want %q", got, want)
	}
}

// TestAdminsCannotPlantPeople checks that an admin can neither add people at a domain another
// organization proved nor give anyone an identity-provider subject.
func TestAdminsCannotPlantPeople(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	bea := beaOfB(t, tb)
	bookingtest.VerifyDomain(t, tb.Service, bookingtest.OrgA, "acme.test")
	before := bookingtest.RowCount(t, tb.Bundle, "SELECT count(*) FROM users")

	_, _, err := tb.admin.Put(t.Context(), bea, layout.Users, tb.newID, []byte(`{"name": "Ceo", "email": "ceo@acme.test"}`), "")
	wantRefused(t, err, booking.CodeInvalidRequest, "users[0].email: addresses at acme.test cannot be used in this organization")
	if strings.Contains(err.Error(), "Acme") {
		t.Errorf("the refusal names the domain's organization: %v", err)
	}
	_, _, err = tb.admin.Put(t.Context(), bea, layout.Users, tb.newID, []byte(`{"name": "Nina", "email": "nina@globex.test", "oidcSubject": "idp|nina"}`), "")
	wantRefused(t, err, booking.CodeInvalidRequest, `users[0].oidcSubject: only the person's own sign-in sets it; leave it out to keep it, or send "" to clear it`)
	if got := bookingtest.RowCount(t, tb.Bundle, "SELECT count(*) FROM users"); got != before {
		t.Errorf("%d people, want %d", got, before)
	}

	// An admin may keep a person's subject or clear it.
	alice := bookingtest.Layout().Users[0]
	alice.OIDCSubject = new("idp|alice")
	if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{alice}}); err != nil {
		t.Fatal(err)
	}
	obj, err := tb.admin.Get(t.Context(), tb.adam, layout.Users, bookingtest.Alice)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := tb.admin.Put(t.Context(), tb.adam, layout.Users, bookingtest.Alice, obj.JSON, ""); err != nil {
		t.Errorf("keeping Alice's subject: %v", err)
	}
	var fields map[string]any
	if err := json.Unmarshal(obj.JSON, &fields); err != nil {
		t.Fatal(err)
	}
	fields["oidcSubject"] = ""
	cleared, _ := json.Marshal(fields)
	if _, _, err := tb.admin.Put(t.Context(), tb.adam, layout.Users, bookingtest.Alice, cleared, ""); err != nil {
		t.Fatalf("clearing Alice's subject: %v", err)
	}
	if n := bookingtest.RowCount(t, tb.Bundle, "SELECT count(*) FROM users WHERE oidc_subject IS NOT NULL"); n != 0 {
		t.Errorf("%d people keep a subject after it was cleared", n)
	}

	// null clears it too; leaving it out keeps it.
	alice.OIDCSubject = new("idp|alice-2")
	if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{alice}}); err != nil {
		t.Fatal(err)
	}
	delete(fields, "oidcSubject")
	kept, _ := json.Marshal(fields)
	if _, _, err := tb.admin.Put(t.Context(), tb.adam, layout.Users, bookingtest.Alice, kept, ""); err != nil {
		t.Fatalf("leaving Alice's subject out: %v", err)
	}
	if n := bookingtest.RowCount(t, tb.Bundle, "SELECT count(*) FROM users WHERE oidc_subject = 'idp|alice-2'"); n != 1 {
		t.Errorf("leaving the subject out lost it")
	}
	fields["oidcSubject"] = nil
	nulled, _ := json.Marshal(fields)
	if _, _, err := tb.admin.Put(t.Context(), tb.adam, layout.Users, bookingtest.Alice, nulled, ""); err != nil {
		t.Fatalf("clearing Alice's subject with null: %v", err)
	}
	if n := bookingtest.RowCount(t, tb.Bundle, "SELECT count(*) FROM users WHERE oidc_subject IS NOT NULL"); n != 0 {
		t.Errorf("%d people keep a subject after it was set to null", n)
	}
}

// TestAdminsKeepThemselves checks that an admin neither deactivates, demotes nor deletes their own account
// through the Admin API, and that a deactivation is audited with the admin as its author.
func TestAdminsKeepThemselves(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	me := `{"name": "adam", "surname": "Adler", "email": "adam@acme.test", `
	_, _, err := tb.admin.Put(t.Context(), tb.adam, layout.Users, bookingtest.Adam, []byte(me+`"active": false}`), "")
	wantRefused(t, err, booking.CodeInvalidRequest, "you cannot deactivate your own account; ask another admin")
	_, _, err = tb.admin.Put(t.Context(), tb.adam, layout.Users, bookingtest.Adam, []byte(me+`"role": "EMPLOYEE"}`), "")
	wantRefused(t, err, booking.CodeInvalidRequest, "users[0].role: you cannot change your own role; ask another admin")
	err = tb.admin.Delete(t.Context(), tb.adam, layout.Users, bookingtest.Adam, "")
	wantRefused(t, err, booking.CodeInvalidRequest, "you cannot delete your own account; ask another admin")
	if u := tb.User(t, bookingtest.OrgA, bookingtest.Adam); u.Role != booking.RoleAdmin {
		t.Errorf("Adam is %s, want ADMIN", u.Role)
	}

	bob := `{"name": "bob", "surname": "Baker", "email": "bob@acme.test", "active": false}`
	if _, _, err := tb.admin.Put(t.Context(), tb.adam, layout.Users, bookingtest.Bob, []byte(bob), ""); err != nil {
		t.Fatalf("deactivate Bob: %v", err)
	}
	entries, err := tb.admin.Audit(t.Context(), tb.adam, booking.AuditFilter{ObjectID: &bookingtest.Bob})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, string(e.Action)+" by "+e.ActorName+" "+e.ActorID.String())
	}
	want := []string{"UPDATE by adam Adler " + bookingtest.Adam.String(), "DEACTIVATE by adam Adler " + bookingtest.Adam.String()}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("audit of Bob's deactivation (-want +got):\n%s", d)
	}
}

// TestDeleteKeepsAnAdmin has an admin whose role changed a moment ago delete the organization's only
// other admin: the delete is refused with 4017, as any change that would leave no active admin is.
func TestDeleteKeepsAnAdmin(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	ctx := t.Context()
	nora := uuid.New()
	if _, _, err := tb.admin.Put(ctx, tb.adam, layout.Users, nora, []byte(`{"name": "Nora", "email": "nora@acme.test", "role": "ADMIN"}`), ""); err != nil {
		t.Fatalf("add Nora as an admin: %v", err)
	}
	asNora := tb.User(t, bookingtest.OrgA, nora)
	if _, _, err := tb.admin.Put(ctx, asNora, layout.Users, bookingtest.Adam, []byte(`{"name": "adam", "surname": "Adler", "email": "adam@acme.test", "role": "EMPLOYEE"}`), ""); err != nil {
		t.Fatalf("Nora demotes Adam: %v", err)
	}
	// tb.adam is Adam as he was read before Nora demoted him.
	bookingtest.WantCode(t, tb.admin.Delete(ctx, tb.adam, layout.Users, nora, ""), booking.CodeLastAdmin)
	if u := tb.User(t, bookingtest.OrgA, nora); u.Role != booking.RoleAdmin || !u.Active {
		t.Errorf("Nora is %s, active %v; want an active admin", u.Role, u.Active)
	}
}
