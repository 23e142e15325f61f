package web_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/alexedwards/scs/pgxstore"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/postgres"
)

// TestDatabaseRefusingConnections checks that a database refusing new connections, for whatever reason, is
// treated as unreachable: the API returns 503 with code 5030, and the pages and /readyz return 503, never
// 500.
func TestDatabaseRefusingConnections(t *testing.T) {
	t.Parallel()

	t.Run("AllowConnectionsFalse", func(t *testing.T) { // SQLSTATE 55000
		t.Parallel()
		tb := setupOIDC(t, nil, func(d *web.Deps) { d.Dev = true })
		db := pgx.Identifier{tb.Pool.Config().ConnConfig.Database}.Sanitize()
		wantUnavailable(t, tb, tb.Pool, "ALTER DATABASE "+db+" ALLOW_CONNECTIONS false", "ALTER DATABASE "+db+" ALLOW_CONNECTIONS true")
	})

	t.Run("RoleConnectionLimitZero", func(t *testing.T) { // SQLSTATE 53300; needs a non-superuser, since superusers ignore the limit
		t.Parallel()
		tb := setupOIDC(t, nil)
		pool, role := ordinaryRolePool(t, tb.Pool.Config().ConnString())
		server := web.NewServer(web.Deps{
			Bookings: booking.NewService(pool), Tokens: tb.tokens, Sessions: pgxstore.NewWithCleanupInterval(pool, 0),
			Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})), Dev: true,
		})
		srv := httptest.NewServer(validateAPI(t, server))
		t.Cleanup(srv.Close)
		tb = &testBundle{Bundle: tb.Bundle, srv: srv, server: server, tokens: tb.tokens}
		r := pgx.Identifier{role}.Sanitize()
		wantUnavailable(t, tb, pool, "ALTER ROLE "+r+" CONNECTION LIMIT 0", "ALTER ROLE "+r+" CONNECTION LIMIT -1")
	})
}

// wantUnavailable signs in, runs the refuse statement as the superuser, and drops the pool's open
// connections. It then expects 503 from the API (with code 5030), from the pages and from /readyz.
func wantUnavailable(t *testing.T, tb *testBundle, pool *pgxpool.Pool, refuse, undo string) {
	t.Helper()
	pages := (&pageBundle{Bundle: tb.Bundle, srv: tb.srv, server: tb.server}).signedIn(t, fx.Alice)
	req := tb.request(t, fx.Alice, http.MethodGet, api+"/users/me/resources/statusinfo?postercode=MAD-R1", nil)

	admin := adminConn(t)
	if _, err := admin.Exec(t.Context(), refuse); err != nil {
		t.Fatalf("%s: %v", refuse, err)
	}
	t.Cleanup(func() { _, _ = admin.Exec(context.Background(), undo) })
	pool.Reset() // connections that are already open would keep working

	res := tb.send(t, req)
	var p struct {
		Code int `json:"code"`
	}
	if err := json.Unmarshal(res.body, &p); err != nil || res.status != http.StatusServiceUnavailable || p.Code != 5030 {
		t.Errorf("API while the database refuses connections: %d %s, want 503 with code 5030", res.status, res.body)
	}
	for _, path := range []string{"/find", "/bookings"} {
		if got := pages.get(path); got.status != http.StatusServiceUnavailable {
			t.Errorf("GET %s while the database refuses connections: %d %q, want 503", path, got.status, got.body)
		}
	}
	if got := tb.call(t, uuid.Nil, http.MethodGet, "/readyz", nil); got.status != http.StatusServiceUnavailable {
		t.Errorf("GET /readyz while the database refuses connections: %d, want 503", got.status)
	}
}

// adminConn returns a connection to the server's postgres database as the tests' superuser.
func adminConn(t *testing.T) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), fx.ServerURL())
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// ordinaryRolePool creates a login role that is not a superuser and has all privileges on the tables of
// the dbURL database. It returns a pool connected as that role, and the role's name. The role and the pool
// are removed when the test ends.
func ordinaryRolePool(t *testing.T, dbURL string) (*pgxpool.Pool, string) {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	role := "booking_test_" + hex.EncodeToString(b)
	r := pgx.Identifier{role}.Sanitize()
	admin := adminConn(t)
	if _, err := admin.Exec(t.Context(), "CREATE ROLE "+r+" LOGIN"); err != nil {
		t.Fatalf("create role: %v", err)
	}
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	db := strings.TrimPrefix(u.Path, "/")
	owner, err := pgx.Connect(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(context.Background())
	for _, q := range []string{
		"GRANT ALL ON ALL TABLES IN SCHEMA public TO " + r,
		"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO " + r,
		"GRANT ALL ON SCHEMA public TO " + r,
	} {
		if _, err := owner.Exec(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() {
		ctx := context.Background()
		in, err := url.Parse(fx.ServerURL())
		if err != nil {
			t.Error(err)
			return
		}
		in.Path = "/" + db
		if c, err := pgx.Connect(ctx, in.String()); err == nil { // connect as superuser to revoke the role's grants
			_, _ = c.Exec(ctx, "DROP OWNED BY "+r)
			c.Close(ctx)
		}
		if _, err := admin.Exec(ctx, "DROP ROLE "+r); err != nil {
			t.Errorf("drop role %s: %v", role, err)
		}
	})
	u.User = url.User(role)
	cfg, err := postgres.PoolConfig(u.String())
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool, role
}
