package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// listCounts are the numbers of a SCIM list answer, and how many resources it holds.
type listCounts struct {
	TotalResults, ItemsPerPage, StartIndex, Resources int
}

func countsOf(body map[string]any) listCounts {
	n := func(k string) int { f, _ := body[k].(float64); return int(f) }
	resources, _ := body["Resources"].([]any)
	return listCounts{n("totalResults"), n("itemsPerPage"), n("startIndex"), len(resources)}
}

// TestSCIMItemsPerPage checks that itemsPerPage is the number of resources on the page (RFC 7644
// section 3.4.2), not the count the client asked for, in every list: A has four people (Adam, Alice, Bob
// and Rita), two resource types and six schemas.
func TestSCIMItemsPerPage(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	for _, tc := range []struct {
		name, path string
		want       listCounts
	}{
		{"OktaFirstPage", "/Users?startIndex=1&count=100", listCounts{4, 4, 1, 4}},
		{"NoCount", "/Users", listCounts{4, 4, 1, 4}},
		{"SmallerPage", "/Users?startIndex=1&count=3", listCounts{4, 3, 1, 3}},
		{"LastPage", "/Users?startIndex=3&count=3", listCounts{4, 2, 3, 2}},
		{"PastTheEnd", "/Users?startIndex=9&count=3", listCounts{4, 0, 9, 0}},
		{"CountZero", "/Users?count=0", listCounts{4, 0, 1, 0}},
		{"EntraFilterFindsNobody", "/Users?filter=" + url.QueryEscape(`userName eq "nobody@acme.test"`), listCounts{0, 0, 1, 0}},
		{"EntraFilterFindsOne", "/Users?filter=" + url.QueryEscape(`userName eq "alice@acme.test"`), listCounts{1, 1, 1, 1}},
		{"NoGroups", "/Groups", listCounts{0, 0, 1, 0}},
		{"ResourceTypes", "/ResourceTypes", listCounts{2, 2, 1, 2}},
		{"Schemas", "/Schemas", listCounts{6, 6, 1, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := sb.scim(t, sb.tokenA, http.MethodGet, tc.path, nil)
			wantSCIMStatus(t, tc.path, status, body, http.StatusOK)
			if d := cmp.Diff(tc.want, countsOf(body)); d != "" {
				t.Errorf("GET %s (-want +got):\n%s", tc.path, d)
			}
		})
	}
}

// TestSCIMSubAttributes checks that attributes and excludedAttributes name sub-attributes too (RFC 7644
// sections 3.9 and 3.10), with or without the schema's URN, in single answers and in lists: only the
// sub-attributes asked for are returned, or all but those excluded, of a complex attribute and of each
// value of a multi-valued one. id and schemas are always returned.
func TestSCIMSubAttributes(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	alice := "/Users/" + fx.Alice.String()
	schemas := []any{"urn:ietf:params:scim:schemas:core:2.0:User", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"}
	base := func(fields map[string]any) map[string]any {
		m := map[string]any{"id": fx.Alice.String(), "schemas": schemas}
		for k, v := range fields {
			m[k] = v
		}
		return m
	}
	for _, tc := range []struct {
		name, path string
		want       map[string]any
	}{
		{"GivenNameOnly", alice + "?attributes=name.givenName",
			base(map[string]any{"name": map[string]any{"givenName": "alice"}})},
		{"WithTheURN", alice + "?attributes=" + url.QueryEscape("urn:ietf:params:scim:schemas:core:2.0:User:name.familyName,userName"),
			base(map[string]any{"name": map[string]any{"familyName": "Archer"}, "userName": "alice@acme.test"})},
		{"AddressesOnly", alice + "?attributes=emails.value",
			base(map[string]any{"emails": []any{map[string]any{"value": "alice@acme.test"}}})},
		{"AllButTheFamilyName", alice + "?excludedAttributes=name.familyName,name.formatted,emails.primary,emails.type,meta",
			base(map[string]any{"userName": "alice@acme.test", "displayName": "alice Archer", "active": true,
				"name": map[string]any{"givenName": "alice"}, "emails": []any{map[string]any{"value": "alice@acme.test"}}})},
		{"InAList", "/Users?filter=" + url.QueryEscape(`userName eq "alice@acme.test"`) + "&attributes=name.givenName",
			scimList(1, 1, base(map[string]any{"name": map[string]any{"givenName": "alice"}}))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, got := sb.scim(t, sb.tokenA, http.MethodGet, tc.path, nil)
			wantSCIMStatus(t, tc.path, status, got, http.StatusOK)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("GET %s (-want +got):\n%s", tc.path, d)
			}
		})
	}
}

