package layout_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// resourceOf reads a resource of A in the import format.
func resourceOf(t *testing.T, b *testBundle, id uuid.UUID) layout.LayoutResource {
	t.Helper()
	obj, err := b.admin.Get(t.Context(), b.adam, layout.Resources, id)
	if err != nil {
		t.Fatalf("get %s: %v", id, err)
	}
	var r layout.LayoutResource
	if err := json.Unmarshal(obj.JSON, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestChangeResources(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	ids := []uuid.UUID{fx.RoomGoya, fx.RoomVelazquez, fx.DeskOne}
	before := map[uuid.UUID]layout.LayoutResource{}
	for _, id := range ids {
		before[id] = resourceOf(t, b, id)
	}
	rule := fx.RuleApproval
	n, err := b.admin.ChangeResources(ctx, b.adam, ids, layout.ResourceChange{
		RuleID: &rule, AddFeatures: []uuid.UUID{fx.FeatureWhiteboard}, RemoveFeatures: []uuid.UUID{fx.FeatureScreen},
	})
	if err != nil || n != 3 {
		t.Fatalf("ChangeResources = %d, %v; want 3 changed", n, err)
	}
	for _, id := range ids {
		want := before[id]
		want.ResourceRuleID, want.FeatureIDs = rule.String(), []string{fx.FeatureWhiteboard.String()}
		if d := cmp.Diff(want, resourceOf(t, b, id)); d != "" {
			t.Errorf("%s (-want +got):\n%s", want.Name, d)
		}
	}

	// One change, audited at one time by one admin: an entry for each resource with its before and after.
	entries, err := b.admin.Audit(ctx, b.adam, booking.AuditFilter{Collection: "resources"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[uuid.UUID]booking.AuditEntry{}
	var at time.Time
	for _, e := range entries {
		got[e.ObjectID] = e
		at = e.At
	}
	if len(entries) != 3 {
		t.Fatalf("%d audit entries, want one for each of the 3 resources", len(entries))
	}
	for _, id := range ids {
		e := got[id]
		if e.Action != booking.AuditUpdate || e.ActorName != "adam Adler" || !e.At.Equal(at) || len(e.Before) == 0 || len(e.After) == 0 {
			t.Errorf("audit of %s: %+v, want one UPDATE by adam Adler at %v with before and after", before[id].Name, e, at)
		}
	}

	// The same change again changes nothing and records nothing.
	n, err = b.admin.ChangeResources(ctx, b.adam, ids, layout.ResourceChange{RuleID: &rule})
	if err != nil || n != 0 {
		t.Errorf("the same rule again = %d, %v; want 0 changed", n, err)
	}
	if again, _ := b.admin.Audit(ctx, b.adam, booking.AuditFilter{Collection: "resources"}); len(again) != 3 {
		t.Errorf("%d audit entries after a change that changed nothing, want still 3", len(again))
	}
}

func TestChangeResourcesRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	rule, ruleB, sub := fx.RuleApproval, fx.RuleB, fx.SubRoom
	tooMany := make([]uuid.UUID, layout.MaxBulkResources+1)
	for i := range tooMany {
		tooMany[i] = fx.DeskOne
	}
	for _, tc := range []struct {
		name  string
		actor booking.User
		ids   []uuid.UUID
		ch    layout.ResourceChange
		want  booking.Code
	}{
		{"NotAnAdmin", b.alice, []uuid.UUID{fx.DeskOne}, layout.ResourceChange{RuleID: &rule}, booking.CodeForbidden},
		{"AnotherOrganizationsResource", b.adam, []uuid.UUID{fx.DeskOne, fx.RoomB}, layout.ResourceChange{RuleID: &rule}, booking.CodeObjectNotFound},
		{"UnknownResource", b.adam, []uuid.UUID{fx.DeskOne, uuid.New()}, layout.ResourceChange{RuleID: &rule}, booking.CodeObjectNotFound},
		{"NotAResource", b.adam, []uuid.UUID{fx.DeskOne, fx.FloorMadrid}, layout.ResourceChange{RuleID: &rule}, booking.CodeObjectNotFound},
		{"AnotherOrganizationsRule", b.adam, []uuid.UUID{fx.DeskOne}, layout.ResourceChange{RuleID: &ruleB}, booking.CodeInvalidRequest},
		{"AnotherOrganizationsFeature", b.adam, []uuid.UUID{fx.DeskOne}, layout.ResourceChange{AddFeatures: []uuid.UUID{fx.ReservableB}}, booking.CodeInvalidRequest},
		{"ARuleForAKind", b.adam, []uuid.UUID{fx.DeskOne}, layout.ResourceChange{SubcategoryID: &rule}, booking.CodeInvalidRequest},
		{"NoResources", b.adam, nil, layout.ResourceChange{SubcategoryID: &sub}, booking.CodeInvalidRequest},
		{"TooMany", b.adam, tooMany, layout.ResourceChange{RuleID: &rule}, booking.CodeInvalidRequest},
		{"NothingToChange", b.adam, []uuid.UUID{fx.DeskOne}, layout.ResourceChange{}, booking.CodeInvalidRequest},
		{"AddAndRemoveOneFeature", b.adam, []uuid.UUID{fx.DeskOne},
			layout.ResourceChange{AddFeatures: []uuid.UUID{fx.FeatureScreen}, RemoveFeatures: []uuid.UUID{fx.FeatureScreen}}, booking.CodeInvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := resourceOf(t, b, fx.DeskOne)
			n, err := b.admin.ChangeResources(t.Context(), tc.actor, tc.ids, tc.ch)
			if got := booking.ErrorCode(err); got != tc.want || n != 0 {
				t.Errorf("ChangeResources = %d, %v; want code %v", n, err, tc.want)
			}
			if d := cmp.Diff(before, resourceOf(t, b, fx.DeskOne)); d != "" {
				t.Errorf("Desk 1 changed by a refused change (-before +after):\n%s", d)
			}
		})
	}
}
