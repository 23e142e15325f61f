package booking_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

func TestRecordAudit(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	ctx := t.Context()
	q := queries.New(b.Pool)
	actor, name := booking.AuditActor(b.User(t, bookingtest.OrgA, bookingtest.Adam))
	entry := booking.AuditEntry{
		OrganizationID: bookingtest.OrgA, ActorID: actor, ActorName: name, Collection: "features",
		ObjectID: bookingtest.FeatureScreen, Action: booking.AuditUpdate,
		Before: json.RawMessage(`{"name": "Screen"}`), After: json.RawMessage(`{"name": "TV"}`),
	}
	if err := booking.RecordAudit(ctx, q, entry); err != nil {
		t.Fatalf("RecordAudit: %v", err)
	}

	t.Run("Listed", func(t *testing.T) {
		got, err := booking.ListAudit(ctx, q, bookingtest.OrgA, booking.AuditFilter{Collection: "features", Limit: 10})
		if err != nil {
			t.Fatalf("ListAudit: %v", err)
		}
		want := []booking.AuditEntry{entry}
		want[0].Before, want[0].After = json.RawMessage(`{"name": "Screen"}`), json.RawMessage(`{"name": "TV"}`)
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(booking.AuditEntry{}, "ID", "At")); diff != "" {
			t.Errorf("entries (-want +got):\n%s", diff)
		}
	})
	t.Run("OtherOrganizationSeesNothing", func(t *testing.T) {
		got, err := booking.ListAudit(ctx, q, bookingtest.OrgB, booking.AuditFilter{Limit: 10})
		if err != nil || len(got) != 0 {
			t.Errorf("ListAudit(OrgB) = %v, %v; want none", got, err)
		}
	})
	t.Run("NeverEditable", func(t *testing.T) {
		for _, stmt := range []string{
			`UPDATE admin_audit SET actor_name = 'someone else'`,
			`DELETE FROM admin_audit`,
			`TRUNCATE admin_audit`,
		} {
			if _, err := b.Pool.Exec(ctx, stmt); err == nil {
				t.Errorf("%s succeeded, want it refused", stmt)
			}
		}
		if got := bookingtest.TableCount(t, b, "admin_audit"); got != 1 {
			t.Errorf("admin_audit = %d rows, want 1", got)
		}
	})
	t.Run("RefusesBadEntry", func(t *testing.T) {
		bad := entry
		bad.Action = "RENAME"
		if err := booking.RecordAudit(ctx, q, bad); err == nil {
			t.Error("RecordAudit with an unknown action succeeded")
		}
	})
}
