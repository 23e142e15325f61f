package web_test

import (
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestSCIMPatchKeepsWhatItDoesNotName checks that a PATCH of the name alone keeps the externalId, the
// address and the state, in the answer and in what a GET reads afterwards.
func TestSCIMPatchKeepsWhatItDoesNotName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, patch string }{
		{"Okta", `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"name":{"familyName":"Novak-Kim"}}}]}`},
		{"Entra", `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Replace","path":"name.familyName","value":"Novak-Kim"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb := setupSCIM(t)
			status, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
			wantSCIMStatus(t, "create", status, created, http.StatusCreated)
			id, _ := created["id"].(string)
			want := scimUser(id, "nina.novak@acme.test", "Nina", "Novak-Kim", "00u1nina", true)

			status, got := sb.scim(t, sb.tokenA, http.MethodPatch, "/Users/"+id, tc.patch)
			wantSCIMStatus(t, "patch", status, got, http.StatusOK)
			if d := cmp.Diff(want, got, ignoreMeta); d != "" {
				t.Errorf("PATCH answer (-want +got):\n%s", d)
			}
			status, got = sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil)
			wantSCIMStatus(t, "get", status, got, http.StatusOK)
			if d := cmp.Diff(want, got, ignoreMeta); d != "" {
				t.Errorf("GET after the PATCH (-want +got):\n%s", d)
			}
		})
	}
}

// TestSCIMCreateInactive checks that a person created with active false is answered and stored inactive:
// they cannot sign in.
func TestSCIMCreateInactive(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	inactive := map[string]any{}
	for k, v := range newNina {
		inactive[k] = v
	}
	inactive["active"] = false
	status, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", inactive)
	wantSCIMStatus(t, "create", status, created, http.StatusCreated)
	id, _ := created["id"].(string)
	want := scimUser(id, "nina.novak@acme.test", "Nina", "Novak", "00u1nina", false)
	if d := cmp.Diff(want, created, ignoreMeta); d != "" {
		t.Errorf("POST answer (-want +got):\n%s", d)
	}
	status, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil)
	wantSCIMStatus(t, "get", status, got, http.StatusOK)
	if d := cmp.Diff(want, got, ignoreMeta); d != "" {
		t.Errorf("GET (-want +got):\n%s", d)
	}
	uid, err := uuid.Parse(id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Service.UserByID(t.Context(), fx.OrgA, uid); !errors.Is(err, booking.ErrDeactivated) {
		t.Errorf("UserByID = %v, want ErrDeactivated", err)
	}
	if got := fx.RowCount(t, sb.Bundle, `SELECT count(*) FROM users WHERE id = $1 AND NOT active AND deactivated_at IS NOT NULL`, uid); got != 1 {
		t.Errorf("the stored person is not deactivated")
	}
}

// TestSCIMFilters pins the filters peopleFilter supports, userName eq and externalId eq, and refuses
// every other operator, attribute and combination with 400 invalidFilter rather than answering them as eq.
func TestSCIMFilters(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	refused := scimErrorBody("400", "invalidFilter", `Supported filters: userName eq, externalId eq, emails.value eq, emails[type eq "work"].value eq and active eq, joined with and.`)
	alice := scimUser(fx.Alice.String(), "alice@acme.test", "alice", "Archer", "", true)
	for _, tc := range []struct {
		filter     string
		wantStatus int
		want       map[string]any
	}{
		{`userName eq "alice@acme.test"`, http.StatusOK, scimList(1, 1, alice)},
		{`USERNAME eq "Alice@Acme.Test"`, http.StatusOK, scimList(1, 1, alice)},
		{`externalId eq "alice@acme.test"`, http.StatusOK, scimList(0, 1)},
		{`userName sw "alice@acme.test"`, http.StatusBadRequest, refused},
		{`userName co "alice@acme.test"`, http.StatusBadRequest, refused},
		{`userName ew "alice@acme.test"`, http.StatusBadRequest, refused},
		{`userName ne "alice@acme.test"`, http.StatusBadRequest, refused},
		{`userName gt "alice@acme.test"`, http.StatusBadRequest, refused},
		{`userName pr`, http.StatusBadRequest, refused},
		{`externalId ne "x"`, http.StatusBadRequest, refused},
		{`displayName eq "alice Archer"`, http.StatusBadRequest, refused},
		{`name.givenName eq "alice"`, http.StatusBadRequest, refused},
		{`userName eq "alice@acme.test" or userName eq "bob@acme.test"`, http.StatusBadRequest, refused},
		{`userName eq "alice@acme.test" and externalId eq "x"`, http.StatusOK, scimList(0, 1)},
		{`userName eq "alice@acme.test" and active eq true`, http.StatusOK, scimList(1, 1, alice)},
		{`not (userName eq "alice@acme.test")`, http.StatusBadRequest, refused},
	} {
		t.Run(tc.filter, func(t *testing.T) {
			status, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Users?filter="+url.QueryEscape(tc.filter), nil)
			if d := cmp.Diff(tc.want, got, ignoreMeta); status != tc.wantStatus || d != "" {
				t.Errorf("status %d, want %d; body (-want +got):\n%s", status, tc.wantStatus, d)
			}
		})
	}
}
