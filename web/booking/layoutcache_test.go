package booking_test

import (
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// The listings and the poster status read the cached layout, and an import through the service shows up
// at once.
func TestImportShowsAtOnce(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
	st, err := b.Service.StatusByPosterCode(t.Context(), alice, "MAD-R1")
	if err != nil || !st.IsFree || st.Resource.Name != "Goya" {
		t.Fatalf("before the import: %+v, %v; want Goya free", st, err)
	}
	free := func() int {
		t.Helper()
		rs, err := b.Service.FreeResources(t.Context(), alice, booking.FreeQuery{
			BuildingID: bookingtest.BuildingMadrid, SubcategoryID: bookingtest.SubRoom, Category: booking.CategorySpace,
			Intervals: []booking.Interval{{Start: bookingtest.At(1, 10, 0), End: bookingtest.At(1, 11, 0)}},
		})
		if err != nil {
			t.Fatal(err)
		}
		return len(rs)
	}
	before := free()

	l := bookingtest.Layout()
	hidden := false
	for i := range l.Resources {
		if l.Resources[i].ID == bookingtest.RoomGoya.String() {
			l.Resources[i].Name, l.Resources[i].Visible = "Goya (closed)", &hidden
		}
	}
	if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), l); err != nil {
		t.Fatal(err)
	}
	st, err = b.Service.StatusByPosterCode(t.Context(), alice, "MAD-R1")
	if err != nil || st.IsFree || st.Resource.Name != "Goya (closed)" {
		t.Errorf("after the import: free %v, name %q, %v; want the hidden Goya (closed), not free", st.IsFree, st.Resource.Name, err)
	}
	if got := free(); got != before-1 {
		t.Errorf("free rooms after hiding Goya: %d, want %d", got, before-1)
	}
}
