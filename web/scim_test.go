package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/layout"
)

// scimBundle is a server with pages (development sign-in) and the API, and a SCIM token of each
// organization.
type scimBundle struct {
	*testBundle
	pages          *pageBundle
	tokenA, tokenB string
	checks         *scimChecks // every answer of scim, checked by SCIMMY when the test ends
}

func setupSCIM(t *testing.T) *scimBundle {
	t.Helper()
	tb := setupOIDC(t, nil, func(d *web.Deps) { d.Dev = true })
	// Both organizations let SCIM create people at any domain, as before domains could be proved; the
	// tests of the domain rule turn it off.
	tb.exec(t, `UPDATE organizations SET scim_any_domain = true`)
	adminA := tb.User(t, fx.OrgA, fx.Adam)
	// B has no admin in the fixture; Boris acts as one, as the token's creator.
	adminB := tb.User(t, fx.OrgB, fx.Boris)
	adminB.Role = booking.RoleAdmin
	_, tokenA, err := tb.Identity().CreateSCIMToken(t.Context(), adminA, "Okta")
	if err != nil {
		t.Fatalf("CreateSCIMToken: %v", err)
	}
	_, tokenB, err := tb.Identity().CreateSCIMToken(t.Context(), adminB, "Entra")
	if err != nil {
		t.Fatalf("CreateSCIMToken: %v", err)
	}
	return &scimBundle{
		testBundle: tb, pages: &pageBundle{Bundle: tb.Bundle, srv: tb.srv, server: tb.server},
		tokenA: tokenA, tokenB: tokenB, checks: newSCIMChecks(t),
	}
}

// scim sends a SCIM request with the token (none if "") and returns the status and the decoded body
// (nil when empty).
func (sb *scimBundle) scim(t *testing.T, token, method, path string, body any) (int, map[string]any) {
	t.Helper()
	status, _, m := sb.scimWith(t, token, method, path, body, nil)
	return status, m
}

// scimWith is scim with more headers, returning the answer's headers too.
func (sb *scimBundle) scimWith(t *testing.T, token, method, path string, body any, header http.Header) (int, http.Header, map[string]any) {
	t.Helper()
	var r *bytes.Reader
	switch v := body.(type) {
	case nil:
		r = bytes.NewReader(nil)
	case string:
		r = bytes.NewReader([]byte(v))
	default:
		data, _ := json.Marshal(v)
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, sb.srv.URL+"/scim/v2"+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/scim+json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if host := header.Get("Host"); host != "" {
		req.Host = host
	}
	res := sb.send(t, req)
	if len(res.body) == 0 {
		return res.status, res.header, nil
	}
	var m map[string]any
	if err := json.Unmarshal(res.body, &m); err != nil {
		t.Fatalf("%s %s: body is not JSON: %s", method, path, res.body)
	}
	query := req.URL.Query()
	sb.checks.add(res.status, m, query.Has("attributes") || query.Has("excludedAttributes"))
	return res.status, res.header, m
}

// wantSCIMStatus fails the test at once unless the status is want.
func wantSCIMStatus(t *testing.T, what string, got int, body map[string]any, want int) {
	t.Helper()
	if got != want {
		t.Fatalf("%s: status = %d, want %d; body: %v", what, got, want, body)
	}
}

// newNina is what Okta sends to create a person.
var newNina = map[string]any{
	"schemas":  []string{"urn:ietf:params:scim:schemas:core:2.0:User"},
	"userName": "nina.novak@acme.test",
	"name":     map[string]any{"givenName": "Nina", "familyName": "Novak"},
	"emails":   []any{map[string]any{"value": "nina.novak@acme.test", "primary": true, "type": "work"}},
	"active":   true, "externalId": "00u1nina", "displayName": "Nina Novak",
}

// ninaAsSCIM is Nina as the service answers her, without id and meta.
func ninaAsSCIM(active bool) map[string]any {
	return map[string]any{
		"schemas":     []any{"urn:ietf:params:scim:schemas:core:2.0:User", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"},
		"userName":    "nina.novak@acme.test",
		"name":        map[string]any{"givenName": "Nina", "familyName": "Novak", "formatted": "Nina Novak"},
		"displayName": "Nina Novak",
		"emails":      []any{map[string]any{"value": "nina.novak@acme.test", "type": "work", "primary": true}},
		"active":      active, "externalId": "00u1nina",
	}
}

var ignoreIDAndMeta = cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return k == "id" || k == "meta" })

