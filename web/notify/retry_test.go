package notify

import (
	"testing"
	"time"
)

// The first retries come within seconds, no wait is longer than 5 minutes, so a message held back by a
// mail server that was away for an hour goes out within 5 minutes of its return, and the last try of an
// e-mail comes about a day after the first.
func TestRetrySpacing(t *testing.T) {
	if d := retryDelay(1); d != 2*time.Second {
		t.Errorf("first retry after %s, want 2s", d)
	}
	var total time.Duration
	for attempt := 1; attempt < mailAttempts; attempt++ {
		d := retryDelay(attempt)
		if d > maxRetryDelay {
			t.Fatalf("retry %d waits %s, more than %s", attempt, d, maxRetryDelay)
		}
		total += d
	}
	if total < 23*time.Hour || total > 25*time.Hour {
		t.Errorf("the last of %d tries comes %s after the first, want about a day", mailAttempts, total)
	}
}
