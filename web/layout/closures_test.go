package layout_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// goyaBooking imports a PENDING booking of Goya on Wed 25 Nov, 10:00–11:00, and returns its id.
func goyaBooking(t *testing.T, b *testBundle) string {
	t.Helper()
	bk := fx.LayoutBooking(fx.RoomGoya, fx.At(2, 10, 0), fx.At(2, 11, 0), booking.StatusPending)
	if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Bookings: []layout.LayoutBooking{bk}}); err != nil {
		t.Fatalf("import booking: %v", err)
	}
	return bk.ID
}

// closureBody is a closure of the Madrid building for all of Wed 25 Nov, Madrid time.
func closureBody(overlapping string) []byte {
	return fmt.Appendf(nil, `{"buildingId": %q, "startDate": %d, "endDate": %d, "reason": "Holiday", "overlapping": %q}`,
		fx.BuildingMadrid, fx.At(2, 0, 0).UnixMilli(), fx.At(3, 0, 0).UnixMilli(), overlapping)
}

func bookingStatus(t *testing.T, b *testBundle, id string) string {
	t.Helper()
	var s string
	if err := b.Pool.QueryRow(t.Context(), "SELECT status FROM bookings WHERE id = $1", id).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestClosureLifecycle(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	created, isNew, err := b.admin.Put(ctx, b.adam, "closures", b.newID, closureBody(""), "")
	if err != nil || !isNew {
		t.Fatalf("Put = %v, %v; want created", isNew, err)
	}
	want := fmt.Sprintf(`{"id":%q,"organizationId":%q,"buildingId":%q,"startDate":%d,"endDate":%d,"reason":"Holiday"}`,
		b.newID, fx.OrgA, fx.BuildingMadrid, fx.At(2, 0, 0).UnixMilli(), fx.At(3, 0, 0).UnixMilli())
	if diff := cmp.Diff(want, string(created.JSON)); diff != "" {
		t.Errorf("created (-want +got):\n%s", diff)
	}
	got, err := b.admin.Get(ctx, b.adam, "closures", b.newID)
	if err != nil || got.ETag != created.ETag {
		t.Errorf("Get = %+v, %v; want the created closure", got, err)
	}
	list, err := b.admin.List(ctx, b.adam, "closures")
	if err != nil || !containsObject(list, created) || len(list) != 1 {
		t.Errorf("List = %v, %v; want the one closure", list, err)
	}

	if err := b.admin.Delete(ctx, b.adam, "closures", b.newID, created.ETag); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	_, err = b.admin.Get(ctx, b.adam, "closures", b.newID)
	fx.WantCode(t, err, booking.CodeObjectNotFound)
}

func TestClosureCoveringBookings(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	id := goyaBooking(t, b)
	audits := auditCount(t, b)

	_, _, err := b.admin.Put(ctx, b.adam, "closures", b.newID, closureBody(""), "")
	fx.WantCode(t, err, booking.CodeClosureCoversBookings)
	_, err = b.admin.Get(ctx, b.adam, "closures", b.newID)
	fx.WantCode(t, err, booking.CodeObjectNotFound)
	if got := auditCount(t, b); got != audits {
		t.Errorf("audit entries after a refused Put = %d, want %d", got, audits)
	}
	if got := bookingStatus(t, b, id); got != "PENDING" {
		t.Errorf("booking after a refused Put is %s, want PENDING", got)
	}

	t.Run("Keep", func(t *testing.T) {
		other := uuid.New()
		obj, _, err := b.admin.Put(ctx, b.adam, "closures", other, closureBody("KEEP"), "")
		if err != nil {
			t.Fatalf("Put KEEP: %v", err)
		}
		if got := bookingStatus(t, b, id); got != "PENDING" {
			t.Errorf("booking after KEEP is %s, want PENDING", got)
		}
		want := fmt.Sprintf(`{"id":%q,"organizationId":%q,"buildingId":%q,"startDate":%d,"endDate":%d,"reason":"Holiday","keptBookingIds":[%q]}`,
			other, fx.OrgA, fx.BuildingMadrid, fx.At(2, 0, 0).UnixMilli(), fx.At(3, 0, 0).UnixMilli(), id)
		if diff := cmp.Diff(want, string(obj.JSON)); diff != "" {
			t.Errorf("kept closure (-want +got):\n%s", diff)
		}
		if err := b.admin.Delete(ctx, b.adam, "closures", other, ""); err != nil {
			t.Fatalf("Delete: %v", err)
		}
	})

	if _, _, err := b.admin.Put(ctx, b.adam, "closures", b.newID, closureBody("CANCEL"), ""); err != nil {
		t.Fatalf("Put CANCEL: %v", err)
	}
	if got := bookingStatus(t, b, id); got != "CANCELLED" {
		t.Errorf("booking after CANCEL is %s, want CANCELLED", got)
	}
}

func TestClosureOfAnotherOrganization(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	theirs := uuid.New()
	closure := layout.LayoutClosure{ID: theirs.String(), OrganizationID: fx.OrgB.String(), BuildingID: fx.BuildingB.String(),
		StartDate: fx.At(2, 0, 0).UnixMilli(), EndDate: fx.At(3, 0, 0).UnixMilli(), Reason: "Theirs"}
	if _, err := layout.New(b.Pool, b.Service).Import(ctx, layout.Layout{Closures: []layout.LayoutClosure{closure}}); err != nil {
		t.Fatalf("import closure: %v", err)
	}
	_, err := b.admin.Get(ctx, b.adam, "closures", theirs)
	fx.WantCode(t, err, booking.CodeObjectNotFound)
	_, _, err = b.admin.Put(ctx, b.adam, "closures", theirs, closureBody(""), "")
	fx.WantCode(t, err, booking.CodeObjectNotFound)
	fx.WantCode(t, b.admin.Delete(ctx, b.adam, "closures", theirs, ""), booking.CodeObjectNotFound)
	if list, err := b.admin.List(ctx, b.adam, "closures"); err != nil || len(list) != 0 {
		t.Errorf("List = %v, %v; want none", list, err)
	}
	// Their building is unknown too.
	body := fmt.Appendf(nil, `{"buildingId": %q, "startDate": %d, "endDate": %d, "reason": "Mine"}`,
		fx.BuildingB, fx.At(2, 0, 0).UnixMilli(), fx.At(3, 0, 0).UnixMilli())
	_, _, err = b.admin.Put(ctx, b.adam, "closures", b.newID, body, "")
	fx.WantCode(t, err, booking.CodeInvalidRequest)
	if n := fx.RowCount(t, b.Bundle, "SELECT count(*) FROM closures WHERE id = $1 AND reason = 'Theirs'", theirs); n != 1 {
		t.Errorf("their closure rows = %d, want 1 unchanged", n)
	}
	_, err = b.admin.List(ctx, b.alice, layout.Collection("closures"))
	fx.WantCode(t, err, booking.CodeForbidden)
}
