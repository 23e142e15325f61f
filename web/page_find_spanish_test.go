package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestFindPagesInSpanish shows the search, its problems, the floor plan, a busy room's panel and the
// booking form's refusals to a person whose language is Spanish: the words, the dates ("mar 24 nov",
// "martes, 24 de noviembre"), the counts and the time zone are Spanish.
func TestFindPagesInSpanish(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	if _, err := pb.Pool.Exec(t.Context(), `UPDATE users SET user_language = 'es' WHERE id = $1`, fx.Alice); err != nil {
		t.Fatal(err)
	}
	findBook(t, pb, fx.Bob, fx.RoomGoya, booking.CategorySpace, fx.At(1, 10, 0), fx.At(1, 11, 0))
	b := pb.signedIn(t, fx.Alice)

	p := b.get(findPath("kind", "room", "date", "2026-11-24", "from", "10:00", "to", "11:00"))
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "h1", "Buscar un espacio")
	p.wantText(t, "#results-h", "salas libres")
	p.wantText(t, ".results-head .meta", "mar 24 nov, 10:00–11:00 hora de Madrid")
	p.wantText(t, "#f-week", "Semana del lun 23 nov")
	p.wantText(t, "#f-week-strip", "mar", "24 nov")
	p.wantText(t, "#f-zone", "Horas según la hora de Madrid")
	if got := p.attr(`#f-week-prev`, "aria-label"); got != "Semana anterior" {
		t.Errorf("‹ is labelled %q, want Semana anterior", got)
	}
	p.wantText(t, "li.result.busy", "Goya", "Ocupada", "10:00–11:00 hora de Madrid")

	// A search that cannot run says why beside the filters.
	p = b.get(findPath("date", "2026-13-01"))
	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, "#search-problem", "No se puede hacer esta búsqueda.", "Día: «2026-13-01» no es una fecha: escríbela como AAAA-MM-DD")

	// The floor plan counts and names the states.
	p = b.get("/find/plan?floor=" + fx.FloorMadrid.String() + "&date=2026-11-24&from=10:00&to=11:00")
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "h1", "Plano")
	p.wantText(t, ".plan-head .meta", "mar 24 nov, 10:00–11:00 hora de Madrid", "libres", "no disponible")
	p.wantText(t, ".legend", "Ocupado (rayado)")

	// A busy room's panel says when it is free next, with the day in full.
	p = b.get("/find/resources/" + fx.RoomGoya.String() + "?date=2026-11-24&kind=room&from=10:00&to=11:00")
	p.wantText(t, "#free-next", "Libre de nuevo el martes, 24 de noviembre: 11:00–20:00 hora de Madrid.", "Reservar 11:00–15:00")
	p.wantText(t, ".day-list", "martes, 24 de noviembre de 2026:", "10:00–11:00 hora de Madrid")

	// The booking form's refusals are Spanish, and so is the space and day a refusal names.
	p = b.hxPost("/bookings", bookForm([]uuid.UUID{fx.RoomGoya, fx.DeskOne}, "2026-11-24"))
	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, ".booking-error", "No se ha reservado nada.", "Desk 1 es un puesto y Goya es una sala")
	bad := bookForm([]uuid.UUID{fx.RoomVelazquez}, "2026-11-24")
	bad.Set("from", "9am")
	p = b.hxPost("/bookings", bad)
	p.wantText(t, ".booking-error", `Desde: "9am" no es una hora: escríbela como HH:MM`)
	taken := url.Values{"resource": {fx.RoomGoya.String()}, "date": {"2026-11-24"}, "from": {"10:00"}, "to": {"11:00"}}
	p = b.hxPost("/bookings", taken)
	p.wantStatus(t, http.StatusConflict)
	p.wantText(t, ".booking-error", "Goya el martes, 24 de noviembre de 2026: Goya ")
}
