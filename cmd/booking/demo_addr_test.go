package main

import (
	"strings"
	"testing"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestDemoPrintsServeAddress: the demo's links point where the server will answer: BASE_URL, else the
// address serve is given (ADDR, as make run passes it), else serve's default.
func TestDemoPrintsServeAddress(t *testing.T) {
	t.Parallel()
	dbURL := bookingtest.NewDatabaseURL(t)
	for _, tc := range []struct {
		name string
		env  []string
		want string
	}{
		{"Default", nil, "http://127.0.0.1:8080/kiosk"},
		{"Addr", []string{"ADDR", "127.0.0.1:9999"}, "http://127.0.0.1:9999/kiosk"},
		{"BaseURLWins", []string{"ADDR", "127.0.0.1:9999", "BASE_URL", "https://book.example/"}, "https://book.example/kiosk"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := runBooking(t, environ(dbURL, tc.env...), "demo")
			if err != nil {
				t.Fatalf("demo: %v\n%s", err, stderr)
			}
			if !strings.Contains(stdout, tc.want) {
				t.Errorf("stdout does not point at %s:\n%s", tc.want, stdout)
			}
		})
	}
}
