package postgres

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	_ "embed"
	"fmt"
	"log/slog"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/tern/v2/migrate"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/workspacebooking/booking/queries"
	schema "github.com/workspacebooking/booking/sql"
)

// Migrate brings the database at databaseURL up to date. It creates the database if it does not exist,
// applies the pending migrations while holding tern's advisory lock (so two instances starting together
// are safe), and creates the first signing key. It returns the number of migrations it applied.
func Migrate(ctx context.Context, databaseURL string) (int, error) {
	conn, err := connectCreating(ctx, databaseURL)
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.Background())

	m, err := migrate.NewMigrator(ctx, conn, "schema_version")
	if err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	if err := m.LoadMigrations(schema.Migrations); err != nil {
		return 0, fmt.Errorf("migrate: load: %w", err)
	}
	// Count the migrations while holding the lock. Reading the version before taking the lock would also
	// count migrations that another instance applied meanwhile.
	applied := 0
	m.OnStart = func(int32, string, string, string) { applied++ }
	if err := m.Migrate(ctx); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	river, err := migrateRiver(ctx, conn, databaseURL)
	if err != nil {
		return 0, err
	}
	applied += river
	if err := ensureSigningKey(ctx, conn); err != nil {
		return 0, err
	}
	return applied, nil
}

// riverIndexes drops the indexes of River's job table that the service never uses.
//
//go:embed river_indexes.sql
var riverIndexes string

// RiverVersion is the version of River whose schema Migrate applies. Test template databases are rebuilt
// when it changes.
const RiverVersion = "v0.51.2"

// riverLock is the advisory lock that keeps two instances from applying River's migrations together.
const riverLock = 0x52495645 // "RIVE"

// migrateRiver applies River's own migrations (the job table of the outbox), each in its own
// transaction since some add enum values, while conn holds an advisory lock so that two instances never
// apply them together. It returns how many it applied.
func migrateRiver(ctx context.Context, conn *pgx.Conn, databaseURL string) (int, error) {
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", riverLock); err != nil {
		return 0, fmt.Errorf("migrate river: lock: %w", err)
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", riverLock) //nolint:errcheck // the session ends soon anyway
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return 0, fmt.Errorf("database url: %w", err)
	}
	cfg.MaxConns = 1
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return 0, fmt.Errorf("migrate river: %w", err)
	}
	defer pool.Close()
	m, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return 0, fmt.Errorf("migrate river: %w", err)
	}
	res, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if err != nil {
		return 0, fmt.Errorf("migrate river: %w", err)
	}
	if _, err := conn.Exec(ctx, riverIndexes); err != nil {
		return 0, fmt.Errorf("migrate river: drop its search indexes: %w", err)
	}
	return len(res.Versions), nil
}

// connectCreating connects to the database, creating it first if the server says it does not exist.
func connectCreating(ctx context.Context, databaseURL string) (*pgx.Conn, error) {
	// Parse it as a pool URL, so that pool settings such as pool_max_conns are not sent to the server.
	pcfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("database url: %w", err)
	}
	cfg := pcfg.ConnConfig
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if interpretError(err) != failNoDatabase {
		if err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		return conn, nil
	}
	admin := cfg.Copy()
	admin.Database = "postgres"
	ac, err := pgx.ConnectConfig(ctx, admin)
	if err != nil {
		return nil, fmt.Errorf("connect to create database %q: %w", cfg.Database, err)
	}
	defer ac.Close(context.Background())
	_, err = ac.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{cfg.Database}.Sanitize())
	if err != nil && interpretError(err) != failDatabaseExists { // created meanwhile by another instance
		return nil, fmt.Errorf("create database %q: %w", cfg.Database, err)
	}
	conn, err = pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return conn, nil
}

// ensureSigningKey creates an ES256 signing key if there is none.
func ensureSigningKey(ctx context.Context, conn *pgx.Conn) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		q := queries.New(tx)
		if err := q.SigningKeysLock(ctx); err != nil {
			return fmt.Errorf("lock signing keys: %w", err)
		}
		n, err := q.SigningKeyCount(ctx)
		if err != nil {
			return fmt.Errorf("count signing keys: %w", err)
		}
		if n > 0 {
			return nil
		}
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return fmt.Errorf("generate signing key: %w", err)
		}
		der, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			return fmt.Errorf("encode signing key: %w", err)
		}
		return q.SigningKeyInsert(ctx, queries.SigningKeyInsertParams{ID: uuid.Must(uuid.NewV7()), PrivateKey: der})
	})
}