func TestSCIMUsers(t *testing.T) {
	t.Parallel()

	t.Run("CreateFilterGet", func(t *testing.T) {
		sb := setupSCIM(t)
		status, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
		wantSCIMStatus(t, "create", status, created, http.StatusCreated)
		if d := cmp.Diff(ninaAsSCIM(true), created, ignoreIDAndMeta); d != "" {
			t.Errorf("created (-want +got):\n%s", d)
		}
		id, _ := created["id"].(string)

		for _, f := range []string{`userName eq "nina.novak@acme.test"`, `userName eq "NINA.NOVAK@acme.test"`, `externalId eq "00u1nina"`} {
			status, list := sb.scim(t, sb.tokenA, http.MethodGet, "/Users?filter="+url.QueryEscape(f), nil)
			wantSCIMStatus(t, f, status, list, http.StatusOK)
			resources, _ := list["Resources"].([]any)
			if list["totalResults"] != float64(1) || len(resources) != 1 || resources[0].(map[string]any)["id"] != id {
				t.Errorf("filter %s: %v, want Nina alone", f, list)
			}
		}
		status, list := sb.scim(t, sb.tokenA, http.MethodGet, "/Users?filter="+url.QueryEscape(`userName eq "nobody@acme.test"`), nil)
		wantSCIMStatus(t, "filter nobody", status, list, http.StatusOK)
		if list["totalResults"] != float64(0) {
			t.Errorf("filter nobody: %v, want no one", list)
		}

		status, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil)
		wantSCIMStatus(t, "get", status, got, http.StatusOK)
		if d := cmp.Diff(ninaAsSCIM(true), got, ignoreIDAndMeta); d != "" {
			t.Errorf("get (-want +got):\n%s", d)
		}

		// Nina has the organization's default role, and may sign in.
		var role string
		if err := sb.Pool.QueryRow(t.Context(), `SELECT role FROM users WHERE id = $1`, id).Scan(&role); err != nil || role != "EMPLOYEE" {
			t.Errorf("role = %q, %v; want EMPLOYEE", role, err)
		}
		status, again := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
		wantSCIMStatus(t, "create again", status, again, http.StatusConflict)
	})

	// Okta and Entra deactivate with PATCH in their own shapes: Entra writes booleans as strings.
	for _, tc := range []struct {
		name, deactivate, reactivate string
	}{
		{
			name:       "OktaPatch",
			deactivate: `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"active":false}}]}`,
			reactivate: `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"active":true}}]}`,
		},
		{
			name:       "EntraPatch",
			deactivate: `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Replace","path":"active","value":"False"}]}`,
			reactivate: `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Replace","path":"active","value":"True"}]}`,
		},
	} {
		t.Run(tc.name+"DeactivatesAndReactivates", func(t *testing.T) {
			sb := setupSCIM(t)
			future := fx.LayoutBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0), booking.StatusPending)
			if _, err := layout.New(sb.Pool, sb.Service).Import(t.Context(), layout.Layout{Bookings: []layout.LayoutBooking{future}}); err != nil {
				t.Fatal(err)
			}
			bearer := sb.token(t, fx.Alice)
			use := func() reply {
				t.Helper()
				return sb.callWith(t, uuid.Nil, http.MethodGet, "/api/v1/users/me/bookings", nil, http.Header{"Authorization": {"Bearer " + bearer}})
			}
			wantStatus(t, use(), http.StatusOK) // the token is now verified and cached

			status, got := sb.scim(t, sb.tokenA, http.MethodPatch, "/Users/"+fx.Alice.String(), tc.deactivate)
			wantSCIMStatus(t, "deactivate", status, got, http.StatusOK)
			if got["active"] != false {
				t.Errorf("after the PATCH active = %v, want false", got["active"])
			}

			// The API refuses her token at once, in words.
			p := wantProblem(t, use(), http.StatusUnauthorized, booking.CodeUnauthorized, -1)
			if d, _ := p["detail"].(string); !strings.Contains(d, "deactivated") {
				t.Errorf("detail = %q, want it to say the account is deactivated", d)
			}
			// Her future booking is cancelled.
			if got := fx.RowCount(t, sb.Bundle, `SELECT count(*) FROM bookings WHERE id = $1 AND status = 'CANCELLED'`, future.ID); got != 1 {
				t.Errorf("her future booking is not cancelled")
			}
			// Signing in is refused, with whom to ask.
			page := sb.pages.browser(t).post("/login/dev", url.Values{"user": {fx.Alice.String()}})
			page.wantStatus(t, http.StatusForbidden)
			page.wantText(t, "main", "Your account is deactivated", "adam Adler", "adam@acme.test")

			status, got = sb.scim(t, sb.tokenA, http.MethodPatch, "/Users/"+fx.Alice.String(), tc.reactivate)
			wantSCIMStatus(t, "reactivate", status, got, http.StatusOK)
			if got["active"] != true {
				t.Errorf("after reactivating active = %v, want true", got["active"])
			}
			// A new token and the sign-in work again. (That the tokens held before stay revoked is tested with
			// the domain's clock, in web/booking.)
			wantStatus(t, sb.call(t, fx.Alice, http.MethodGet, "/api/v1/users/me/bookings", nil), http.StatusOK)
			sb.pages.signedIn(t, fx.Alice)
		})
	}

	t.Run("PutReplacesAndDeleteDeactivates", func(t *testing.T) {
		sb := setupSCIM(t)
		_, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
		id, _ := created["id"].(string)
		replaced := map[string]any{}
		for k, v := range newNina {
			replaced[k] = v
		}
		replaced["name"] = map[string]any{"givenName": "Nina", "familyName": "Novak-Kim"}
		status, got := sb.scim(t, sb.tokenA, http.MethodPut, "/Users/"+id, replaced)
		wantSCIMStatus(t, "put", status, got, http.StatusOK)
		if got["displayName"] != "Nina Novak-Kim" {
			t.Errorf("displayName = %v, want Nina Novak-Kim", got["displayName"])
		}
		status, got = sb.scim(t, sb.tokenA, http.MethodDelete, "/Users/"+id, nil)
		wantSCIMStatus(t, "delete", status, got, http.StatusNoContent)
		// The person stays, deactivated, for the history of their bookings; SCIM no longer finds them.
		var active bool
		if err := sb.Pool.QueryRow(t.Context(), `SELECT active FROM users WHERE id = $1`, id).Scan(&active); err != nil || active {
			t.Errorf("after DELETE active = %v (%v), want false", active, err)
		}
		status, got = sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil)
		wantSCIMStatus(t, "get after delete", status, got, http.StatusNotFound)
	})

	t.Run("TokensAreRequired", func(t *testing.T) {
		sb := setupSCIM(t)
		adam := sb.User(t, fx.OrgA, fx.Adam)
		tokens, err := sb.Identity().SCIMTokens(t.Context(), adam)
		if err != nil || len(tokens) != 1 {
			t.Fatalf("SCIMTokens = %v, %v", tokens, err)
		}
		if err := sb.Identity().RevokeSCIMToken(t.Context(), adam, tokens[0].ID); err != nil {
			t.Fatal(err)
		}
		for _, token := range []string{sb.tokenA, "", "scim_unknown", sb.token(t, fx.Adam)} {
			status, body := sb.scim(t, token, http.MethodGet, "/Users", nil)
			wantSCIMStatus(t, "token "+token, status, body, http.StatusUnauthorized)
			if body["status"] != "401" || body["detail"] == "" {
				t.Errorf("token %q: body = %v, want a SCIM error", token, body)
			}
		}
	})

	t.Run("AnotherOrganizationsTokenSeesAndTouchesNobodyHere", func(t *testing.T) {
		sb := setupSCIM(t)
		alice := "/Users/" + fx.Alice.String()
		for _, tc := range []struct {
			method, path string
			body         any
			want         int
		}{
			{http.MethodGet, alice, nil, http.StatusNotFound},
			{http.MethodPatch, alice, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"active":false}}]}`, http.StatusNotFound},
			{http.MethodPut, alice, newNina, http.StatusNotFound},
			{http.MethodDelete, alice, nil, http.StatusNotFound},
		} {
			status, body := sb.scim(t, sb.tokenB, tc.method, tc.path, tc.body)
			wantSCIMStatus(t, tc.method+" "+tc.path, status, body, tc.want)
		}
		status, list := sb.scim(t, sb.tokenB, http.MethodGet, "/Users?filter="+url.QueryEscape(`userName eq "alice@acme.test"`), nil)
		wantSCIMStatus(t, "filter", status, list, http.StatusOK)
		if list["totalResults"] != float64(0) {
			t.Errorf("B's token found %v", list)
		}
		_, list = sb.scim(t, sb.tokenB, http.MethodGet, "/Users", nil)
		if list["totalResults"] != float64(1) {
			t.Errorf("B's token lists %v, want Boris alone", list["totalResults"])
		}
		if _, err := sb.Service.UserByID(t.Context(), fx.OrgA, fx.Alice); err != nil {
			t.Errorf("Alice after B's calls: %v", err)
		}
	})

	t.Run("BoundsAndBadInput", func(t *testing.T) {
		sb := setupSCIM(t)
		big := `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"` + strings.Repeat("a", 70<<10) + `@acme.test"}`
		status, body := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", big)
		wantSCIMStatus(t, "big body", status, body, http.StatusRequestEntityTooLarge)
		bad := map[string]any{"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:User"}, "userName": "not an address"}
		status, body = sb.scim(t, sb.tokenA, http.MethodPost, "/Users", bad)
		wantSCIMStatus(t, "bad userName", status, body, http.StatusBadRequest)
		status, body = sb.scim(t, sb.tokenA, http.MethodGet, "/Users?filter="+url.QueryEscape(`displayName co "a"`), nil)
		wantSCIMStatus(t, "unsupported filter", status, body, http.StatusBadRequest)
		status, body = sb.scim(t, sb.tokenA, http.MethodGet, "/Users?count=100000", nil)
		wantSCIMStatus(t, "huge count", status, body, http.StatusOK)
		if n := len(body["Resources"].([]any)); n > identity.MaxSCIMPage {
			t.Errorf("one page holds %d people, want at most %d", n, identity.MaxSCIMPage)
		}
		if got := fx.TableCount(t, sb.Bundle, "users"); got != len(fx.Layout().Users) {
			t.Errorf("users = %d, want the fixture's %d", got, len(fx.Layout().Users))
		}
	})
}
