package layout_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

type testBundle struct {
	*bookingtest.Bundle
	admin    *layout.Service
	adam     booking.User // admin of A
	alice    booking.User // employee of A
	newID    uuid.UUID
	newIDStr string
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	b := bookingtest.Setup(t)
	id := uuid.New()
	return &testBundle{
		Bundle: b, admin: layout.New(b.Pool, b.Service), newID: id, newIDStr: id.String(),
		adam:  b.User(t, bookingtest.OrgA, bookingtest.Adam),
		alice: b.User(t, bookingtest.OrgA, bookingtest.Alice),
	}
}

// newObject is a valid new object of each collection, and a change to it.
var newObjects = []struct {
	c              layout.Collection
	create, update string
}{
	{"buildings", `{"name": "Lisbon", "address": {"city": "Lisbon"}, "timezone": "Europe/Lisbon"}`,
		`{"name": "Lisboa", "address": {"city": "Lisbon"}, "timezone": "Europe/Lisbon", "status": "DEACTIVATED"}`},
	{"floors", fmt.Sprintf(`{"buildingId": %q, "name": "Floor 9", "floorNumber": 9}`, bookingtest.BuildingMadrid),
		fmt.Sprintf(`{"buildingId": %q, "name": "Floor 9", "floorNumber": 9, "visible": false}`, bookingtest.BuildingMadrid)},
	{"subcategories", `{"name": "Phone booth", "category": "SPACE"}`, `{"name": "Booth", "category": "SPACE"}`},
	{"resourceRules", `{"name": "Short", "maximumDuration": 3600000}`, `{"name": "Short", "maximumDuration": 7200000}`},
	{"features", `{"name": "Projector"}`, `{"name": "Beamer"}`},
	{"reservables", `{"name": "Flowers"}`, `{"name": "Flowers", "minimumCancellationMs": 60000}`},
	{"resources", fmt.Sprintf(`{"floorId": %q, "subcategoryId": %q, "resourceRuleId": %q, "name": "Desk 9", "posterCode": "MAD-D9"}`,
		bookingtest.FloorMadrid, bookingtest.SubDesk, bookingtest.RuleDesk),
		fmt.Sprintf(`{"floorId": %q, "subcategoryId": %q, "resourceRuleId": %q, "name": "Desk 9", "posterCode": "MAD-D9", "featureIds": [%q]}`,
			bookingtest.FloorMadrid, bookingtest.SubDesk, bookingtest.RuleDesk, bookingtest.FeatureScreen)},
	{"users", `{"name": "Nora", "email": "nora@acme.test"}`, `{"name": "Nora", "email": "nora@acme.test", "role": "ADMIN"}`},
}

func TestLifecycleOfEveryCollection(t *testing.T) {
	t.Parallel()
	for _, tc := range newObjects {
		t.Run(string(tc.c), func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			ctx := t.Context()
			created, isNew, err := b.admin.Put(ctx, b.adam, tc.c, b.newID, []byte(tc.create), "")
			if err != nil || !isNew || created.ETag == "" {
				t.Fatalf("Put new = %+v, %v, %v; want created with an ETag", created, isNew, err)
			}
			got, err := b.admin.Get(ctx, b.adam, tc.c, b.newID)
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			if diff := cmp.Diff(created, got); diff != "" {
				t.Errorf("Get (-put +get):\n%s", diff)
			}
			list, err := b.admin.List(ctx, b.adam, tc.c)
			if err != nil || !containsObject(list, created) {
				t.Errorf("List = %v, %v; want it to hold the new object", list, err)
			}
			updated, isNew, err := b.admin.Put(ctx, b.adam, tc.c, b.newID, []byte(tc.update), created.ETag)
			if err != nil || isNew || updated.ETag == created.ETag {
				t.Fatalf("Put update = %+v, %v, %v; want updated with a new ETag", updated, isNew, err)
			}
			audits := auditCount(t, b)
			_, _, err = b.admin.Put(ctx, b.adam, tc.c, b.newID, []byte(tc.create), created.ETag)
			bookingtest.WantCode(t, err, booking.CodePreconditionFailed)
			if got, _ := b.admin.Get(ctx, b.adam, tc.c, b.newID); got.ETag != updated.ETag {
				t.Errorf("after a stale Put the object is %s, want it unchanged", got.JSON)
			}
			if got := auditCount(t, b); got != audits {
				t.Errorf("audit entries after a stale Put = %d, want %d", got, audits)
			}
			bookingtest.WantCode(t, b.admin.Delete(ctx, b.adam, tc.c, b.newID, created.ETag), booking.CodePreconditionFailed)
			if err := b.admin.Delete(ctx, b.adam, tc.c, b.newID, updated.ETag); err != nil {
				t.Fatalf("Delete: %v", err)
			}
			_, err = b.admin.Get(ctx, b.adam, tc.c, b.newID)
			bookingtest.WantCode(t, err, booking.CodeObjectNotFound)
		})
	}
}

func containsObject(list []layout.Object, want layout.Object) bool {
	for _, o := range list {
		if cmp.Equal(o, want) {
			return true
		}
	}
	return false
}

func auditCount(t *testing.T, b *testBundle) int {
	t.Helper()
	return bookingtest.TableCount(t, b.Bundle, "admin_audit")
}

