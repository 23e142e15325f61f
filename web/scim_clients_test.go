package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// The requests in these tests are shaped as Okta's and Microsoft Entra ID's SCIM documentation shows
// them.

const patchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp"

// entraUser is what Entra ID sends to create a person: a userName that is not an address (its
// userPrincipalName or object id, as the admin maps it), the address in emails[type eq "work"].
func entraUser(userName, email string) map[string]any {
	return map[string]any{
		"schemas":    []string{"urn:ietf:params:scim:schemas:core:2.0:User", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"},
		"externalId": "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef", "userName": userName, "active": true,
		"displayName": "Nina Novak",
		"emails":      []any{map[string]any{"primary": true, "type": "work", "value": email}},
		"name":        map[string]any{"familyName": "Novak", "givenName": "Nina", "formatted": "Nina Novak"},
		"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": map[string]any{"department": "Facilities"},
	}
}

// scimListed reads totalResults and the ids of a list answer.
func scimListed(t *testing.T, body map[string]any) (total int, ids []string) {
	t.Helper()
	n, _ := body["totalResults"].(float64)
	resources, _ := body["Resources"].([]any)
	for _, r := range resources {
		id, _ := r.(map[string]any)["id"].(string)
		ids = append(ids, id)
	}
	return int(n), ids
}

func filtered(filter string) string { return "/Users?filter=" + url.QueryEscape(filter) }

// TestSCIMEntraUserName checks that a userName that is not an address is kept as sent, found by
// userName eq, and that Entra ID's matching filters find the person.
func TestSCIMEntraUserName(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	status, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", entraUser("nnovak", "nina@acme.test"))
	wantSCIMStatus(t, "create", status, created, http.StatusCreated)
	id, _ := created["id"].(string)
	if created["userName"] != "nnovak" {
		t.Errorf("userName = %v, want nnovak as sent", created["userName"])
	}
	for _, f := range []string{
		`userName eq "nnovak"`, `userName eq "NNovak"`,
		`emails[type eq "work"].value eq "nina@acme.test"`, `emails.value eq "NINA@acme.test"`,
		`externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef" and active eq true`,
		`userName eq "nnovak" and emails[type eq "work"].value eq "nina@acme.test"`,
	} {
		status, list := sb.scim(t, sb.tokenA, http.MethodGet, filtered(f), nil)
		wantSCIMStatus(t, f, status, list, http.StatusOK)
		if n, ids := scimListed(t, list); n != 1 || len(ids) != 1 || ids[0] != id {
			t.Errorf("%s: %d found %v, want Nina alone", f, n, ids)
		}
	}
	for _, f := range []string{`userName eq "nina@acme.test"`, `active eq false`, `userName eq "nnovak" and active eq false`} {
		status, list := sb.scim(t, sb.tokenA, http.MethodGet, filtered(f), nil)
		wantSCIMStatus(t, f, status, list, http.StatusOK)
		if n, _ := scimListed(t, list); n != 0 {
			t.Errorf("%s: %d found, want none", f, n)
		}
	}
	// B's token never finds A's person, however it asks.
	status, list := sb.scim(t, sb.tokenB, http.MethodGet, filtered(`userName eq "nnovak"`), nil)
	wantSCIMStatus(t, "B's filter", status, list, http.StatusOK)
	if n, _ := scimListed(t, list); n != 0 {
		t.Errorf("B finds A's person")
	}
	// Another person may not take the userName.
	status, body := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", entraUser("NNOVAK", "other@acme.test"))
	if status != http.StatusConflict || body["scimType"] != "uniqueness" {
		t.Errorf("a second nnovak: %d %v, want 409 uniqueness", status, body)
	}
}

// TestSCIMDeletedUser checks that a deleted person answers 404 to every later request and is not found,
// stays in the database deactivated, and comes back when the client creates them again.
func TestSCIMDeletedUser(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	_, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
	id, _ := created["id"].(string)
	status, _ := sb.scim(t, sb.tokenA, http.MethodDelete, "/Users/"+id, nil)
	if status != http.StatusNoContent {
		t.Fatalf("DELETE: %d, want 204", status)
	}
	patch := map[string]any{"schemas": []string{patchOp}, "Operations": []any{map[string]any{"op": "replace", "path": "active", "value": true}}}
	for _, r := range []struct {
		method string
		body   any
	}{{http.MethodGet, nil}, {http.MethodPut, newNina}, {http.MethodPatch, patch}, {http.MethodDelete, nil}} {
		status, body := sb.scim(t, sb.tokenA, r.method, "/Users/"+id, r.body)
		if status != http.StatusNotFound {
			t.Errorf("%s after DELETE: %d %v, want 404", r.method, status, body)
		}
	}
	for _, f := range []string{`userName eq "nina.novak@acme.test"`, `externalId eq "00u1nina"`, `active eq false`} {
		_, list := sb.scim(t, sb.tokenA, http.MethodGet, filtered(f), nil)
		if n, _ := scimListed(t, list); n != 0 {
			t.Errorf("%s finds the deleted person", f)
		}
	}
	var active bool
	if err := sb.Pool.QueryRow(t.Context(), `SELECT active FROM users WHERE id = $1`, id).Scan(&active); err != nil || active {
		t.Errorf("the deleted person in the database: active %v (%v), want there and inactive", active, err)
	}

	status, again := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
	wantSCIMStatus(t, "create again", status, again, http.StatusCreated)
	if again["id"] != id || again["active"] != true {
		t.Errorf("created again: id %v active %v, want the same person %s, active", again["id"], again["active"], id)
	}
	status, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil)
	wantSCIMStatus(t, "get once back", status, got, http.StatusOK)
}

