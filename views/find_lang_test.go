package views_test

import (
	"context"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"
	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// TestFindAndPlanSpeakTheLanguage renders the search's results, its days, the floor plan, a resource's
// panel and the booking form in Spanish and in English: every word, date and count is in the page's
// language, in the building's time zone.
func TestFindAndPlanSpeakTheLanguage(t *testing.T) {
	p := planWith(8) // Tuesday 24 November 2026, 10:00–11:00 in Madrid: 2 free, 2 busy, 2 mine, 2 unavailable
	p.Search.Now = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	p.Search.Today = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	p.Search.Week = views.Monday(p.Search.Today)
	floors, free := views.GroupByFloor(p.Spots)
	results := views.FindResults{Search: p.Search, Floors: floors, Free: free}
	busy := p.Spots[1]
	busy.Resource.Rule = booking.ResourceRule{StartTime: 8 * time.Hour, EndTime: 20 * time.Hour}
	panel := views.ResourcePanel{Search: p.Search, Result: busy}
	desks := []booking.Resource{p.Spots[0].Resource, p.Spots[4].Resource}
	for i := range desks {
		desks[i].Subcategory.Category = booking.CategoryWorkstation
	}
	form := p.Search.BookingForm(desks)
	form.Days = append(form.Days, form.Days[0].AddDate(0, 0, 1))
	pages := []templ.Component{
		views.FindResultsList(results), views.DaysRefresh(p.Search, "f", true), views.PlanRegion(p),
		views.ResourcePanelView(panel), views.BookingFormView(form),
	}
	for _, c := range []struct {
		lang language.Tag
		want []string
	}{
		{language.Spanish, []string{
			"2 puestos libres", "Madrid HQ · mar 24 nov, 10:00–11:00 hora de Madrid",
			"Semana del lun 23 nov", `<span class="wd">lun</span> <span class="dd">23 nov</span>`, `title="martes, 24 de noviembre de 2026"`,
			"2 libres, 2 ocupados, 2 tuyos, 2 no disponibles",
			`aria-label="Desk 1.001, libre hasta las 20:00 hora de Madrid"`, `aria-label="Desk 1.002, ocupado 10:00–12:00 hora de Madrid"`,
			"Libre de nuevo el martes, 24 de noviembre: 12:00–20:00 hora de Madrid.", "Reservar 12:00–20:00",
			"Reservas en los días elegidos", "martes, 24 de noviembre de 2026:",
			"Reservar 2 puestos para 2 días", "miércoles, 25 de noviembre de 2026", "Horas según la hora de Madrid.",
		}},
		{language.English, []string{
			"2 free desks", "Madrid HQ · Tue 24 Nov, 10:00–11:00 Madrid time",
			"Week of Mon 23 Nov", `<span class="wd">Mon</span> <span class="dd">23 Nov</span>`, `title="Tuesday 24 November 2026"`,
			"2 free, 2 busy, 2 yours, 2 unavailable",
			`aria-label="Desk 1.001, free until 20:00 Madrid time"`, `aria-label="Desk 1.002, busy 10:00–12:00 Madrid time"`,
			"Free next on Tuesday 24 November: 12:00–20:00 Madrid time.", "Book it 12:00–20:00",
			"Bookings on the chosen days", "Tuesday 24 November 2026:",
			"Book 2 desks for 2 days", "Wednesday 25 November 2026", "Times are Madrid time.",
		}},
	} {
		ctx := lang.With(context.Background(), c.lang)
		var sb strings.Builder
		for _, page := range pages {
			if err := page.Render(ctx, &sb); err != nil {
				t.Fatal(err)
			}
		}
		got := html.UnescapeString(sb.String())
		for _, want := range c.want {
			if !strings.Contains(got, want) {
				t.Errorf("%s: no %q", lang.Code(c.lang), want)
			}
		}
	}
}
