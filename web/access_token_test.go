package web_test

import (
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// jwtShaped returns a token shaped like a JWT that expires at exp. Its signature is not valid, and
// nothing checks it.
func jwtShaped(t *testing.T, exp time.Time) string {
	t.Helper()
	enc := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return enc(map[string]string{"alg": "RS256", "typ": "JWT"}) + "." +
		enc(map[string]any{"sub": "idp|alice", "exp": exp.Unix(), "n": uuid.NewString()}) + ".c2lnbmF0dXJl"
}

// TestUserAccessToken checks the User-Access-Token header: it is at most 8 KB, stored once per user (not
// per booking), encrypted, kept until it expires, and never written to the logs.
func TestUserAccessToken(t *testing.T) {
	t.Parallel()
	start := fx.At(1, 10, 0)
	book := func(t *testing.T, tb *testBundle, hour int, token string) reply {
		t.Helper()
		s := start.Add(time.Duration(hour) * time.Hour)
		return tb.callWith(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, s, s.Add(time.Hour))},
			http.Header{"user-access-token": {token}})
	}
	kept := func(t *testing.T, tb *testBundle) string {
		t.Helper()
		got, err := tb.Service.UserAccessToken(t.Context(), tb.User(t, fx.OrgA, fx.Alice))
		if err != nil {
			t.Fatalf("UserAccessToken: %v", err)
		}
		return got
	}

	t.Run("LongerThan8KBIs400", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		long := strings.Repeat("x", 8193)
		r := book(t, tb, 0, long)
		p := wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		if detail, _ := p["detail"].(string); !strings.Contains(detail, "user-access-token") || !strings.Contains(detail, "8192") {
			t.Errorf("detail = %q, want it to name the header and its limit", detail)
		}
		if strings.Contains(string(r.body), long[:100]) {
			t.Error("the answer repeats the token")
		}
		tb.wantRows(t, "bookings", 0)
		tb.wantRows(t, "user_access_tokens", 0)
		wantStatus(t, book(t, tb, 0, strings.Repeat("x", 8192)), http.StatusCreated)
	})

	// The token is stored only when the bookings it came with are made; a refused request stores nothing.
	t.Run("KeptOnlyWhenTheBookingsAreMade", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, book(t, tb, 0, ""), http.StatusCreated)
		token := "opaque-" + uuid.NewString()
		wantProblem(t, book(t, tb, 0, token), http.StatusConflict, booking.CodeResourceNotAvailable, 0)
		tb.wantRows(t, "user_access_tokens", 0)
		s := start.Add(2 * time.Hour)
		backwards := tb.callWith(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, s, s.Add(-time.Hour))},
			http.Header{"user-access-token": {token}})
		wantProblem(t, backwards, http.StatusBadRequest, booking.CodeInvalidRequest, 0)
		tb.wantRows(t, "user_access_tokens", 0)
		wantStatus(t, book(t, tb, 1, token), http.StatusCreated)
		if got := kept(t, tb); got != token {
			t.Errorf("kept token = %q, want %q", got, token)
		}
	})

	t.Run("KeptOncePerUserAndEncrypted", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		first, second := "opaque-"+uuid.NewString(), "opaque-"+uuid.NewString()
		wantStatus(t, book(t, tb, 0, first), http.StatusCreated)
		wantStatus(t, book(t, tb, 1, first), http.StatusCreated)
		wantStatus(t, book(t, tb, 2, second), http.StatusCreated)
		tb.wantRows(t, "user_access_tokens", 1)
		var columns int
		if err := tb.Pool.QueryRow(t.Context(), `SELECT count(*) FROM information_schema.columns
			WHERE table_name = 'bookings' AND column_name = 'user_access_token'`).Scan(&columns); err != nil {
			t.Fatal(err)
		}
		if columns != 0 {
			t.Error("bookings still has a user_access_token column")
		}
		var plain int
		if err := tb.Pool.QueryRow(t.Context(), `SELECT count(*) FROM user_access_tokens
			WHERE position(convert_to($1, 'UTF8') IN sealed) > 0 OR position(convert_to($2, 'UTF8') IN sealed) > 0`,
			first, second).Scan(&plain); err != nil {
			t.Fatal(err)
		}
		if plain != 0 {
			t.Error("a token is stored in plain text")
		}
		if got := kept(t, tb); got != second {
			t.Errorf("kept token = %q, want the newest, %q", got, second)
		}
		// A token that is not a JWT has no expiry to read, so it is kept for 12 hours.
		var left time.Duration
		if err := tb.Pool.QueryRow(t.Context(), `SELECT extract(epoch FROM expires_at - now())::bigint * 1000000000
			FROM user_access_tokens`).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left < 12*time.Hour-time.Minute || left > 12*time.Hour {
			t.Errorf("an opaque token is kept %s more, want 12h", left)
		}
	})

	t.Run("ForgottenWhenItExpires", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		live := jwtShaped(t, time.Now().Add(time.Hour))
		wantStatus(t, book(t, tb, 0, live), http.StatusCreated)
		if got := kept(t, tb); got != live {
			t.Errorf("kept token = %q, want %q", got, live)
		}
		wantStatus(t, book(t, tb, 1, jwtShaped(t, time.Now().Add(-time.Minute))), http.StatusCreated)
		if got := kept(t, tb); got != "" {
			t.Errorf("kept token after an expired one = %q, want none", got)
		}
		if n, err := tb.Service.DeleteExpiredUserAccessTokens(t.Context()); err != nil || n != 1 {
			t.Errorf("DeleteExpiredUserAccessTokens = %d, %v; want 1 deleted", n, err)
		}
		tb.wantRows(t, "user_access_tokens", 0)
	})

	t.Run("NeverLogged", func(t *testing.T) {
		t.Parallel()
		var logs syncBuffer
		tb := setup(t, func(d *web.Deps) {
			d.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		})
		secret := "secret-" + uuid.NewString()
		wantStatus(t, book(t, tb, 0, secret), http.StatusCreated)
		wantStatus(t, book(t, tb, 0, secret), http.StatusConflict)
		wantStatus(t, book(t, tb, 0, secret+strings.Repeat("x", 9000)), http.StatusBadRequest)
		if len(logs.lines(t)) < 3 {
			t.Fatalf("log = %q, want a line per request", logs.String())
		}
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds the user-access-token:\n%s", logs.String())
		}
	})
}

// TestUserAccessTokenOfSignIn checks that the provider's access token from a browser sign-in is stored
// in the same table, not in the session.
func TestUserAccessTokenOfSignIn(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	pb := setupPagesOIDC(t, m)
	m.QueueUser(&mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true})
	p := pb.browser(t).get("/bookings")
	p.wantText(t, ".whoami", "alice Archer")
	got, err := pb.Service.UserAccessToken(t.Context(), pb.User(t, fx.OrgA, fx.Alice))
	if err != nil {
		t.Fatalf("UserAccessToken: %v", err)
	}
	if got == "" {
		t.Fatal("no access token kept for Alice after signing in")
	}
	var inSession int
	if err := pb.Pool.QueryRow(t.Context(), `SELECT count(*) FROM sessions WHERE position(convert_to($1, 'UTF8') IN data) > 0`,
		got).Scan(&inSession); err != nil {
		t.Fatal(err)
	}
	if inSession != 0 {
		t.Error("the session holds the access token")
	}
}
