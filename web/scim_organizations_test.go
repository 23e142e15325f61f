package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// scimUser is a person as the service answers them in SCIM, without meta.
func scimUser(id, email, given, family, externalID string, active bool) map[string]any {
	full := strings.TrimSpace(given + " " + family)
	u := map[string]any{
		"schemas":     []any{"urn:ietf:params:scim:schemas:core:2.0:User", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"},
		"id":          id,
		"userName":    email,
		"name":        map[string]any{"givenName": given, "familyName": family, "formatted": full},
		"displayName": full,
		"emails":      []any{map[string]any{"value": email, "type": "work", "primary": true}},
		"active":      active,
	}
	if externalID != "" {
		u["externalId"] = externalID
	}
	return u
}

// scimList is a SCIM list answer.
// scimList is a SCIM list answer: itemsPerPage is the number of people returned (RFC 7644 section 3.4.2).
func scimList(total, startIndex int, people ...map[string]any) map[string]any {
	resources := make([]any, len(people))
	for i, p := range people {
		resources[i] = p
	}
	return map[string]any{
		"schemas":      []any{"urn:ietf:params:scim:api:messages:2.0:ListResponse"},
		"totalResults": float64(total), "itemsPerPage": float64(len(people)), "startIndex": float64(startIndex),
		"Resources": resources,
	}
}

// scimErrorBody is a SCIM error answer; scimType "" leaves it out.
func scimErrorBody(status, scimType, detail string) map[string]any {
	e := map[string]any{"schemas": []any{"urn:ietf:params:scim:api:messages:2.0:Error"}, "status": status, "detail": detail}
	if scimType != "" {
		e["scimType"] = scimType
	}
	return e
}

var ignoreMeta = cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return k == "meta" })

// ninaOf is Nina as Okta sends her to an organization, with the same externalId in every organization.
func ninaOf(email string) map[string]any {
	return map[string]any{
		"schemas":  []string{"urn:ietf:params:scim:schemas:core:2.0:User"},
		"userName": email, "name": map[string]any{"givenName": "Nina", "familyName": "Novak"},
		"active": true, "externalId": "00u1nina",
	}
}

// twoOrganizations is setupSCIM with Nina created in A (nina@acme.test) and in B (nina@globex.test),
// both with the externalId 00u1nina.
type twoOrganizations struct {
	*scimBundle
	ninaA, ninaB map[string]any // as the service answers them
}

func setupTwoOrganizations(t *testing.T) *twoOrganizations {
	t.Helper()
	sb := setupSCIM(t)
	o := &twoOrganizations{scimBundle: sb}
	for _, tc := range []struct {
		token, email string
		into         *map[string]any
	}{{sb.tokenA, "nina@acme.test", &o.ninaA}, {sb.tokenB, "nina@globex.test", &o.ninaB}} {
		status, body := sb.scim(t, tc.token, http.MethodPost, "/Users", ninaOf(tc.email))
		wantSCIMStatus(t, "create "+tc.email, status, body, http.StatusCreated)
		id, _ := body["id"].(string)
		*tc.into = scimUser(id, tc.email, "Nina", "Novak", "00u1nina", true)
	}
	return o
}

// TestSCIMListsOneOrganization compares whole list answers of two organizations' tokens: neither lists,
// filters or counts the other's people.
func TestSCIMListsOneOrganization(t *testing.T) {
	t.Parallel()
	o := setupTwoOrganizations(t)
	adam := scimUser(fx.Adam.String(), "adam@acme.test", "adam", "Adler", "", true)
	alice := scimUser(fx.Alice.String(), "alice@acme.test", "alice", "Archer", "", true)
	bob := scimUser(fx.Bob.String(), "bob@acme.test", "bob", "Baker", "", true)
	rita := scimUser(fx.Rita.String(), "rita@acme.test", "rita", "Reyes", "", true)
	boris := scimUser(fx.Boris.String(), "boris@globex.test", "boris", "Becker", "", true)

	for _, tc := range []struct {
		name, token, query string
		want               map[string]any
	}{
		{"AListsItsOwn", o.tokenA, "", scimList(5, 1, adam, alice, bob, o.ninaA, rita)},
		{"BListsItsOwn", o.tokenB, "", scimList(2, 1, boris, o.ninaB)},
		{"APage", o.tokenA, "?startIndex=2&count=2", scimList(5, 2, alice, bob)},
		{"BPagePastTheEnd", o.tokenB, "?startIndex=3&count=2", scimList(2, 3)},
		{"BFiltersAsAddress", o.tokenB, "?filter=" + url.QueryEscape(`userName eq "alice@acme.test"`), scimList(0, 1)},
		{"AFiltersBsAddress", o.tokenA, "?filter=" + url.QueryEscape(`userName eq "BORIS@globex.test"`), scimList(0, 1)},
		{"BFiltersItsOwnAddress", o.tokenB, "?filter=" + url.QueryEscape(`userName eq "BORIS@globex.test"`), scimList(1, 1, boris)},
		{"AFiltersTheSharedExternalID", o.tokenA, "?filter=" + url.QueryEscape(`externalId eq "00u1nina"`), scimList(1, 1, o.ninaA)},
		{"BFiltersTheSharedExternalID", o.tokenB, "?filter=" + url.QueryEscape(`externalId eq "00u1nina"`), scimList(1, 1, o.ninaB)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, got := o.scim(t, tc.token, http.MethodGet, "/Users"+tc.query, nil)
			wantSCIMStatus(t, tc.query, status, got, http.StatusOK)
			if d := cmp.Diff(tc.want, got, ignoreMeta); d != "" {
				t.Errorf("GET /Users%s (-want +got):\n%s", tc.query, d)
			}
		})
	}
}

// TestSCIMReplaceChecksAddressesInOneOrganization checks that an e-mail address is unique within an
// organization only: B may give its person an address one of A's people has, but not one of B's.
func TestSCIMReplaceChecksAddressesInOneOrganization(t *testing.T) {
	t.Parallel()
	o := setupTwoOrganizations(t)
	id, _ := o.ninaB["id"].(string)

	status, got := o.scim(t, o.tokenB, http.MethodPut, "/Users/"+id, ninaOf("Boris@globex.test"))
	want := scimErrorBody("409", "uniqueness", "someone in the organization already has this e-mail address")
	if d := cmp.Diff(want, got); status != http.StatusConflict || d != "" {
		t.Errorf("PUT with Boris's address: status %d, want 409; body (-want +got):\n%s", status, d)
	}

	status, got = o.scim(t, o.tokenB, http.MethodPut, "/Users/"+id, ninaOf("alice@acme.test"))
	wantSCIMStatus(t, "PUT with Alice's address", status, got, http.StatusOK)
	if d := cmp.Diff(scimUser(id, "alice@acme.test", "Nina", "Novak", "00u1nina", true), got, ignoreMeta); d != "" {
		t.Errorf("PUT with Alice's address (-want +got):\n%s", d)
	}

	// A's Alice is untouched, and A still finds her alone by her address.
	status, got = o.scim(t, o.tokenA, http.MethodGet, "/Users?filter="+url.QueryEscape(`userName eq "alice@acme.test"`), nil)
	wantSCIMStatus(t, "A's filter", status, got, http.StatusOK)
	if d := cmp.Diff(scimList(1, 1, scimUser(fx.Alice.String(), "alice@acme.test", "alice", "Archer", "", true)), got, ignoreMeta); d != "" {
		t.Errorf("A's filter after B's rename (-want +got):\n%s", d)
	}
}
