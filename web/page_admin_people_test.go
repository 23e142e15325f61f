package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The people page of the office settings: search, add, role and language in words.

// personRow returns the CSS selector of a person's row.
func personRow(id uuid.UUID) string { return "#person-" + id.String() }

// personValues are the values of a person's form.
func personValues(etag, name, surname, email, role, language string) url.Values {
	return url.Values{"etag": {etag}, "name": {name}, "surname": {surname}, "email": {email}, "role": {role}, "language": {language}}
}

func TestPageAdminPeople(t *testing.T) {
	t.Parallel()

	t.Run("ListAndSearch", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		p := b.get("/admin/people")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "People")
		if got := p.count(".person-row"); got != 4 {
			t.Errorf("rows = %d, want Acme's 4 people; page: %s", got, p.text("main"))
		}
		p.wantText(t, personRow(fx.Rita), "rita Reyes", "rita@acme.test", "Receptionist", "English")
		p.wantText(t, personRow(fx.Adam), "Admin")
		p.wantText(t, personRow(fx.Bob), "Employee")
		if p.count(personRow(fx.Boris)) != 0 {
			t.Errorf("another organization's person is listed")
		}
		if got := p.count(".person-access"); got != 3 || p.count(personRow(fx.Adam)+" .person-access") != 0 {
			t.Errorf("deactivate forms = %d, want one for each person but the admin", got)
		}
		found := b.hxGet("/admin/people?q=REYES")
		found.wantStatus(t, http.StatusOK)
		if found.count("header.top") != 0 || found.count(".person-row") != 1 || found.count(personRow(fx.Rita)) != 1 {
			t.Errorf("search answered %d rows: %s", found.count(".person-row"), found.text("body"))
		}
		b.get("/admin/people?q=nobody-like-this").wantText(t, "#people", "Nobody matches “nobody-like-this”.")
	})

	t.Run("SignInBindingShownAndUnlinked", func(t *testing.T) {
		pb := setupPages(t)
		fx.VerifyDomain(t, pb.Service, fx.OrgA, "acme.test")
		if _, err := pb.Identity().UserByIdentity(t.Context(), "idp|rita", "rita@acme.test", true); err != nil {
			t.Fatal(err)
		}
		b := pb.signedIn(t, fx.Adam)
		p := b.get("/admin/people")
		p.wantText(t, personRow(fx.Rita)+" .person-signin", "Signs in as idp|rita, bound on ")
		p.wantText(t, personRow(fx.Bob)+" .person-signin", "Not bound to a sign-in: their next sign-in binds it.")
		if n := p.count(personRow(fx.Bob) + " .person-unlink"); n != 0 {
			t.Errorf("Bob, bound to nothing, has %d unlink forms", n)
		}
		unlink := "/admin/people/" + fx.Rita.String() + "/unlink"
		stale := b.hxPost(unlink, url.Values{"etag": {`W/"0"`}})
		stale.wantStatus(t, http.StatusPreconditionFailed)
		if n := fx.RowCount(t, pb.Bundle, "SELECT count(*) FROM users WHERE id = $1 AND oidc_subject = 'idp|rita'", fx.Rita); n != 1 {
			t.Fatalf("a stale unlink changed Rita's binding")
		}
		r := b.hxPost(unlink, url.Values{"etag": {p.attr(personRow(fx.Rita)+" .person-unlink input[name=etag]", "value")}})
		r.wantStatus(t, http.StatusOK)
		r.wantText(t, ".person-row", "Unlinked rita Reyes's sign-in: their next sign-in binds their account again.")
		r.wantText(t, ".person-signin", "Not bound to a sign-in")
		if n := fx.RowCount(t, pb.Bundle, "SELECT count(*) FROM users WHERE id = $1 AND oidc_subject IS NULL", fx.Rita); n != 1 {
			t.Errorf("Rita is still bound after the unlink")
		}
		if n := fx.RowCount(t, pb.Bundle, "SELECT count(*) FROM admin_audit WHERE object_id = $1 AND before->>'oidcSubject' = 'idp|rita' AND after->>'oidcSubject' IS NULL", fx.Rita); n != 1 {
			t.Errorf("audit entries of the unlink = %d, want 1", n)
		}
		// Her next sign-in binds her again, with a new time.
		if _, err := pb.Identity().UserByIdentity(t.Context(), "idp|rita-2", "rita@acme.test", true); err != nil {
			t.Fatal(err)
		}
		b.get("/admin/people").wantText(t, personRow(fx.Rita)+" .person-signin", "Signs in as idp|rita-2, bound on ")
		// Another organization's person is not found.
		b.hxPost("/admin/people/"+fx.Boris.String()+"/unlink", url.Values{}).wantStatus(t, http.StatusNotFound)
	})

	t.Run("AddAPerson", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		p := b.post("/admin/people", personValues("", "zoe", "Zeta", "zoe@acme.test", "RECEPTIONIST", "es"))
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "Added zoe Zeta as receptionist. They can sign in with zoe@acme.test.")
		p.wantText(t, ".person-row", "zoe Zeta", "Receptionist", "Spanish (español)")
		b.get("/admin/people").wantText(t, "#people > p", "5 people")
	})

	t.Run("AddRefusedInWords", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		p := b.post("/admin/people", personValues("", "zoe", "", "not-an-address", "EMPLOYEE", "en"))
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".add-person [role=alert]", "Please check the form", "E-mail: \"not-an-address\" is not an e-mail address.")
		if got := p.attr(".add-person input[name=name]", "value"); got != "zoe" {
			t.Errorf("name after the refusal = %q, want what was typed", got)
		}
		p = b.post("/admin/people", personValues("", "zoe", "", "zoe@acme.test", "OWNER", "en"))
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".add-person [role=alert]", "Role: choose Employee, Receptionist or Admin.")
		b.get("/admin/people").wantText(t, "#people > p", "4 people")
	})

	t.Run("SetRoleAndLanguageWithHTMX", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		etag := b.get("/admin/people").attr(personRow(fx.Bob)+" input[name=etag]", "value")
		p := b.hxPost("/admin/people/"+fx.Bob.String(), personValues(etag, "bob", "Baker", "bob@acme.test", "ADMIN", "fr"))
		p.wantStatus(t, http.StatusOK)
		if p.count("header.top") != 0 || p.count("li"+personRow(fx.Bob)) != 1 {
			t.Fatalf("htmx answer is not the row alone: %s", p.body)
		}
		p.wantText(t, personRow(fx.Bob)+" [role=status]", "Saved bob Baker: Admin, French (français).")
		if got := pb.mbUser(t, fx.Bob).Role; got != "ADMIN" {
			t.Errorf("role = %s, want ADMIN", got)
		}
		// The old ETag is stale now: the row shows the current values and says so.
		p = b.hxPost("/admin/people/"+fx.Bob.String(), personValues(etag, "bob", "Baker", "bob@acme.test", "EMPLOYEE", "en"))
		p.wantStatus(t, http.StatusPreconditionFailed)
		p.wantText(t, personRow(fx.Bob)+" [role=alert]", "Someone else changed this meanwhile")
		p.wantText(t, personRow(fx.Bob)+" .person-tags", "Admin", "French")
	})

	t.Run("SetRoleWithoutJavaScript", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		etag := b.get("/admin/people").attr(personRow(fx.Alice)+" input[name=etag]", "value")
		p := b.post("/admin/people/"+fx.Alice.String(), personValues(etag, "alice", "Archer", "alice@acme.test", "RECEPTIONIST", "en"))
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, personRow(fx.Alice)+" .notice.ok", "Saved alice Archer: Receptionist, English.")
	})

	t.Run("SaveEveryField", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		want := pb.mbUser(t, fx.Bob)
		want.Name, want.Surname, want.Email, want.Role, want.UserLanguage = "Roberto", "Panadero", "roberto@acme.test", booking.RoleReceptionist, "es"
		etag := b.get("/admin/people").attr(personRow(fx.Bob)+" input[name=etag]", "value")
		b.hxPost("/admin/people/"+fx.Bob.String(), personValues(etag, "Roberto", "Panadero", "roberto@acme.test", "RECEPTIONIST", "es")).
			wantStatus(t, http.StatusOK)
		if diff := cmp.Diff(want, pb.mbUser(t, fx.Bob)); diff != "" {
			t.Errorf("Bob after saving every field (-want +got):\n%s", diff)
		}
	})

	t.Run("StaleWithoutJavaScript", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		etag := b.get("/admin/people").attr(personRow(fx.Bob)+" input[name=etag]", "value")
		b.post("/admin/people/"+fx.Bob.String(), personValues(etag, "bob", "Baker", "bob@acme.test", "ADMIN", "fr")).wantStatus(t, http.StatusOK)
		// The page's answer to the old ETag shows the current values in the person's row and says so.
		p := b.post("/admin/people/"+fx.Bob.String(), personValues(etag, "bob", "Baker", "bob@acme.test", "EMPLOYEE", "en"))
		p.wantStatus(t, http.StatusPreconditionFailed)
		p.wantText(t, personRow(fx.Bob)+" [role=alert]", "Someone else changed this meanwhile")
		p.wantText(t, personRow(fx.Bob)+" .person-tags", "Admin", "French")
		if got := pb.mbUser(t, fx.Bob).Role; got != booking.RoleAdmin {
			t.Errorf("role = %s, want ADMIN", got)
		}
	})

	t.Run("OthersAre403", func(t *testing.T) {
		pb := setupPages(t)
		for _, who := range []uuid.UUID{fx.Alice, fx.Rita} {
			b := pb.signedIn(t, who)
			p := b.get("/admin/people")
			p.wantStatus(t, http.StatusForbidden)
			p.wantText(t, "main", "Only an admin of the organization can change its settings.")
			b.post("/admin/people", personValues("", "x", "", "x@acme.test", "ADMIN", "")).wantStatus(t, http.StatusForbidden)
			r := b.hxPost("/admin/people/"+who.String(), personValues("", "x", "", "x@acme.test", "ADMIN", ""))
			r.wantStatus(t, http.StatusForbidden)
			r.wantText(t, ".notice", "Only an admin of the organization can change its settings.")
		}
		if got := pb.mbUser(t, fx.Alice).Role; got != "EMPLOYEE" {
			t.Errorf("alice made herself %s", got)
		}
	})

	t.Run("DeactivateAndReactivate", func(t *testing.T) {
		pb := setupPages(t)
		future := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := pb.signedIn(t, fx.Adam)
		p := b.hxPost("/admin/people/"+fx.Alice.String()+"/active", url.Values{"active": {"false"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, personRow(fx.Alice)+" .person-tags", "Deactivated: cannot sign in")
		p.wantText(t, personRow(fx.Alice)+" [role=status]", "Deactivated: they cannot sign in, and their future bookings were released.")
		p.wantText(t, personRow(fx.Alice)+" .person-access button", "Reactivate alice")
		wantBookingStatus(t, pb, future.ID, booking.StatusCancelled)
		b.get("/admin/people").wantText(t, personRow(fx.Alice)+" .person-tags", "Deactivated: cannot sign in")

		p = b.post("/admin/people/"+fx.Alice.String()+"/active", url.Values{"active": {"true"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, personRow(fx.Alice)+" .notice.ok", "Reactivated: they can sign in again.")
		if p.count(personRow(fx.Alice)+".inactive") != 0 || p.count(personRow(fx.Alice)+" .badge.DEACTIVATED") != 0 {
			t.Errorf("alice still shows as deactivated: %s", p.text(personRow(fx.Alice)))
		}
		p.wantText(t, personRow(fx.Alice)+" .person-access button", "Deactivate alice")
		wantBookingStatus(t, pb, future.ID, booking.StatusCancelled)
	})

	t.Run("AnotherOrganizationsPersonIs404", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		b.post("/admin/people/"+fx.Boris.String(), personValues(`"x"`, "boris", "", "boris@globex.test", "ADMIN", "")).
			wantStatus(t, http.StatusNotFound)
		b.post("/admin/people/"+fx.Boris.String()+"/active", url.Values{"active": {"false"}}).wantStatus(t, http.StatusNotFound)
	})
}

// wantBookingStatus checks a booking's status in the database, whoever its organizer is.
func wantBookingStatus(t *testing.T, pb *pageBundle, id uuid.UUID, want booking.Status) {
	t.Helper()
	if n := fx.RowCount(t, pb.Bundle, "SELECT count(*) FROM bookings WHERE id = $1 AND status = $2", id, string(want)); n != 1 {
		t.Errorf("booking %s is not %s", id, want)
	}
}
