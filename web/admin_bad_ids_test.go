package web_test

import (
	"net/http"
	"net/url"
	"testing"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestAdminBadIDs checks that an admin path whose id is malformed answers as one whose id names nothing
// in the organization: 404, on every admin page that takes an id.
func TestAdminBadIDs(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	adam := pb.signedIn(t, fx.Adam)
	for _, r := range []struct{ method, path string }{
		{http.MethodPost, "/admin/rules/nope"},
		{http.MethodPost, "/admin/rules/nope/sentence"},
		{http.MethodPost, "/admin/people/nope"},
		{http.MethodPost, "/admin/people/nope/active"},
		{http.MethodPost, "/admin/people/nope/unlink"},
		{http.MethodPost, "/admin/closures/nope/delete"},
		{http.MethodPost, "/admin/identity/tokens/nope/revoke"},
		{http.MethodGet, "/admin/buildings/nope"},
		{http.MethodPost, "/admin/buildings/nope"},
		{http.MethodGet, "/admin/floors/nope"},
		{http.MethodPost, "/admin/floors/nope"},
		{http.MethodGet, "/admin/floors/nope/plan"},
		{http.MethodPost, "/admin/floors/nope/plan/grid"},
		{http.MethodGet, "/admin/resources/nope"},
		{http.MethodPost, "/admin/resources/nope"},
		{http.MethodPost, "/admin/resources/nope/position"},
		{http.MethodGet, "/admin/webhooks/nope"},
		{http.MethodPost, "/admin/webhooks/nope"},
		{http.MethodPost, "/admin/webhooks/nope/rotate"},
		{http.MethodPost, "/admin/webhooks/nope/delete"},
		{http.MethodPost, "/admin/webhooks/nope/deliveries/nope/resend"},
	} {
		var form url.Values
		if r.method == http.MethodPost {
			form = url.Values{}
		}
		p := adam.do(r.method, r.path, form, false)
		if p.status != http.StatusNotFound {
			t.Errorf("%s %s: %d, want 404", r.method, r.path, p.status)
		}
	}
}
