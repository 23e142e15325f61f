package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// wantMeta checks the meta of a single-resource answer (RFC 7643 section 3.1, RFC 7644 section 3.14):
// its resourceType, an absolute location, created and lastModified as instants in order, a weak
// version, and the ETag header (and Location, for a 201) equal to them. It returns the version.
func wantMeta(t *testing.T, what string, header http.Header, body map[string]any, resourceType, location string) string {
	t.Helper()
	meta, _ := body["meta"].(map[string]any)
	version, _ := meta["version"].(string)
	got := map[string]any{"resourceType": meta["resourceType"], "location": meta["location"], "ETag": header.Get("ETag")}
	want := map[string]any{"resourceType": resourceType, "location": location, "ETag": version}
	if l := header.Get("Location"); l != "" {
		got["Location"], want["Location"] = l, location
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s: meta (-want +got):\n%s", what, d)
	}
	if !strings.HasPrefix(version, `W/"`) || !strings.HasSuffix(version, `"`) || len(version) < 5 {
		t.Errorf("%s: version %q is not a weak entity tag", what, version)
	}
	created, err1 := time.Parse(time.RFC3339, stringOf(meta["created"]))
	modified, err2 := time.Parse(time.RFC3339, stringOf(meta["lastModified"]))
	if err1 != nil || err2 != nil || modified.Before(created) {
		t.Errorf("%s: created %v and lastModified %v are not instants in order", what, meta["created"], meta["lastModified"])
	}
	return version
}

func stringOf(v any) string { s, _ := v.(string); return s }

// TestSCIMMetaOfEveryAnswer checks meta and the headers on every answer about one resource, for people
// and groups: create, read, replace and PATCH; and that each change gives a new version and a later or
// equal lastModified.
func TestSCIMMetaOfEveryAnswer(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	for _, tc := range []struct {
		resource, kind, create, replace, patch string
	}{
		{"/Users", "User",
			`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"nnovak","emails":[{"value":"nina@acme.test","type":"work","primary":true}]}`,
			`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"nnovak","name":{"givenName":"Nina"},"emails":[{"value":"nina@acme.test","type":"work","primary":true}]}`,
			`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"name.familyName","value":"Novak"}]}`},
		{"/Groups", "Group",
			`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Reception"}`,
			`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Front desk"}`,
			`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"add","path":"members","value":[{"value":"` + fx.Bob.String() + `"}]}]}`},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			status, header, body := sb.scimWith(t, sb.tokenA, http.MethodPost, tc.resource, tc.create, nil)
			wantSCIMStatus(t, "create", status, body, http.StatusCreated)
			id, _ := body["id"].(string)
			location := sb.srv.URL + "/scim/v2" + tc.resource + "/" + id
			versions := []string{wantMeta(t, "create", header, body, tc.kind, location)}
			modified := []string{stringOf(body["meta"].(map[string]any)["lastModified"])}
			for _, step := range []struct{ method, body string }{
				{http.MethodGet, ""}, {http.MethodPut, tc.replace}, {http.MethodGet, ""}, {http.MethodPatch, tc.patch},
			} {
				time.Sleep(time.Second) // lastModified counts whole seconds
				var b any
				if step.body != "" {
					b = step.body
				}
				status, header, body := sb.scimWith(t, sb.tokenA, step.method, tc.resource+"/"+id, b, nil)
				wantSCIMStatus(t, step.method, status, body, http.StatusOK)
				versions = append(versions, wantMeta(t, step.method, header, body, tc.kind, location))
				modified = append(modified, stringOf(body["meta"].(map[string]any)["lastModified"]))
			}
			// A read changes nothing; a PUT and a PATCH change the version and lastModified.
			v, m := versions, modified
			if v[1] != v[0] || v[2] == v[1] || v[3] != v[2] || v[4] == v[3] {
				t.Errorf("versions after create, GET, PUT, GET, PATCH: %q", v)
			}
			if m[1] != m[0] || m[2] <= m[1] || m[3] != m[2] || m[4] <= m[3] {
				t.Errorf("lastModified after create, GET, PUT, GET, PATCH: %q", m)
			}
		})
	}
}

