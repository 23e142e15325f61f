package main

import (
	"context"
	"fmt"
	"net/url"

	"github.com/jackc/pgx/v5"
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
