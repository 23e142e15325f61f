package layout_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestConcurrentEditsWithOneETag has several admins change one rule at once, each from the version it
// read: exactly one wins, and the others get 4120.
func TestConcurrentEditsWithOneETag(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	read, err := b.admin.Get(ctx, b.adam, "resourceRules", bookingtest.RuleRoom)
	if err != nil {
		t.Fatal(err)
	}
	const editors = 8
	codes := make([]booking.Code, editors)
	var wg sync.WaitGroup
	for i := range editors {
		wg.Go(func() {
			body := fmt.Appendf(nil, `{"name": "Edit %d", "maximumDuration": %d}`, i, (i+1)*3600000)
			_, _, err := b.admin.Put(ctx, b.adam, "resourceRules", bookingtest.RuleRoom, body, read.ETag)
			codes[i] = booking.ErrorCode(err)
		})
	}
	wg.Wait()
	won := 0
	for i, code := range codes {
		switch code {
		case 0:
			won++
		case booking.CodePreconditionFailed:
		default:
			t.Errorf("editor %d: code %v, want none or 4120", i, code)
		}
	}
	if won != 1 {
		t.Errorf("%d editors won, want exactly 1 (codes %v)", won, codes)
	}
	entries, err := b.admin.Audit(ctx, b.adam, booking.AuditFilter{ObjectID: &bookingtest.RuleRoom})
	if err != nil || len(entries) != 1 {
		t.Errorf("audit entries = %d (%v), want 1", len(entries), err)
	}
}
