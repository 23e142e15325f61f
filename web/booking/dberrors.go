package booking

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// This file is the one place that reads PostgreSQL's SQLSTATE codes: interpretError turns a database
// error into a failure kind, and the rest of the package asks about kinds.

// failure is the kind of a database refusal.
type failure int

const (
	failNone           failure = iota // not a PostgreSQL error
	failOther                         // an error of PostgreSQL that none of the kinds below name
	failTransient                     // a serialization failure or a deadlock: run the transaction again
	failForeignKey                    // foreign_key_violation
	failExclusion                     // exclusion_violation
	failUnstorableText                // a NUL character, or bytes that are not UTF-8
	failUnavailable                   // shutting down, too many connections, a standby, a statement timeout
	failConnectionLost                // a connection exception
)

// dbError is a database error as interpretError reads it.
type dbError struct {
	kind       failure
	constraint string // the constraint that refused, if any
}

// interpretError reads err's SQLSTATE, once.
func interpretError(err error) dbError {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return dbError{kind: failNone}
	}
	e := dbError{kind: failOther, constraint: pgErr.ConstraintName}
	switch code := pgErr.Code; {
	case code == "40001", code == "40P01": // serialization failure, deadlock detected
		e.kind = failTransient
	case code == "23503":
		e.kind = failForeignKey
	case code == "23P01":
		e.kind = failExclusion
	case code == "22021", code == "22P05": // character not in repertoire, untranslatable character
		e.kind = failUnstorableText
	case code == "57P01", code == "57P02", code == "57P03", // shutting down, cannot connect now
		code == "53300", // too many connections
		code == "25006", // read-only transaction: a standby now, a failover is under way
		code == "57014": // statement timeout
		e.kind = failUnavailable
	case strings.HasPrefix(code, "08"):
		e.kind = failConnectionLost
	}
	return e
}

// Retried runs op up to three times. It retries only errors after which PostgreSQL has written nothing:
// a deadlock, a serialization failure, or a booking whose resource moved to another floor meanwhile
// (bookings_resource_fkey refused the old floor). In that last case op must read the resource again.
// The other domain packages run their transactions through it too.
func Retried(op func() error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = op()
		if !transient(err) {
			return err
		}
	}
	return err
}

// transient reports whether err is one that Retried retries.
func transient(err error) bool {
	return interpretError(err).kind == failTransient || movedFloor(err)
}

// movedFloor reports whether err is bookings_resource_fkey refusing a booking because its resource is no
// longer on the floor the booking was written with.
func movedFloor(err error) bool {
	e := interpretError(err)
	return e.kind == failForeignKey && e.constraint == "bookings_resource_fkey"
}

// noOverlap is the name of the exclusion constraint that keeps two blocking bookings of one resource apart.
const noOverlap = "bookings_no_overlap"

// isExclusionViolation reports whether err is the no-overlap constraint refusing a booking because the
// resource is already booked during part of the time. Other exclusion constraints do not count.
func isExclusionViolation(err error) bool {
	e := interpretError(err)
	return e.kind == failExclusion && e.constraint == noOverlap
}

// isWorkstationHeld reports whether err is the database refusing a second workstation for one person.
func isWorkstationHeld(err error) bool {
	e := interpretError(err)
	return e.kind == failExclusion && e.constraint == oneWorkstationPerPerson
}

var errUnstorableText = Refuse(CodeInvalidRequest, "refusal.layout.unstorableText")

// Interpret turns a database error that is not a bug in the service into a domain error. Text that
// PostgreSQL cannot store (a NUL character, or bytes that are not UTF-8) becomes 2000. A database that
// cannot be reached, is shutting down or did not answer in time becomes 5030. Other errors are returned
// unchanged.
func Interpret(err error) error {
	if interpretError(err).kind == failUnstorableText {
		return errUnstorableText
	}
	if unavailable(err) {
		return Refuse(CodeUnavailable, "refusal.layout.databaseUnavailable")
	}
	return err
}

// unavailable reports whether err means the database is down or too slow: no connection could be made
// (for any reason, including no server accepting writes), the connection was lost, the server is shutting
// down or has become a standby, or the statement or the request timed out.
func unavailable(err error) bool {
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) {
		return true
	}
	switch interpretError(err).kind {
	case failUnavailable, failConnectionLost:
		return true
	case failNone:
		var netErr net.Error
		return errors.As(err, &netErr) || pgconn.Timeout(err) ||
			errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.ErrUnexpectedEOF) ||
			errors.Is(err, net.ErrClosed)
	}
	return false
}