func TestDeleteReferenced(t *testing.T) {
	t.Parallel()
	b := setup(t)
	booked := bookingtest.LayoutBooking(bookingtest.DeskOne, bookingtest.At(-2, 9, 0), bookingtest.At(-2, 17, 0), booking.StatusFinished)
	if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Bookings: []layout.LayoutBooking{booked}}); err != nil {
		t.Fatalf("import booking: %v", err)
	}
	tests := []struct {
		c       layout.Collection
		id      uuid.UUID
		message string
	}{
		{"buildings", bookingtest.BuildingMadrid, "building %s is referred to by floors, so it cannot be deleted; set its status to DEACTIVATED instead"},
		{"floors", bookingtest.FloorMadrid, "floor %s is referred to by resources, so it cannot be deleted; set its status to DEACTIVATED instead"},
		{"subcategories", bookingtest.SubDesk, "subcategory %s is referred to by resources, so it cannot be deleted; point what refers to it at another one first, or keep it"},
		{"resourceRules", bookingtest.RuleDesk, "resource rule %s is referred to by resources, so it cannot be deleted; point what refers to it at another one first, or keep it"},
		{"features", bookingtest.FeatureScreen, "feature %s is referred to by 3 resources, so it cannot be deleted; point what refers to it at another one first, or keep it"},
		{"reservables", bookingtest.ReservableCoffee, "reservable %s is referred to by 3 resources, so it cannot be deleted; point what refers to it at another one first, or keep it"},
		{"resources", bookingtest.DeskOne, "resource %s is referred to by bookings, so it cannot be deleted; set its status to DEACTIVATED instead"},
		{"users", bookingtest.Alice, "user %s is referred to by bookings, so it cannot be deleted; deactivate the user instead"},
	}
	for _, tc := range tests {
		t.Run(string(tc.c), func(t *testing.T) {
			before, err := b.admin.Get(t.Context(), b.adam, tc.c, tc.id)
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			err = b.admin.Delete(t.Context(), b.adam, tc.c, tc.id, "")
			bookingtest.WantCode(t, err, booking.CodeObjectInUse)
			if got, want := err.(*booking.Error).Message, fmt.Sprintf(tc.message, tc.id); got != want {
				t.Errorf("Message = %q\nwant      %q", got, want)
			}
			if after, err := b.admin.Get(t.Context(), b.adam, tc.c, tc.id); err != nil || after.ETag != before.ETag {
				t.Errorf("after a refused Delete: %v, %v; want the object unchanged", after, err)
			}
		})
	}
}

// TestValidationAsImport checks that Put refuses a bad object with the very message `booking import`
// gives for the same object.
func TestValidationAsImport(t *testing.T) {
	t.Parallel()
	b := setup(t)
	org := bookingtest.OrgA.String()
	tests := []struct {
		c      layout.Collection
		layout layout.Layout
	}{
		{"buildings", layout.Layout{Buildings: []layout.LayoutBuilding{{Name: "X", Timezone: "Mars/Olympus"}}}},
		{"floors", layout.Layout{Floors: []layout.LayoutFloor{{BuildingID: uuid.NewString(), Name: "X"}}}},
		{"subcategories", layout.Layout{Subcategories: []layout.LayoutSubcategory{{Name: "X", Category: "CAR"}}}},
		{"resourceRules", layout.Layout{ResourceRules: []layout.LayoutResourceRule{{StartTime: 10, EndTime: 5}}}},
		{"features", layout.Layout{Features: []layout.LayoutFeature{{Name: " "}}}},
		{"reservables", layout.Layout{Reservables: []layout.LayoutReservable{{Name: "X", MinimumCancellationMs: -1}}}},
		{"resources", layout.Layout{Resources: []layout.LayoutResource{{
			FloorID: bookingtest.FloorMadrid.String(), SubcategoryID: bookingtest.SubDesk.String(),
			ResourceRuleID: bookingtest.RuleDesk.String(), Name: "X", PosterCode: "mad-d1"}}}},
		{"users", layout.Layout{Users: []layout.LayoutUser{{Name: "X", Email: "not an address"}}}},
	}
	for _, tc := range tests {
		t.Run(string(tc.c), func(t *testing.T) {
			id := uuid.New()
			setIDs(t, &tc.layout, id.String(), org)
			_, importErr := layout.New(b.Pool, b.Service).Import(t.Context(), tc.layout)
			bookingtest.WantCode(t, importErr, booking.CodeInvalidRequest)
			body := arrayOf(t, tc.layout, tc.c)
			audits := auditCount(t, b)
			_, _, err := b.admin.Put(t.Context(), b.adam, tc.c, id, body, "")
			if diff := cmp.Diff(importErr.Error(), fmt.Sprint(err)); diff != "" {
				t.Errorf("Put error differs from the import's (-import +put):\n%s", diff)
			}
			if got := auditCount(t, b); got != audits {
				t.Errorf("audit entries = %d, want %d", got, audits)
			}
		})
	}
}

// setIDs gives the one object of l the id and organization.
func setIDs(t *testing.T, l *layout.Layout, id, org string) {
	t.Helper()
	doc, _ := json.Marshal(l)
	doc = []byte(strings.Replace(string(doc), `"id":""`, fmt.Sprintf(`"id":%q`, id), 1))
	doc = []byte(strings.Replace(string(doc), `"organizationId":""`, fmt.Sprintf(`"organizationId":%q`, org), 1))
	if err := json.Unmarshal(doc, l); err != nil {
		t.Fatal(err)
	}
}

// arrayOf returns the one object of collection c in l, as JSON.
func arrayOf(t *testing.T, l layout.Layout, c layout.Collection) []byte {
	t.Helper()
	doc, _ := json.Marshal(l)
	var arrays map[layout.Collection][]json.RawMessage
	if err := json.Unmarshal(doc, &arrays); err != nil || len(arrays[c]) != 1 {
		t.Fatalf("no one %s in %s", c, doc)
	}
	return arrays[c][0]
}
