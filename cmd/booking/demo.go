package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/cmd/internal/cli"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/layout"
)

// demo loads the demo office and prints the people, a token and the links to try it with.
func demo(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	c := cli.NewCommand("demo", `usage: booking demo [--addr 127.0.0.1:8080]

Loads the demo office into the database of DATABASE_URL and prints how to try it: the people, a token
and links to the server, at BASE_URL when it is set, else at --addr.`)
	addr := c.String("addr", "127.0.0.1:8080", "the address the server listens on (serve --addr), for the links")
	if _, err := c.Parse(args, stdout, stderr); err != nil {
		return err
	}
	base := strings.TrimRight(getenv("BASE_URL"), "/")
	if base == "" {
		var err error
		if base, err = baseOf(*addr); err != nil {
			return err
		}
	}
	pool, svc, err := openFrom(ctx, getenv)
	if err != nil {
		return err
	}
	defer pool.Close()
	res, err := layout.New(pool, svc).LoadDemo(ctx, time.Now())
	if err != nil {
		return err
	}
	tok, err := mint(ctx, identity.New(pool, svc), res.Employee, 12*time.Hour)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Demo office loaded: %s.\n\n", summary(res.Summary))
	fmt.Fprintf(stdout, "In the browser: %s (with serve --dev, sign in with one click as anyone below;\n"+
		"the receptionist's kiosk is %s/kiosk, a poster's page e.g. %s/p/%s).\n\n", base, base, base, res.Room.PosterCode)
	if d := res.AnyHour; d.ID != uuid.Nil {
		// The other desks and the rooms keep office hours: late in the evening everything else is closed.
		fmt.Fprintf(stdout, "Open round the clock: %s, %s, whose desks can be booked at any hour (the other desks\n"+
			"07:00–21:00, the rooms 08:00–20:00, local time). Try it now with %s:\n", d.Floor.Name, d.Floor.Building.Name, d.Name)
		fmt.Fprintf(stdout, "  Poster:  %s/p/%s\n", base, url.PathEscape(d.PosterCode))
		fmt.Fprintf(stdout, "  Kiosk:   %s/kiosk/resource?code=%s  (as %s %s, the receptionist)\n", base, url.QueryEscape(d.PosterCode),
			res.Receptionist.Name, res.Receptionist.Surname)
		fmt.Fprintf(stdout, "  Search:  %s/find?building=%s&kind=desk\n\n", base, d.Floor.Building.ID)
	}
	fmt.Fprintf(stdout, "People to try it as (get a token with: booking token --user ID):\n")
	for _, p := range []struct {
		what string
		u    booking.User
	}{{"employee", res.Employee}, {"receptionist", res.Receptionist}, {"admin", res.Admin}} {
		fmt.Fprintf(stdout, "  %-12s %s %s <%s>  %s\n", p.what, p.u.Name, p.u.Surname, p.u.Email, p.u.ID)
	}
	fmt.Fprintf(stdout, "\nA token for %s %s, valid 12h:\n  export TOKEN=%s\n", res.Employee.Name, res.Employee.Surname, tok)
	fmt.Fprintf(stdout, "\nIs room %s (%s) free now?\n  curl -s -H \"Authorization: Bearer $TOKEN\" '%s/api/v1/users/me/resources/statusinfo?postercode=%s'\n",
		res.Room.Name, res.Room.PosterCode, base, res.Room.PosterCode)
	return nil
}

// baseOf returns the URL at which a browser on this machine reaches a server listening on addr
// (host:port). A server listening on every interface ("", 0.0.0.0, ::) is reached at 127.0.0.1.
func baseOf(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return "", fmt.Errorf("--addr %q: want host:port, e.g. 127.0.0.1:8080", addr)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port), nil
}