// TestSCIMMetaAndVersions checks meta, the absolute locations, the weak ETags and If-Match.
func TestSCIMMetaAndVersions(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	status, header, created := sb.scimWith(t, sb.tokenA, http.MethodPost, "/Users", newNina, nil)
	wantSCIMStatus(t, "create", status, created, http.StatusCreated)
	id, _ := created["id"].(string)
	meta, _ := created["meta"].(map[string]any)
	location := sb.srv.URL + "/scim/v2/Users/" + id
	if header.Get("Location") != location || meta["location"] != location {
		t.Errorf("Location %q, meta.location %v; want both %s", header.Get("Location"), meta["location"], location)
	}
	version, _ := meta["version"].(string)
	if !strings.HasPrefix(version, `W/"`) || header.Get("ETag") != version {
		t.Errorf("meta.version %q, ETag %q; want one weak tag", version, header.Get("ETag"))
	}
	if meta["resourceType"] != "User" || meta["created"] == nil || meta["lastModified"] == nil {
		t.Errorf("meta = %v, want resourceType, created and lastModified", meta)
	}
	_, header, _ = sb.scimWith(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil, nil)
	if header.Get("ETag") != version {
		t.Errorf("GET ETag = %q, want %q", header.Get("ETag"), version)
	}

	stale := http.Header{"If-Match": {`W/"0000000000000000"`}}
	renamed := map[string]any{}
	for k, v := range newNina {
		renamed[k] = v
	}
	renamed["name"] = map[string]any{"givenName": "Nina", "familyName": "Novak-Kim"}
	patch := map[string]any{"schemas": []string{patchOp}, "Operations": []any{map[string]any{"op": "replace", "path": "name.familyName", "value": "Kim"}}}
	for _, r := range []struct {
		method string
		body   any
	}{{http.MethodPut, renamed}, {http.MethodPatch, patch}, {http.MethodDelete, nil}} {
		status, _, body := sb.scimWith(t, sb.tokenA, r.method, "/Users/"+id, r.body, stale)
		if status != http.StatusPreconditionFailed {
			t.Errorf("%s with a stale If-Match: %d %v, want 412", r.method, status, body)
		}
	}
	_, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil)
	if got["displayName"] != "Nina Novak" {
		t.Errorf("after the refused changes displayName = %v, want Nina Novak", got["displayName"])
	}
	status, header, got = sb.scimWith(t, sb.tokenA, http.MethodPut, "/Users/"+id, renamed, http.Header{"If-Match": {version}})
	wantSCIMStatus(t, "PUT with the current version", status, got, http.StatusOK)
	if v := header.Get("ETag"); v == version || v == "" {
		t.Errorf("ETag after a change = %q, want a new one", v)
	}

	status, config := sb.scim(t, sb.tokenA, http.MethodGet, "/ServiceProviderConfig", nil)
	wantSCIMStatus(t, "ServiceProviderConfig", status, config, http.StatusOK)
	if etag, _ := config["etag"].(map[string]any); etag["supported"] != true {
		t.Errorf("etag = %v, want supported", config["etag"])
	}
	if _, ok := config["documentationUri"]; ok {
		t.Errorf("documentationUri = %v, want none: there is no documentation page on the web", config["documentationUri"])
	}
}

