package web_test

import (
	"net/http"
	"testing"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// TestFindClosedSaysWhy searches where nothing is free because the building or the floor is closed, or
// because of the hours: the heading of the results says why, with the closure's reason or the hours.
func TestFindClosedSaysWhy(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	closures := []layout.LayoutClosure{
		{ID: "00000000-0000-4000-8000-000000009101", OrganizationID: fx.OrgA.String(), BuildingID: fx.BuildingMadrid.String(),
			StartDate: fx.At(5, 0, 0).UnixMilli(), EndDate: fx.At(6, 0, 0).UnixMilli(), Reason: "Christmas"},
		{ID: "00000000-0000-4000-8000-000000009102", OrganizationID: fx.OrgA.String(), FloorID: fx.FloorMadrid.String(),
			StartDate: fx.At(1, 8, 0).UnixMilli(), EndDate: fx.At(1, 12, 0).UnixMilli(), Reason: "Carpet cleaning"},
	}
	if _, err := layout.New(pb.Pool, pb.Service).Import(t.Context(), layout.Layout{Closures: closures}); err != nil {
		t.Fatal(err)
	}
	b := pb.signedIn(t, fx.Alice)
	for _, tc := range []struct{ name, path, want string }{
		{"BuildingClosed", findPath("kind", "desk", "date", "2026-11-28"),
			"0 free desks: Madrid HQ is closed on Sat 28 Nov: Christmas"},
		{"BuildingClosedRooms", findPath("kind", "room", "date", "2026-11-28", "from", "10:00", "to", "11:00"),
			"0 free rooms: Madrid HQ is closed on Sat 28 Nov: Christmas"},
		{"FloorClosed", findPath("kind", "room", "date", "2026-11-24", "from", "09:00", "to", "10:00"),
			"0 free rooms: madrid-1 is closed from 08:00 to 12:00 Madrid time on Tue 24 Nov: Carpet cleaning"},
		{"OutsideHours", findPath("kind", "room", "date", "2026-11-25", "from", "21:00", "to", "22:00"),
			"0 free rooms: outside opening hours, 08:00–20:00 Madrid time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := b.get(tc.path)
			p.wantStatus(t, http.StatusOK)
			if got := p.text("#results-h"); got != tc.want {
				t.Errorf("heading = %q, want %q", got, tc.want)
			}
		})
	}
}
