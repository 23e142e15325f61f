package layout

import (
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// This file is the one place of the package that reads PostgreSQL's SQLSTATE codes: interpretError
// turns a database error into a failure kind, and the rest of the package asks about kinds.

// failure is the kind of a database refusal.
type failure int

const (
	failNone          failure = iota // not a PostgreSQL error
	failOther                        // an error of PostgreSQL that none of the kinds below name
	failTransient                    // a serialization failure or a deadlock: run the transaction again
	failForeignKey                   // foreign_key_violation
	failUnique                       // unique_violation
	failCheck                        // check_violation
	failExclusion                    // exclusion_violation
	failDataException                // class 22: a NUL, bytes that are not UTF-8, a number too large
)

// dbError is a database error as interpretError reads it.
type dbError struct {
	kind       failure
	constraint string // the constraint that refused, if any
	table      string // the table of the refusal, if any
}

// interpretError reads err's SQLSTATE, once.
func interpretError(err error) dbError {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return dbError{kind: failNone}
	}
	e := dbError{kind: failOther, constraint: pgErr.ConstraintName, table: pgErr.TableName}
	switch code := pgErr.Code; {
	case code == "40001", code == "40P01": // serialization failure, deadlock detected
		e.kind = failTransient
	case code == "23503":
		e.kind = failForeignKey
	case code == "23505":
		e.kind = failUnique
	case code == "23514":
		e.kind = failCheck
	case code == "23P01":
		e.kind = failExclusion
	case strings.HasPrefix(code, "22"):
		e.kind = failDataException
	}
	return e
}

// transient reports whether err is a deadlock or a serialization failure.
func transient(err error) bool { return interpretError(err).kind == failTransient }