// TestSCIMRefusalTypes checks the scimType of refused requests, as RFC 7644 section 3.12 lists them.
func TestSCIMRefusalTypes(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	_, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
	id, _ := created["id"].(string)
	op := func(o map[string]any) map[string]any {
		return map[string]any{"schemas": []string{patchOp}, "Operations": []any{o}}
	}
	noUserName := map[string]any{}
	for k, v := range newNina {
		if k != "userName" {
			noUserName[k] = v
		}
	}
	for _, tc := range []struct {
		name, method string
		body         any
		scimType     string
	}{
		{"UnknownOp", http.MethodPatch, op(map[string]any{"op": "frobnicate", "path": "active", "value": false}), "invalidSyntax"},
		{"NoSchemas", http.MethodPatch, map[string]any{"Operations": []any{map[string]any{"op": "replace", "path": "active", "value": false}}}, "invalidSyntax"},
		{"NotJSON", http.MethodPatch, `{"Operations": [`, "invalidSyntax"},
		{"ChangeID", http.MethodPatch, op(map[string]any{"op": "replace", "path": "id", "value": "x"}), "mutability"},
		{"ChangeIDWithoutPath", http.MethodPatch, op(map[string]any{"op": "replace", "value": map[string]any{"id": "x"}}), "mutability"},
		{"RemoveUserName", http.MethodPatch, op(map[string]any{"op": "remove", "path": "userName"}), "invalidValue"},
		{"PutWithoutUserName", http.MethodPut, noUserName, "invalidValue"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := sb.scim(t, sb.tokenA, tc.method, "/Users/"+id, tc.body)
			if status != http.StatusBadRequest || body["scimType"] != tc.scimType {
				t.Errorf("%d %v, want 400 %s", status, body, tc.scimType)
			}
		})
	}
	_, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil)
	if d := cmp.Diff(ninaAsSCIM(true), got, ignoreIDAndMeta); d != "" {
		t.Errorf("Nina after the refusals (-want +got):\n%s", d)
	}
}

// TestSCIMAttributes checks attributes and excludedAttributes.
func TestSCIMAttributes(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	keys := func(m map[string]any) string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		return strings.Join(sortedStrings(ks), ",")
	}
	_, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+fx.Alice.String()+"?attributes=userName,name.givenName", nil)
	if k := keys(got); k != "id,name,schemas,userName" {
		t.Errorf("attributes=userName,name.givenName: %s", k)
	}
	_, list := sb.scim(t, sb.tokenA, http.MethodGet, filtered(`userName eq "alice@acme.test"`)+"&excludedAttributes=emails,name,meta", nil)
	resources, _ := list["Resources"].([]any)
	if len(resources) != 1 {
		t.Fatalf("list = %v", list)
	}
	if k := keys(resources[0].(map[string]any)); k != "active,displayName,id,schemas,userName" {
		t.Errorf("excludedAttributes=emails,name,meta: %s", k)
	}
}

