package layout_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// TestExportImportChangesNothing exports the organization, imports the export, and exports again: both
// exports and every object's ETag are the same.
func TestExportImportChangesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	first, err := b.admin.Export(ctx, b.adam)
	if err != nil {
		t.Fatalf("Export: %v", err)
	}
	if len(first.Organizations) != 1 || len(first.Resources) == 0 || len(first.Users) == 0 {
		t.Fatalf("Export = %+v, want the organization with its users and resources", first)
	}
	emails := map[string]string{}
	for _, r := range first.Reservables {
		emails[r.Name] = r.Email
	}
	if got, want := emails["Coffee"], "catering@acme.test"; got != want {
		t.Errorf("Export: Coffee's contact e-mail = %q, want %q", got, want)
	}
	tags := etags(t, b)
	if _, err := layout.New(b.Pool, b.Service).Import(ctx, first); err != nil {
		t.Fatalf("Import of the export: %v", err)
	}
	second, err := b.admin.Export(ctx, b.adam)
	if err != nil {
		t.Fatalf("Export again: %v", err)
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("export after importing the export (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff(tags, etags(t, b)); diff != "" {
		t.Errorf("ETags after importing the export (-before +after):\n%s", diff)
	}
	for _, r := range first.Resources {
		if r.OrganizationID != bookingtest.OrgA.String() {
			t.Errorf("Export holds resource %s of organization %s", r.ID, r.OrganizationID)
		}
	}
}

// etags returns the ETag of every object of every collection, by collection and id.
func etags(t *testing.T, b *testBundle) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, c := range layout.Collections() {
		objs, err := b.admin.List(t.Context(), b.adam, c)
		if err != nil {
			t.Fatalf("List %s: %v", c, err)
		}
		for _, o := range objs {
			out[fmt.Sprintf("%s/%s", c, o.ID)] = o.ETag
		}
	}
	return out
}

func TestAuditOfChanges(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	created, _, err := b.admin.Put(ctx, b.adam, "features", b.newID, []byte(`{"name": "Projector"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	updated, _, err := b.admin.Put(ctx, b.adam, "features", b.newID, []byte(`{"name": "Beamer"}`), created.ETag)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.admin.Put(ctx, b.adam, "features", b.newID, []byte(`{"name": "Beamer"}`), ""); err != nil {
		t.Fatal(err) // changes nothing, so it is not recorded
	}
	if err := b.admin.Delete(ctx, b.adam, "features", b.newID, ""); err != nil {
		t.Fatal(err)
	}
	got, err := b.admin.Audit(ctx, b.adam, booking.AuditFilter{ObjectID: &b.newID})
	if err != nil {
		t.Fatalf("Audit: %v", err)
	}
	entry := func(a booking.AuditAction, before, after json.RawMessage) booking.AuditEntry {
		return booking.AuditEntry{
			OrganizationID: bookingtest.OrgA, ActorID: &b.adam.ID, ActorName: "adam Adler", Collection: "features",
			ObjectID: b.newID, Action: a, Before: before, After: after,
		}
	}
	want := []booking.AuditEntry{
		entry(booking.AuditDelete, updated.JSON, nil),
		entry(booking.AuditUpdate, created.JSON, updated.JSON),
		entry(booking.AuditCreate, nil, created.JSON),
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(booking.AuditEntry{}, "ID", "At"), sameJSON); diff != "" {
		t.Errorf("Audit (-want +got):\n%s", diff)
	}
	for _, e := range got {
		if time.Since(e.At) > time.Minute || e.At.After(time.Now()) {
			t.Errorf("entry at %v, want now", e.At)
		}
	}
	t.Run("Cursor", func(t *testing.T) {
		page, err := b.admin.Audit(ctx, b.adam, booking.AuditFilter{ObjectID: &b.newID, Limit: 1, BeforeID: &got[0].ID})
		if err != nil || len(page) != 1 || page[0].ID != got[1].ID {
			t.Errorf("the page after the newest = %+v, %v; want the update", page, err)
		}
	})
	t.Run("LimitBounded", func(t *testing.T) {
		_, err := b.admin.Audit(ctx, b.adam, booking.AuditFilter{Limit: layout.MaxAuditEntries + 1})
		bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
	})
}

// sameJSON compares JSON documents by value: PostgreSQL's jsonb orders keys its own way.
var sameJSON = cmp.Transformer("json", func(j json.RawMessage) any {
	var v any
	if err := json.Unmarshal(j, &v); err != nil {
		return string(j)
	}
	return v
})

func TestChangeBumpsLayoutVersion(t *testing.T) {
	t.Parallel()
	b := setup(t)
	version := func() int {
		return bookingtest.RowCount(t, b.Bundle, "SELECT layout_version::int FROM organizations WHERE id = $1", bookingtest.OrgA)
	}
	before := version()
	body := fmt.Sprintf(`{"buildingId": %q, "name": "Floor 9", "floorNumber": 9}`, bookingtest.BuildingMadrid)
	if _, _, err := b.admin.Put(t.Context(), b.adam, "floors", b.newID, []byte(body), ""); err != nil {
		t.Fatal(err)
	}
	if after := version(); after == before {
		t.Errorf("layout_version = %d after a change, want it moved", after)
	}
}
