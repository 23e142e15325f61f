package views_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
)

// planWith returns the floor plan of a floor with n resources laid out in a grid, in every state in turn.
func planWith(n int) views.FloorPlan {
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		panic(err)
	}
	b := booking.Building{ID: uuid.New(), Name: "Madrid HQ", Timezone: "Europe/Madrid"}
	floor := booking.Floor{ID: uuid.New(), Name: "1st floor", Image: "/static/floors/madrid-1.svg", Building: b}
	day := time.Date(2026, 11, 24, 0, 0, 0, 0, madrid)
	hours := booking.Interval{Start: day.Add(10 * time.Hour), End: day.Add(11 * time.Hour)}
	busy := booking.Interval{Start: day.Add(10 * time.Hour), End: day.Add(12 * time.Hour)}
	states := []booking.SpotState{booking.SpotFree, booking.SpotBusy, booking.SpotMine, booking.SpotUnavailable}
	p := views.FloorPlan{
		Search: views.FindSearch{Building: b, Days: []time.Time{day}, From: 10 * time.Hour, To: 11 * time.Hour, Kind: views.KindDesk},
		Floors: []booking.Floor{floor}, Floor: floor, Width: 1200, Height: 800,
	}
	for i := range n {
		x, y := int32(20+(i%20)*58), int32(20+(i/20)*50)
		d := booking.SearchDay{Hours: hours, Window: booking.Interval{Start: day.Add(8 * time.Hour), End: day.Add(20 * time.Hour)}}
		switch d.State = states[i%len(states)]; d.State {
		case booking.SpotFree:
			d.FreeUntil = d.Window.End
		case booking.SpotBusy:
			d.Busy = []booking.Interval{busy}
		case booking.SpotMine:
			d.Busy, d.Mine = []booking.Interval{busy}, []booking.Interval{busy}
		case booking.SpotUnavailable:
			d.Refusal = "the booking lasts 5h, longer than the maximum of 4h"
		}
		p.Spots = append(p.Spots, booking.SearchResult{
			Resource: booking.Resource{
				ID: uuid.New(), Name: fmt.Sprintf("Desk 1.%03d", i+1), Floor: floor,
				Map: booking.MapCoordinates{TopLeftX: x, TopLeftY: y, BottomRightX: x + 56, BottomRightY: y + 36},
			},
			Days: []booking.SearchDay{d}, State: d.State,
		})
	}
	return p
}

func TestPlanRegionDrawsEveryResource(t *testing.T) {
	var sb strings.Builder
	if err := views.PlanRegion(planWith(300)).Render(context.Background(), &sb); err != nil {
		t.Fatal(err)
	}
	html := sb.String()
	if got := strings.Count(html, `<a class="spot `); got != 300 {
		t.Errorf("%d resources drawn, want 300", got)
	}
	for _, want := range []string{
		`aria-label="Desk 1.001, free until 20:00 Madrid time"`,
		`aria-label="Desk 1.002, busy 10:00–12:00 Madrid time"`,
		`aria-label="Desk 1.003, yours 10:00–12:00 Madrid time"`,
		`aria-label="Desk 1.004, unavailable then: the booking lasts 5h, longer than the maximum of 4h"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s", want)
		}
	}
}

// BenchmarkFloorPlan renders the plan of a floor with 300 resources, as htmx swaps it.
func BenchmarkFloorPlan(b *testing.B) {
	p := planWith(300)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := views.PlanRegion(p).Render(ctx, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