// TestSCIMGroups pushes groups as Okta and Entra ID do, and checks that a mapped group's members get its
// role, and lose it when they leave.
func TestSCIMGroups(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	adam := sb.User(t, fx.OrgA, fx.Adam)
	if err := sb.Identity().SetSignInSettings(t.Context(), adam, identity.SignInSettings{
		SCIMAnyDomain: true, GroupRoles: []identity.GroupRole{{Group: "Reception", Role: booking.RoleReceptionist}},
	}); err != nil {
		t.Fatal(err)
	}
	roleOf := func(id string) string {
		var role string
		if err := sb.Pool.QueryRow(t.Context(), `SELECT role FROM users WHERE id = $1`, id).Scan(&role); err != nil {
			t.Fatal(err)
		}
		return role
	}
	alice, bob := fx.Alice.String(), fx.Bob.String()

	// Okta: create the group empty, then PATCH its members in.
	status, header, group := sb.scimWith(t, sb.tokenA, http.MethodPost, "/Groups",
		map[string]any{"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:Group"}, "displayName": "Reception", "members": []any{}}, nil)
	wantSCIMStatus(t, "create group", status, group, http.StatusCreated)
	gid, _ := group["id"].(string)
	if header.Get("Location") != sb.srv.URL+"/scim/v2/Groups/"+gid {
		t.Errorf("Location = %q", header.Get("Location"))
	}
	status, group = sb.scim(t, sb.tokenA, http.MethodPatch, "/Groups/"+gid, map[string]any{"schemas": []string{patchOp},
		"Operations": []any{map[string]any{"op": "add", "path": "members", "value": []any{map[string]any{"value": alice}, map[string]any{"value": bob}}}}})
	wantSCIMStatus(t, "add members", status, group, http.StatusOK)
	if members, _ := group["members"].([]any); len(members) != 2 {
		t.Errorf("members = %v, want Alice and Bob", group["members"])
	}
	if roleOf(alice) != "RECEPTIONIST" || roleOf(bob) != "RECEPTIONIST" {
		t.Errorf("roles after joining Reception: %s, %s; want RECEPTIONIST", roleOf(alice), roleOf(bob))
	}

	// Okta removes one member by a path filter; Entra ID by a value list, with a capitalised op.
	status, _ = sb.scim(t, sb.tokenA, http.MethodPatch, "/Groups/"+gid, map[string]any{"schemas": []string{patchOp},
		"Operations": []any{map[string]any{"op": "remove", "path": `members[value eq "` + alice + `"]`}}})
	if status != http.StatusOK || roleOf(alice) != "EMPLOYEE" {
		t.Errorf("remove Alice: %d, her role %s; want 200 and EMPLOYEE", status, roleOf(alice))
	}
	status, group = sb.scim(t, sb.tokenA, http.MethodPatch, "/Groups/"+gid, map[string]any{"schemas": []string{patchOp},
		"Operations": []any{map[string]any{"op": "Remove", "path": "members", "value": []any{map[string]any{"value": bob}}},
			map[string]any{"op": "Replace", "path": "displayName", "value": "Front desk"}}})
	wantSCIMStatus(t, "Entra remove and rename", status, group, http.StatusOK)
	if roleOf(bob) != "EMPLOYEE" || group["displayName"] != "Front desk" {
		t.Errorf("after Entra's PATCH: Bob %s, name %v", roleOf(bob), group["displayName"])
	}

	// The name feeds the mapping: renaming back makes the members receptionists again.
	sb.scim(t, sb.tokenA, http.MethodPatch, "/Groups/"+gid, map[string]any{"schemas": []string{patchOp},
		"Operations": []any{map[string]any{"op": "add", "path": "members", "value": []any{map[string]any{"value": bob}}}}})
	status, _ = sb.scim(t, sb.tokenA, http.MethodPatch, "/Groups/"+gid, map[string]any{"schemas": []string{patchOp},
		"Operations": []any{map[string]any{"op": "replace", "value": map[string]any{"displayName": "reception"}}}})
	if status != http.StatusOK || roleOf(bob) != "RECEPTIONIST" {
		t.Errorf("rename to reception: %d, Bob %s; want RECEPTIONIST", status, roleOf(bob))
	}

	// Lists: by name, without members when excluded.
	status, list := sb.scim(t, sb.tokenA, http.MethodGet, "/Groups?filter="+url.QueryEscape(`displayName eq "Reception"`)+"&excludedAttributes=members", nil)
	wantSCIMStatus(t, "list groups", status, list, http.StatusOK)
	if n, ids := scimListed(t, list); n != 1 || ids[0] != gid {
		t.Errorf("filter by name: %d %v", n, ids)
	} else if _, ok := list["Resources"].([]any)[0].(map[string]any)["members"]; ok {
		t.Errorf("members listed although excluded")
	}

	// B's token sees nothing of A's group, and A cannot add B's people.
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		if status, _ := sb.scim(t, sb.tokenB, m, "/Groups/"+gid, nil); status != http.StatusNotFound {
			t.Errorf("%s of A's group with B's token: %d, want 404", m, status)
		}
	}
	if _, list := sb.scim(t, sb.tokenB, http.MethodGet, "/Groups", nil); list["totalResults"] != float64(0) {
		t.Errorf("B lists A's groups: %v", list)
	}
	status, body := sb.scim(t, sb.tokenA, http.MethodPatch, "/Groups/"+gid, map[string]any{"schemas": []string{patchOp},
		"Operations": []any{map[string]any{"op": "add", "path": "members", "value": []any{map[string]any{"value": fx.Boris.String()}}}}})
	if status != http.StatusBadRequest || body["scimType"] != "invalidValue" {
		t.Errorf("adding B's Boris to A's group: %d %v, want 400 invalidValue", status, body)
	}
	status, body = sb.scim(t, sb.tokenA, http.MethodPost, "/Groups",
		map[string]any{"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:Group"}, "displayName": "RECEPTION"})
	if status != http.StatusConflict || body["scimType"] != "uniqueness" {
		t.Errorf("a second group named reception: %d %v, want 409 uniqueness", status, body)
	}

	// Deleting the group takes its role away.
	if status, _ := sb.scim(t, sb.tokenA, http.MethodDelete, "/Groups/"+gid, nil); status != http.StatusNoContent || roleOf(bob) != "EMPLOYEE" {
		t.Errorf("delete the group: %d, Bob %s; want 204 and EMPLOYEE", status, roleOf(bob))
	}
	if status, _ := sb.scim(t, sb.tokenA, http.MethodGet, "/Groups/"+gid, nil); status != http.StatusNotFound {
		t.Errorf("GET of a deleted group: %d, want 404", status)
	}
}

