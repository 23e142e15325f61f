// Package sql holds the numbered, forward-only migrations of the database, embedded in the binary.
// sqlc reads the same files as the schema.
package sql

import "embed"

// Migrations holds the migration files, applied in the order of their numbers.
//
//go:embed *.sql
var Migrations embed.FS
