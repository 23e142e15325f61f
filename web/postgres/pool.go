// Package postgres connects the service to PostgreSQL. It holds the pool settings (PoolConfig), the
// binary uuid codec that every connection registers (PrepareConn), and the schema migrations (Migrate).
// It knows nothing about bookings.
package postgres

import (
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The pool's defaults. The same setting in DATABASE_URL overrides each one (pool_max_conns,
// connect_timeout, statement_timeout, idle_in_transaction_session_timeout).
const (
	// poolMaxConns limits the connections of one instance. PostgreSQL works best with a few connections
	// per core; more connections only wait inside it, and all instances share its max_connections (100
	// by default).
	poolMaxConns = 16
	// connectTimeout limits a connection attempt, so that requests fail fast while the database is down.
	connectTimeout = 3 * time.Second
	// statementTimeout limits every statement, so that no request holds a connection longer.
	statementTimeout = "5s"
	// idleInTransactionTimeout ends a session that keeps a transaction open while idle (a stuck client).
	idleInTransactionTimeout = "15s"
)

// PoolConfig parses a database URL (DATABASE_URL) and applies the defaults above to any setting the URL
// leaves out. Every connection registers the binary uuid codec (PrepareConn).
//
// The URL may list several servers (postgres://h1:5432,h2:5432/booking?target_session_attrs=read-write).
// A new connection goes to the first server that accepts writes. A connection whose server has become
// read-only (a primary demoted to a standby) is closed, so the pool reconnects to the new primary.
func PoolConfig(dbURL string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	if !strings.Contains(dbURL, "pool_max_conns") {
		cfg.MaxConns = poolMaxConns
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	cfg.AfterConnect = PrepareConn
	cfg.ConnConfig.OnPgError = closeOnReadOnly(cfg.ConnConfig.OnPgError)
	params := cfg.ConnConfig.RuntimeParams
	if params["statement_timeout"] == "" {
		params["statement_timeout"] = statementTimeout
	}
	if params["idle_in_transaction_session_timeout"] == "" {
		params["idle_in_transaction_session_timeout"] = idleInTransactionTimeout
	}
	return cfg, nil
}

// closeOnReadOnly wraps pgx's handler of server errors (which closes the connection on a FATAL one) so that
// it also closes the connection when the server refuses a write because it is read-only now: a standby,
// no longer the primary this connection was made to.
func closeOnReadOnly(next pgconn.PgErrorHandler) pgconn.PgErrorHandler {
	return func(conn *pgconn.PgConn, err *pgconn.PgError) bool {
		if interpretError(err) == failReadOnlyServer {
			return false
		}
		return next == nil || next(conn, err)
	}
}
