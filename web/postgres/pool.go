// Package postgres connects the service to PostgreSQL: the pool's settings (PoolConfig), the binary uuid
// codec every connection registers (PrepareConn), and the schema migrations (Migrate). It knows nothing
// of bookings.
package postgres

import (
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The pool's defaults, each overridden by the same setting in DATABASE_URL (pool_max_conns,
// connect_timeout, statement_timeout, idle_in_transaction_session_timeout).
const (
	// poolMaxConns bounds the connections of one instance. PostgreSQL does best with a few connections per
	// core; more only queue inside it, and N instances share its max_connections (100 by default).
	poolMaxConns = 16
	// connectTimeout bounds a connection attempt, so that requests fail fast while the database is away.
	connectTimeout = 3 * time.Second
	// statementTimeout bounds every statement: no request holds a connection longer.
	statementTimeout = "5s"
	// idleInTransactionTimeout ends a session that holds a transaction open and idle (a stuck client).
	idleInTransactionTimeout = "15s"
)

// PoolConfig reads a database URL (DATABASE_URL) and adds the pool's defaults for what it does not set;
// its connections carry ids in binary (PrepareConn). The URL may list several servers
// (postgres://h1:5432,h2:5432/booking?target_session_attrs=read-write): a new connection goes to the
// first that suits, and a connection whose server turned read-only (a primary demoted to a standby) is
// closed, so that the pool reconnects to the new primary.
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
		const readOnlyTransaction = "25006"
		if err.Code == readOnlyTransaction {
			return false
		}
		return next == nil || next(conn, err)
	}
}