// TestSCIMIfMatch checks If-Match on PUT, PATCH and DELETE of people and groups (RFC 7644 section 3.14):
// a stale version is 412 and changes nothing; the current one, "*", or a list that holds the current
// one, is let through.
func TestSCIMIfMatch(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	_, user := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
	_, group := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Reception"}`)
	stale := `W/"0000000000000000"`
	for _, tc := range []struct {
		path, replace, patch string
	}{
		{"/Users/" + stringOf(user["id"]),
			`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"nina.novak@acme.test","name":{"givenName":"Nina","familyName":"Kim"}}`,
			`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"name.familyName","value":"Lee"}]}`},
		{"/Groups/" + stringOf(group["id"]),
			`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Front desk"}`,
			`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"displayName","value":"Lobby"}]}`},
	} {
		current := func() (string, map[string]any) {
			_, header, body := sb.scimWith(t, sb.tokenA, http.MethodGet, tc.path, nil, nil)
			return header.Get("ETag"), body
		}
		for _, step := range []struct{ method, body string }{
			{http.MethodPut, tc.replace}, {http.MethodPatch, tc.patch}, {http.MethodDelete, ""},
		} {
			var b any
			if step.body != "" {
				b = step.body
			}
			version, before := current()
			status, _, got := sb.scimWith(t, sb.tokenA, step.method, tc.path, b, http.Header{"If-Match": {stale}})
			want := scimErrorBody("412", "", "")
			if got != nil {
				want["detail"] = got["detail"]
			}
			if d := cmp.Diff(want, got); status != http.StatusPreconditionFailed || d != "" || !strings.Contains(stringOf(got["detail"]), stale) {
				t.Errorf("%s %s stale: status %d, want 412 naming the tag; body (-want +got):\n%s", step.method, tc.path, status, d)
			}
			if v, after := current(); v != version || cmp.Diff(before, after) != "" {
				t.Errorf("%s %s stale changed the resource", step.method, tc.path)
			}
			if step.method == http.MethodDelete {
				if status, _, got := sb.scimWith(t, sb.tokenA, step.method, tc.path, nil, http.Header{"If-Match": {version}}); status != http.StatusNoContent {
					t.Errorf("DELETE %s with the current version: status %d %v, want 204", tc.path, status, got)
				}
				continue
			}
			for _, ifMatch := range []func(current string) string{
				func(v string) string { return stale + ", " + v },
				func(string) string { return "*" },
				func(v string) string { return v },
			} {
				v, _ := current()
				status, _, got := sb.scimWith(t, sb.tokenA, step.method, tc.path, b, http.Header{"If-Match": {ifMatch(v)}})
				if status != http.StatusOK {
					t.Errorf("%s %s If-Match %s: status %d %v, want 200", step.method, tc.path, ifMatch(v), status, got)
				}
			}
		}
	}
}

// TestSCIMLocationWithoutBaseURL checks that without BASE_URL the locations are built from the
// request's scheme and host.
func TestSCIMLocationWithoutBaseURL(t *testing.T) {
	t.Parallel()
	tb := setupOIDC(t, nil, func(d *web.Deps) { d.BaseURL = "" })
	tb.exec(t, `UPDATE organizations SET scim_any_domain = true`)
	admin := tb.User(t, fx.OrgA, fx.Adam)
	_, token, err := tb.Identity().CreateSCIMToken(t.Context(), admin, "Okta")
	if err != nil {
		t.Fatal(err)
	}
	sb := &scimBundle{testBundle: tb, tokenA: token, checks: newSCIMChecks(t)}
	status, header, body := sb.scimWith(t, token, http.MethodPost, "/Users", newNina, http.Header{"Host": {"booking.example:8443"}})
	wantSCIMStatus(t, "create", status, body, http.StatusCreated)
	wantMeta(t, "create", header, body, "User", "http://booking.example:8443/scim/v2/Users/"+stringOf(body["id"]))
}
