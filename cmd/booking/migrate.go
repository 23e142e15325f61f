package main

import (
	"context"
	"fmt"
	"io"

	"github.com/workspacebooking/booking/cmd/internal/cli"
	"github.com/workspacebooking/booking/web/postgres"
)

// migrate applies the pending migrations and exits.
func migrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	c := cli.NewCommand("migrate", `usage: booking migrate

Applies the pending migrations to the database of DATABASE_URL (created when missing), and exits.`)
	if _, err := c.Parse(args, stdout, stderr); err != nil {
		return err
	}
	dbURL, err := dbURLFrom(getenv)
	if err != nil {
		return err
	}
	n, err := postgres.Migrate(ctx, dbURL)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "applied %d migration(s); the database is up to date\n", n)
	return nil
}
