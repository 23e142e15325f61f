package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// withDatabase is the URL of another database on the server of serverURL, with the same user, password
// and parameters.
func withDatabase(serverURL, db string) (string, error) {
	u, err := url.Parse(serverURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", fmt.Errorf("DATABASE_URL: a postgres:// URL is needed to name the benchmark's databases")
	}
	u.Path, u.RawPath = "/"+db, ""
	return u.String(), nil
}

// plain is a database URL without the parameters only the service's pool understands (pool_max_conns…),
// for pgbench and single connections: it keeps sslmode alone.
func plain(dbURL string) string {
	u, err := url.Parse(dbURL)
	if err != nil {
		return dbURL
	}
	q := url.Values{}
	if v := u.Query().Get("sslmode"); v != "" {
		q.Set("sslmode", v)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// recreate drops the database if it exists and creates it empty. A database someone is connected to is
// not dropped: the benchmark says so and stops.
func recreate(ctx context.Context, serverURL, db string) error {
	admin, err := withDatabase(serverURL, "postgres")
	if err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, plain(admin))
	if err != nil {
		return fmt.Errorf("connect to the server of DATABASE_URL: %w", err)
	}
	defer conn.Close(context.Background())
	name := pgx.Identifier{db}.Sanitize()
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name); err != nil {
		return fmt.Errorf("drop database %s (is something still connected to it?): %w", db, err)
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return fmt.Errorf("create database %s: %w", db, err)
	}
	return nil
}

// seedMark is what a database's comment records of the seed in it: which size, when, and how long the
// seed took. A benchmark may reuse a large data set seeded recently instead of seeding it again.
type seedMark struct {
	Size     string        `json:"size"`
	At       time.Time     `json:"at"`
	Took     time.Duration `json:"took"`
	Database string        `json:"-"`
}

// markSeeded records m as the comment of the database at dbURL.
func markSeeded(ctx context.Context, dbURL string, m seedMark) error {
	conn, err := pgx.Connect(ctx, plain(dbURL))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	var db string
	if err := conn.QueryRow(ctx, "SELECT current_database()").Scan(&db); err != nil {
		return err
	}
	// COMMENT takes a literal only, not a parameter.
	_, err = conn.Exec(ctx, "COMMENT ON DATABASE "+pgx.Identifier{db}.Sanitize()+" IS "+quoteLiteral(string(data)))
	return err
}

// readSeedMark reads what markSeeded recorded on the database at dbURL. It is false when the database
// does not exist or has no such comment.
func readSeedMark(ctx context.Context, dbURL string) (seedMark, bool) {
	conn, err := pgx.Connect(ctx, plain(dbURL))
	if err != nil {
		return seedMark{}, false
	}
	defer conn.Close(context.Background())
	var comment *string
	err = conn.QueryRow(ctx, "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = current_database()").Scan(&comment)
	var m seedMark
	if err != nil || comment == nil || json.Unmarshal([]byte(*comment), &m) != nil || m.Size == "" {
		return seedMark{}, false
	}
	return m, true
}

// quoteLiteral writes s as an SQL string literal.
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// forgetLoad deletes the bookings that earlier benchmarks made in the database at dbURL, so that their
// evenings are free again, and vacuums the table.
func forgetLoad(ctx context.Context, dbURL string) error {
	conn, err := pgx.Connect(ctx, plain(dbURL))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, `DELETE FROM bookings WHERE organization_id = $1 AND subject = $2`, orgID, loadSubject); err != nil {
		return fmt.Errorf("delete the bookings of earlier benchmarks: %w", err)
	}
	if _, err := conn.Exec(ctx, `VACUUM (ANALYZE) bookings`); err != nil {
		return fmt.Errorf("vacuum bookings: %w", err)
	}
	return nil
}

// databaseSize is the size of the pool's database on disk, as PostgreSQL writes it, with the share of
// the bookings: "8515 MB on disk, bookings and their indexes 8435 MB".
func databaseSize(ctx context.Context, pool *pgxpool.Pool) string {
	var db, bookings string
	if err := pool.QueryRow(ctx, `SELECT pg_size_pretty(pg_database_size(current_database())),
		pg_size_pretty(pg_total_relation_size('bookings'))`).Scan(&db, &bookings); err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%s on disk, bookings and their indexes %s", db, bookings)
}
