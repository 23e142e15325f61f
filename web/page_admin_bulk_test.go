package web_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// "Change selected" on the list of desks and rooms: one change to many, audited as one.

// bulkForm is the list's form with the resources ids chosen and the other fields as given.
func bulkForm(ids []uuid.UUID, fields ...string) url.Values {
	v := url.Values{}
	for _, id := range ids {
		v.Add("ids", id.String())
	}
	for i := 0; i+1 < len(fields); i += 2 {
		v.Add(fields[i], fields[i+1])
	}
	return v
}

func TestAdminChangeSelectedResources(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Adam)
	list := b.get("/admin/resources?floor=" + fx.FloorMadrid.String())
	list.wantStatus(t, http.StatusOK)
	// A box to tick for each resource, named for it, inside the form that changes the ticked ones.
	for _, name := range []string{"Goya", "Velázquez", "Desk 1"} {
		if got := list.count(`form#bulk input[type=checkbox][name=ids][aria-label="Choose ` + name + `"]`); got != 1 {
			t.Errorf("%d boxes to choose %s, want 1", got, name)
		}
	}
	list.wantText(t, "form#bulk", "Change selected", "Rule", "Kind", "Add features", "Take features away")

	goya, velazquez := adminResource(t, pb, fx.RoomGoya), adminResource(t, pb, fx.RoomVelazquez)
	p := b.post("/admin/resources/bulk", bulkForm([]uuid.UUID{fx.RoomGoya, fx.RoomVelazquez},
		"rule", fx.RuleApproval.String(), "subcategory", "", "add", fx.FeatureWhiteboard.String(),
		"remove", fx.FeatureScreen.String(), "floor", fx.FloorMadrid.String()))
	p.wantStatus(t, http.StatusOK)
	if got, want := p.url.String(), pb.srv.URL+"/admin/resources?floor="+fx.FloorMadrid.String(); got != want {
		t.Errorf("after the change: at %s, want back on the list at %s", got, want)
	}
	p.wantText(t, ".notice.ok", "Changed 2 desks and rooms.")
	for _, r := range []layout.LayoutResource{goya, velazquez} {
		r.ResourceRuleID, r.FeatureIDs = fx.RuleApproval.String(), []string{fx.FeatureWhiteboard.String()}
		if d := cmp.Diff(r, adminResource(t, pb, uuid.MustParse(r.ID))); d != "" {
			t.Errorf("%s after the change (-want +got):\n%s", r.Name, d)
		}
	}
	entries, err := layout.New(pb.Pool, pb.Service).Audit(t.Context(), pb.User(t, fx.OrgA, fx.Adam), booking.AuditFilter{Collection: "resources"})
	if err != nil {
		t.Fatal(err)
	}
	var audited []uuid.UUID
	for _, e := range entries {
		if !e.At.Equal(entries[0].At) || e.Action != booking.AuditUpdate {
			t.Errorf("audit entry %+v is not part of the one change", e)
		}
		audited = append(audited, e.ObjectID)
	}
	if len(audited) != 2 || !slices.Contains(audited, fx.RoomGoya) || !slices.Contains(audited, fx.RoomVelazquez) {
		t.Errorf("audited %v, want one entry for Goya and one for Velázquez", audited)
	}
}

// adminResource reads a resource of A in the import format.
func adminResource(t *testing.T, pb *pageBundle, id uuid.UUID) layout.LayoutResource {
	t.Helper()
	r, _ := adminGetJSON[layout.LayoutResource](t, pb, "resources", id)
	return r
}

func TestAdminChangeSelectedResourcesRefusals(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Adam)
	rule := fx.RuleApproval.String()
	many := make([]uuid.UUID, layout.MaxBulkResources+1)
	for i := range many {
		many[i] = uuid.New()
	}
	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		says   string
	}{
		{"NoneChosen", bulkForm(nil, "rule", rule), http.StatusBadRequest, "Choose at least one desk or room."},
		{"NothingToChange", bulkForm([]uuid.UUID{fx.DeskOne}), http.StatusBadRequest, "Choose what to change: the rule, the kind or features."},
		{"TooMany", bulkForm(many, "rule", rule), http.StatusBadRequest, "Choose at most 500 desks and rooms at once."},
		{"AddAndTakeAway", bulkForm([]uuid.UUID{fx.DeskOne}, "add", fx.FeatureScreen.String(), "remove", fx.FeatureScreen.String()),
			http.StatusBadRequest, "A feature cannot be both added and taken away."},
		{"AnotherOrganizationsResource", bulkForm([]uuid.UUID{fx.DeskOne, fx.RoomB}, "rule", rule), http.StatusNotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := adminResource(t, pb, fx.DeskOne)
			p := b.post("/admin/resources/bulk", tc.form)
			p.wantStatus(t, tc.status)
			if tc.says != "" {
				p.wantText(t, "form#bulk .notice", "Nothing was changed", tc.says)
				// The list is shown again, with the boxes as they were ticked.
				if got := p.count(`form#bulk input[name=ids][value="` + fx.DeskOne.String() + `"][checked]`); tc.form.Has("ids") && got != 1 && tc.name != "TooMany" {
					t.Errorf("Desk 1 is not ticked any more")
				}
			}
			if d := cmp.Diff(before, adminResource(t, pb, fx.DeskOne)); d != "" {
				t.Errorf("Desk 1 changed by a refused change (-before +after):\n%s", d)
			}
		})
	}
}
