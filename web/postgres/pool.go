// Package postgres connects the service to PostgreSQL. It holds the pool settings (PoolConfig), the
// binary uuid codec that every connection registers (PrepareConn), and the schema migrations (Migrate).
// It knows nothing about bookings.
package postgres

import (
	"fmt"
	"strings"
	"time"

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
	params := cfg.ConnConfig.RuntimeParams
	if params["statement_timeout"] == "" {
		params["statement_timeout"] = statementTimeout
	}
	if params["idle_in_transaction_session_timeout"] == "" {
		params["idle_in_transaction_session_timeout"] = idleInTransactionTimeout
	}
	return cfg, nil
}
