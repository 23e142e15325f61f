package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/cmd/internal/cli"
	"github.com/workspacebooking/booking/web/identity"
)

// domain runs `booking domain approve ORGANIZATION_ID DOMAIN`: the service's operator vouches that the
// organization owns the domain, which then counts at once without a DNS record.
func domain(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "approve" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprint(stdout, domainUsage)
			return cli.ErrHelp
		}
		fmt.Fprint(stderr, domainUsage)
		return errors.New("domain: the only subcommand is approve")
	}
	c := cli.NewCommand("domain approve", domainUsage, "ORGANIZATION_ID", "DOMAIN")
	args, err := c.Parse(args[1:], stdout, stderr)
	if err != nil {
		return err
	}
	org, err := uuid.Parse(args[0])
	if err != nil {
		return fmt.Errorf("domain approve: %q is not an organization id", args[0])
	}
	pool, svc, err := openFrom(ctx, getenv)
	if err != nil {
		return err
	}
	defer pool.Close()
	d, err := identity.New(pool, svc).ApproveEmailDomain(ctx, org, args[1])
	if err != nil {
		return fmt.Errorf("domain approve: %w", err)
	}
	fmt.Fprintf(stdout, "%s is verified for organization %s: its people can sign in with their addresses there\n", d.Domain, org)
	return nil
}

const domainUsage = `usage: booking domain approve ORGANIZATION_ID DOMAIN

Verifies the e-mail domain for the organization on your word, as its DNS record would: people with a
verified address at the domain then sign in to that organization, and no other organization can use the
domain. The organization claims the domain if it did not yet. Public mail domains (gmail.com…) and a domain
another organization verified are refused.
`