// TestSCIMFilterForms checks the filters Okta and Entra ID send, in the forms RFC 7644 section 3.4.2.2
// allows for them, against a set of people (Nina, created by Entra; Bob, deactivated), by the ids they
// find; and that anything else is 400 invalidFilter.
func TestSCIMFilterForms(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	_, nina := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", entraUser("nnovak", "nina@acme.test"))
	sb.scim(t, sb.tokenA, http.MethodPatch, "/Users/"+fx.Bob.String(),
		`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Replace","path":"active","value":"False"}]}`)
	n, bob, adam, alice, rita := stringOf(nina["id"]), fx.Bob.String(), fx.Adam.String(), fx.Alice.String(), fx.Rita.String()
	for _, tc := range []struct {
		filter string
		want   []string // ids, in the order of the list (by address)
	}{
		{`userName eq "NNOVAK"`, []string{n}},
		{`urn:ietf:params:scim:schemas:core:2.0:User:userName eq "nnovak"`, []string{n}},
		{`userName eq "bob@acme.test"`, []string{bob}},
		{`emails[type eq "work"].value eq "Nina@Acme.Test"`, []string{n}},
		{`emails[type eq "work" and value eq "nina@acme.test"]`, []string{n}},
		{`emails[value eq "nina@acme.test"]`, []string{n}},
		{`emails.value eq "nina@acme.test"`, []string{n}},
		{`externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"`, []string{n}},
		{`externalId eq "0A21F0F2-8D2A-4F8E-BF98-7363C4AED4EF"`, nil}, // externalId is caseExact
		{`active eq false`, []string{bob}},
		{`active eq true`, []string{adam, alice, n, rita}},
		{`active eq true and userName eq "bob@acme.test"`, nil},
		{`userName eq "nnovak" and emails[type eq "work"].value eq "nina@acme.test" and active eq true`, []string{n}},
		{`userName eq "nnovak" and userName eq "bob@acme.test"`, nil},
		{`userName eq "nnovak" and userName eq "NNovak"`, []string{n}},
		{`emails[Type eq "Work"].value eq "nina@acme.test"`, []string{n}},
		{`externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef" and externalId eq "0A21F0F2-8D2A-4F8E-BF98-7363C4AED4EF"`, nil},
	} {
		t.Run(tc.filter, func(t *testing.T) {
			status, list := sb.scim(t, sb.tokenA, http.MethodGet, filtered(tc.filter), nil)
			wantSCIMStatus(t, tc.filter, status, list, http.StatusOK)
			total, ids := scimListed(t, list)
			if d := cmp.Diff(tc.want, ids); total != len(tc.want) || d != "" {
				t.Errorf("totalResults %d; ids (-want +got):\n%s", total, d)
			}
		})
	}
	for _, f := range []string{
		`emails[type eq "home"].value eq "nina@acme.test"`, `userName co "nov"`, `active eq "yes"`,
		`name.familyName eq "Novak"`, `userName eq "nnovak" or active eq false`, `userName eq "` + strings.Repeat("n", 1000) + `"`,
	} {
		status, body := sb.scim(t, sb.tokenA, http.MethodGet, filtered(f), nil)
		if status != http.StatusBadRequest || body["scimType"] != "invalidFilter" {
			t.Errorf("%.60s: %d %v, want 400 invalidFilter", f, status, body)
		}
	}

	// Groups: displayName in any case, externalId.
	_, group := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups",
		`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Reception","externalId":"8aa1a0c0"}`)
	for _, f := range []string{`displayName eq "reception"`, `externalId eq "8aa1a0c0"`, `displayName eq "Reception" and externalId eq "8aa1a0c0"`} {
		status, list := sb.scim(t, sb.tokenA, http.MethodGet, "/Groups?filter="+url.QueryEscape(f)+"&excludedAttributes=members", nil)
		wantSCIMStatus(t, f, status, list, http.StatusOK)
		if total, ids := scimListed(t, list); total != 1 || len(ids) != 1 || ids[0] != group["id"] {
			t.Errorf("%s: %d %v, want the group", f, total, ids)
		}
	}
}
