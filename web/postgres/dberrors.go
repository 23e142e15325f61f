package postgres

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// This file is the one place of the package that reads PostgreSQL's SQLSTATE codes.

// failure is the kind of a database error the package acts on.
type failure int

const (
	failOther          failure = iota // anything else, or not a PostgreSQL error
	failNoDatabase                    // invalid_catalog_name: the database does not exist
	failDatabaseExists                // duplicate_database
	failReadOnlyServer                // read_only_sql_transaction: a standby now
)

// interpretError reads err's SQLSTATE, once.
func interpretError(err error) failure {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return failOther
	}
	switch pgErr.Code {
	case "3D000":
		return failNoDatabase
	case "42P04":
		return failDatabaseExists
	case "25006":
		return failReadOnlyServer
	}
	return failOther
}
