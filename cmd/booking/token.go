package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/cmd/internal/cli"
	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
)

// token prints a bearer token for a user, or with "revoke" refuses the user's tokens (revokeTokens).
func token(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "revoke" {
		return revokeTokens(ctx, args[1:], getenv, stdout, stderr)
	}
	fs := cli.NewCommand("token", `usage: booking token --user USER_ID [--ttl 1h]
       booking token revoke --user USER_ID [--before RFC3339]

Prints a bearer token of the service for that user; the token is the last line. --ttl is at most 720h
(30 days). "token revoke" refuses every token of the user issued before --before (default: now).`)
	user := fs.String("user", "", "id of the user the token is for")
	ttl := fs.Duration("ttl", time.Hour, "how long the token is valid")
	if _, err := fs.Parse(args, stdout, stderr); err != nil {
		return err
	}
	if *user == "" {
		fs.PrintUsage(stderr)
		return errors.New("token: --user is required: the id of the user the token is for (booking demo lists some)")
	}
	if *ttl <= 0 {
		return errors.New("--ttl: must be positive")
	}
	if *ttl > web.MaxTokenTTL {
		return errors.New("--ttl: at most 720h (30 days); mint a new token when it runs out")
	}
	pool, people, u, err := openForUser(ctx, getenv, *user)
	if err != nil {
		return err
	}
	defer pool.Close()
	tok, err := mint(ctx, people, u, *ttl)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# bearer token for %s %s <%s>, valid %s\n%s\n", u.Name, u.Surname, u.Email, *ttl, tok)
	return nil
}

// revokeTokens refuses, from now on, every token of the user issued before --before (default: now). It
// refuses a --before later than now, which would refuse tokens not minted yet.
func revokeTokens(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := cli.NewCommand("token revoke", `usage: booking token revoke --user USER_ID [--before RFC3339]

Refuses every token of the service that the user was given before --before, a moment of the past such as
2026-01-02T15:04:05Z (default: now); a running server follows within a minute. A revocation never moves
back: when a later moment is refused already, it stays.`)
	user := fs.String("user", "", "id of the user whose tokens are revoked")
	beforeFlag := fs.String("before", "", "refuse the tokens issued before this moment, in RFC 3339 (default: now)")
	if _, err := fs.Parse(args, stdout, stderr); err != nil {
		return err
	}
	if *user == "" {
		fs.PrintUsage(stderr)
		return errors.New("token revoke: --user is required: the id of the user whose tokens are revoked")
	}
	// Tokens carry their issue time in whole seconds: by default revoke up to the end of this second, so
	// that a token minted a moment ago is refused too.
	now := time.Now()
	before := now.Truncate(time.Second).Add(time.Second)
	if *beforeFlag != "" {
		t, err := time.Parse(time.RFC3339, *beforeFlag)
		if err != nil {
			return fmt.Errorf("--before: %q is not a moment in RFC 3339, such as 2026-01-02T15:04:05Z", *beforeFlag)
		}
		if t.After(now) {
			return fmt.Errorf("--before: %s is later than now; it would refuse tokens not minted yet (leave --before out to revoke until now)", *beforeFlag)
		}
		before = t
	}
	pool, people, u, err := openForUser(ctx, getenv, *user)
	if err != nil {
		return err
	}
	defer pool.Close()
	inForce, err := people.RevokeTokens(ctx, u, before)
	if err != nil {
		return err
	}
	if inForce.After(before) {
		fmt.Fprintf(stdout, "tokens of %s %s <%s> issued before %s were refused already; nothing changed\n",
			u.Name, u.Surname, u.Email, inForce.UTC().Format(time.RFC3339Nano))
		return nil
	}
	fmt.Fprintf(stdout, "tokens of %s %s <%s> issued before %s are refused from now on (within a minute on a running server)\n",
		u.Name, u.Surname, u.Email, before.UTC().Format(time.RFC3339Nano))
	return nil
}

// openForUser opens the identity service on the database of DATABASE_URL and finds the user with the id given as
// --user. It refuses an id that is not a UUID and one the database does not know.
func openForUser(ctx context.Context, getenv func(string) string, user string) (*pgxpool.Pool, *identity.Service, booking.User, error) {
	id, err := uuid.Parse(user)
	if err != nil {
		return nil, nil, booking.User{}, fmt.Errorf("--user: %q is not a user id", user)
	}
	dbURL, err := dbURLFrom(getenv)
	if err != nil {
		return nil, nil, booking.User{}, err
	}
	pool, svc, err := open(ctx, dbURL)
	if err != nil {
		return nil, nil, booking.User{}, err
	}
	people := identity.New(pool, svc)
	u, err := people.FindUser(ctx, id)
	if err != nil {
		pool.Close()
		return nil, nil, booking.User{}, err
	}
	return pool, people, u, nil
}

// mint returns a bearer token of the service for the user, valid for ttl.
func mint(ctx context.Context, people *identity.Service, u booking.User, ttl time.Duration) (string, error) {
	tokens, err := web.NewTokens(ctx, people, nil)
	if err != nil {
		return "", err
	}
	return tokens.Mint(u, ttl)
}
