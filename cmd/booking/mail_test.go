package main

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// serve says at start where e-mail goes, and a mail server that does not answer keeps nothing from
// being ready: /readyz asks only the database.
func TestServeSaysWhereMailGoes(t *testing.T) {
	t.Parallel()
	// A port nobody listens on: the mail server is away.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	away := ln.Addr().String()
	ln.Close()
	cases := []struct {
		name  string
		env   []string
		flags []string
		want  string
	}{
		{"Off", nil, nil, "e-mail is off: set SMTP_URL and SMTP_FROM"},
		{"LoggedInDevelopment", nil, []string{"--dev"}, "e-mail is written to the log: SMTP_URL is not set (development)"},
		{"ThroughTheMailServer", []string{"SMTP_URL", "smtp://" + away, "SMTP_FROM", "booking@acme.test", "BASE_URL", "https://book.acme.test"}, nil,
			"e-mail goes out through SMTP_URL"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := startServerWith(t, environ(bookingtest.NewDatabaseURL(t), c.env...), c.flags...)
			if res := s.get(t, "/readyz", ""); res.status != http.StatusOK {
				t.Errorf("/readyz = %d %s, want 200 whatever the mail server does", res.status, res.body)
			}
			if !strings.Contains(s.stderr.String(), c.want) {
				t.Errorf("serve's log lacks %q:\n%s", c.want, s.stderr)
			}
		})
	}
}

// A bad SMTP_URL or a missing SMTP_FROM stops serve at start, with the reason.
func TestServeRefusesABadMailServer(t *testing.T) {
	t.Parallel()
	dbURL := bookingtest.NewDatabaseURL(t)
	for _, c := range []struct{ url, from, want string }{
		{"smtp://mail.example.org", "booking@acme.test", "give the port"},
		{"http://mail.example.org:25", "booking@acme.test", "the scheme must be smtp or smtps"},
		{"smtp://mail.example.org:587?tls=maybe", "booking@acme.test", `tls="maybe"`},
		{"smtp://mail.example.org:587", "", "set SMTP_FROM too"},
		{"smtp://mail.example.org:587", "not an address", "SMTP_FROM"},
	} {
		_, _, err := runBooking(t, environ(dbURL, "SMTP_URL", c.url, "SMTP_FROM", c.from), "serve", "--addr", "127.0.0.1:0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SMTP_URL=%q SMTP_FROM=%q: err = %v, want one saying %q", c.url, c.from, err, c.want)
		}
	}
}
