package views

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/booking"
)

func TestNameOnPlan(t *testing.T) {
	t.Parallel()
	at := func(x, y, w, h int32) booking.MapCoordinates {
		return booking.MapCoordinates{TopLeftX: x, TopLeftY: y, BottomRightX: x + w, BottomRightY: y + h}
	}
	for _, tc := range []struct {
		name      string
		m         booking.MapCoordinates
		text      string
		corner    int32
		wantLines []string // nil: nothing written
	}{
		{"RoomOnOneLine", at(60, 60, 168, 270), "Cibeles", spotCorner, []string{"Cibeles"}},
		{"TwoWordsOnTwoLines", at(10, 20, 100, 60), "Hidden room", spotCorner, []string{"Hidden", "room"}},
		{"EvenLines", at(476, 60, 100, 120), "Phone booth 1A", spotCorner, []string{"Phone", "booth 1A"}},
		{"DeskShowsItsNumber", at(70, 475, 56, 36), "Desk 1.05", spotCorner, []string{"1.05"}},
		{"GridDeskInTheEditor", at(600, 400, 60, 40), "Desk 1", 0, []string{"Desk", "1"}},
		{"WordsWithoutANumberStayWhole", at(70, 475, 56, 36), "Window seat", spotCorner, []string{"Window", "seat"}},
		{"TooSmall", at(0, 0, 6, 6), "Desk 7", spotCorner, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, ok := nameOnPlan(tc.m, tc.text, 1200, tc.corner)
			if !ok {
				if tc.wantLines != nil {
					t.Fatalf("nothing written, want %q", tc.wantLines)
				}
				return
			}
			if d := cmp.Diff(tc.wantLines, n.Lines); d != "" {
				t.Fatalf("lines (-want +got):\n%s", d)
			}
			m := tc.m
			if n.BgX < float64(m.TopLeftX) || n.BgY < float64(m.TopLeftY) ||
				n.BgX+n.BgW > float64(m.BottomRightX) || n.BgY+n.BgH > float64(m.BottomRightY) {
				t.Errorf("backing %+v leaves the shape %+v", n, m)
			}
			if n.BgX < float64(m.TopLeftX+tc.corner) && n.BgY < float64(m.TopLeftY+tc.corner) {
				t.Errorf("backing %+v covers the corner of the state's symbol", n)
			}
			if n.Size > 1200.0/nameMaxShare {
				t.Errorf("size %v, larger than the plan's largest names", n.Size)
			}
		})
	}
}
