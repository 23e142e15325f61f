package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/alexedwards/scs/pgxstore"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestStartSession opens the pages with a session written straight into the store, as the load test
// does: the person is signed in, and a session naming a user of another organization signs nobody in.
func TestStartSession(t *testing.T) {
	pb := setupPages(t)
	store := pgxstore.NewWithCleanupInterval(pb.Pool, 0)
	get := func(t *testing.T, org, user uuid.UUID) *http.Response {
		t.Helper()
		token, err := web.StartSession(t.Context(), store, org, user)
		if err != nil {
			t.Fatal(err)
		}
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, pb.srv.URL+"/bookings", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.AddCookie(&http.Cookie{Name: web.SessionCookie, Value: token})
		noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	t.Run("SignedIn", func(t *testing.T) {
		if res := get(t, fx.OrgA, fx.Alice); res.StatusCode != http.StatusOK {
			t.Errorf("/bookings with a session of Alice: %d, want 200", res.StatusCode)
		}
	})
	t.Run("OtherOrganization", func(t *testing.T) {
		res := get(t, fx.OrgB, fx.Alice)
		if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/login") {
			t.Errorf("/bookings with a session naming Alice in Globex: %d to %q, want 303 to the sign-in page", res.StatusCode, res.Header.Get("Location"))
		}
	})
}