// TestSCIMDomains checks that SCIM creates people only at the organization's verified domains, unless
// the identity page allows others.
func TestSCIMDomains(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	sb.exec(t, `UPDATE organizations SET scim_any_domain = false`)
	fx.VerifyDomain(t, sb.Service, fx.OrgA, "acme.test")
	status, body := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", entraUser("omar", "omar@elsewhere.test"))
	if status != http.StatusBadRequest || body["scimType"] != "invalidValue" ||
		!strings.Contains(body["detail"].(string), "elsewhere.test, which is not one of your organization's verified domains") {
		t.Errorf("an address outside the domains: %d %v", status, body)
	}
	if status, body := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", entraUser("nina", "nina@acme.test")); status != http.StatusCreated {
		t.Errorf("an address at the verified domain: %d %v", status, body)
	}

	b := sb.pages.signedIn(t, fx.Adam)
	p := b.post("/admin/identity/settings", url.Values{"domains": {"acme.test"}, "defaultRole": {"EMPLOYEE"}, "scimAnyDomain": {"on"}})
	p.wantStatus(t, http.StatusOK)
	if p.count("input[name=scimAnyDomain][checked]") != 1 {
		t.Errorf("the identity page does not show other domains allowed")
	}
	if status, body := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", entraUser("omar", "omar@elsewhere.test")); status != http.StatusCreated {
		t.Errorf("an address outside the domains, once allowed: %d %v", status, body)
	}
}

func sortedStrings(s []string) []string {
	slices.Sort(s)
	return s
}

// TestSCIMConcurrentPatches sends 20 PATCHes of one person at once, each changing one of four
// attributes, and checks that every change survives: none reads the person before another wrote it.
func TestSCIMConcurrentPatches(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	_, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
	id, _ := created["id"].(string)
	changes := []map[string]any{
		{"op": "replace", "path": "name.givenName", "value": "Nadia"},
		{"op": "replace", "path": "name.familyName", "value": "Novak-Kim"},
		{"op": "replace", "path": "externalId", "value": "00u2nadia"},
		{"op": "replace", "path": "userName", "value": "nadia"},
	}
	var wg sync.WaitGroup
	statuses := make(chan int, 20)
	for i := range 20 {
		body, _ := json.Marshal(map[string]any{"schemas": []string{patchOp}, "Operations": []any{changes[i%len(changes)]}})
		wg.Go(func() {
			req, err := http.NewRequest(http.MethodPatch, sb.srv.URL+"/scim/v2/Users/"+id, bytes.NewReader(body))
			if err != nil {
				statuses <- 0
				return
			}
			req.Header.Set("Content-Type", "application/scim+json")
			req.Header.Set("Authorization", "Bearer "+sb.tokenA)
			r, err := sb.do(req)
			if err != nil {
				statuses <- 0
				return
			}
			statuses <- r.status
		})
	}
	wg.Wait()
	close(statuses)
	for s := range statuses {
		if s != http.StatusOK {
			t.Errorf("a PATCH answered %d, want 200", s)
		}
	}
	_, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil)
	name, _ := got["name"].(map[string]any)
	if name["givenName"] != "Nadia" || name["familyName"] != "Novak-Kim" || got["externalId"] != "00u2nadia" || got["userName"] != "nadia" {
		t.Errorf("after 20 PATCHes at once: %v; every change should have survived", got)
	}
}
