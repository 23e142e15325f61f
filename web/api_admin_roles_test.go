package web_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/alexedwards/scs/pgxstore"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// otherInstance starts a second server on the test's database, with its own domain service and its
// own token cache, as a second instance of the service runs.
func otherInstance(t *testing.T, tb *testBundle) *testBundle {
	t.Helper()
	svc := booking.NewService(tb.Pool, booking.WithClock(tb.Clock.Now), booking.WithDatabaseClock(tb.Clock.Now))
	tokens, err := web.NewTokens(t.Context(), identity.New(tb.Pool, svc), nil)
	if err != nil {
		t.Fatalf("NewTokens: %v", err)
	}
	server := web.NewServer(web.Deps{
		Bookings: svc, Tokens: tokens, Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})),
		Sessions: pgxstore.NewWithCleanupInterval(tb.Pool, 0),
	})
	srv := httptest.NewServer(validateAPI(t, server))
	t.Cleanup(srv.Close)
	return &testBundle{Bundle: &fx.Bundle{Service: svc, Pool: tb.Pool, Clock: tb.Clock}, srv: srv, server: server, tokens: tokens}
}

// TestAdminWriteSeesCurrentRole demotes or deactivates an admin on one instance and checks that the
// other refuses the admin's next write at once, though it verified the admin's token a moment before.
func TestAdminWriteSeesCurrentRole(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change map[string]any
		status int
		code   booking.Code
	}{
		{"Demoted", map[string]any{"role": "EMPLOYEE"}, http.StatusForbidden, booking.CodeForbidden},
		{"Deactivated", map[string]any{"active": false}, http.StatusUnauthorized, booking.CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			one := setup(t)
			two := otherInstance(t, one)
			nora := uuid.New()
			wantStatus(t, one.call(t, fx.Adam, http.MethodPut, adminPath("users", nora),
				map[string]any{"name": "Nora", "email": "nora@acme.test", "role": "ADMIN"}), http.StatusCreated)

			// Instance one verifies a token of Adam's for each write below and remembers it. (A read, since
			// any admin change on an instance makes it check every token again.)
			writes := []struct {
				name, method, path string
				body               any
				adam               http.Header
			}{
				{"Put", http.MethodPut, adminPath("features", uuid.New()), map[string]any{"name": "Desk lamp"}, nil},
				{"Delete", http.MethodDelete, adminPath("features", fx.FeatureScreen), nil, nil},
				{"Plan", http.MethodPut, floorPlanPath(fx.FloorMadrid), []byte(planSVG), nil},
			}
			for i := range writes {
				writes[i].adam = http.Header{"Authorization": {"Bearer " + one.mint(t, one.User(t, fx.OrgA, fx.Adam), time.Hour)}}
				wantStatus(t, one.callWith(t, uuid.Nil, http.MethodGet, adminPath("features"), nil, writes[i].adam), http.StatusOK)
			}

			// Nora changes Adam on instance two.
			user := two.call(t, nora, http.MethodGet, adminPath("users", fx.Adam), nil)
			wantStatus(t, user, http.StatusOK)
			changed := user.object(t)
			for k, v := range tc.change {
				changed[k] = v
			}
			wantStatus(t, two.call(t, nora, http.MethodPut, adminPath("users", fx.Adam), changed), http.StatusOK)

			for _, w := range writes {
				t.Run(w.name, func(t *testing.T) {
					r := one.callWith(t, uuid.Nil, w.method, w.path, w.body, w.adam)
					wantProblem(t, r, tc.status, tc.code, noIndex)
				})
			}
		})
	}
}
