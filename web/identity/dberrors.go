package identity

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// This file is the one place of the package that reads PostgreSQL's SQLSTATE codes: interpretError
// turns a database error into a failure kind, and the rest of the package asks about kinds.

// failure is the kind of a database refusal.
type failure int

const (
	failNone   failure = iota // not a PostgreSQL error
	failOther                 // an error of PostgreSQL that none of the kinds below name
	failUnique                // unique_violation
)

// interpretError reads err's SQLSTATE, once.
func interpretError(err error) failure {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return failNone
	}
	switch pgErr.Code {
	case "23505":
		return failUnique
	}
	return failOther
}

// isUniqueViolation reports whether err is a violation of a unique constraint.
func isUniqueViolation(err error) bool { return interpretError(err) == failUnique }

// uniqueConstraint is the name of the unique index or constraint that err violated, or "".
func uniqueConstraint(err error) string {
	var pgErr *pgconn.PgError
	if interpretError(err) != failUnique || !errors.As(err, &pgErr) {
		return ""
	}
	return pgErr.ConstraintName
}
