package main

import (
	"strings"
	"testing"
)

// TestServeRefusesABadOnlineMeetingURL checks that serve refuses to start, and prints nothing, when
// ONLINE_MEETING_URL is not an absolute http(s) address holding {bookingId}.
func TestServeRefusesABadOnlineMeetingURL(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)
	for _, tpl := range []string{"https://meet.example.org/", "meet.example.org/{bookingId}", "ftp://x/{bookingId}"} {
		stdout, _, err := runBooking(t, environ(dbURL, "ONLINE_MEETING_URL", tpl), "serve", "--addr", "127.0.0.1:0")
		if err == nil || !strings.Contains(err.Error(), "ONLINE_MEETING_URL") {
			t.Errorf("ONLINE_MEETING_URL=%q: err = %v, want one naming the variable", tpl, err)
		}
		if stdout != "" {
			t.Errorf("ONLINE_MEETING_URL=%q: stdout = %q, want nothing", tpl, stdout)
		}
	}
}
