package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// An admin whose own language is Spanish reads the console's frame and its buildings, floors, plan
// editor and desks-and-rooms pages in Spanish: the navigation, counts in Spanish plurals, time zones and
// the local time in words of Spanish, and the refusals and confirmations beside the forms. The clock is
// Monday 2026-11-23 09:00 in Madrid.
func TestPageAdminLayoutInSpanish(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	if _, err := pb.Pool.Exec(t.Context(), `UPDATE users SET user_language = 'es' WHERE id = $1`, fx.Adam); err != nil {
		t.Fatal(err)
	}
	b := pb.signedIn(t, fx.Adam)

	t.Run("Buildings", func(t *testing.T) {
		p := b.get("/admin/buildings")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "nav.admin-nav", "Ajustes de la oficina", "Edificios", "Oficinas, direcciones, zonas horarias",
			"Plantas", "Puestos y salas", "Reglas", "Cierres", "Personas")
		p.wantText(t, "main h1", "Edificios")
		p.wantText(t, ".admin-toolbar", "2 edificios", "Añadir un edificio")
		p.wantText(t, ".admin-list", "Madrid HQ", "Calle Mayor 1, Madrid, ES · hora de Madrid · 2 plantas",
			"New York Office", "hora de New York · 1 planta", "Activo", "Editar")
		p.wantNoText(t, "main", "floors")

		p = b.get("/admin/buildings/" + fx.BuildingMadrid.String())
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#timezone option[selected]", "hora de Madrid (Europe, UTC+01:00)")
		p.wantText(t, "#tz-now", "Hora local allí ahora:")
		if got := p.text("#tz-time"); got != "lun 09:00" {
			t.Errorf("the local time reads %q, want lun 09:00", got)
		}
		p.wantText(t, "main", "Detalles", "Zona horaria", "Activo: en uso", "Visible para quien reserva", "Guardar cambios",
			"Planta 1 ·", "Añadir una planta")
	})

	t.Run("Floor", func(t *testing.T) {
		p := b.get("/admin/floors")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "main h1", "Plantas")
		p.wantText(t, "main", "Planta 1 ·", "puestos y salas · con plano", "Colocar puestos", "Oculto")

		p = b.get("/admin/floors/" + fx.FloorMadrid.String())
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".admin-head", "madrid-1", "Madrid HQ, planta 1")
		p.wantText(t, "main", "Número de planta", "Plano", "Subir plano", "puestos y salas en esta planta.",
			"Colocar puestos y salas en el plano", "Ver la lista")
		if got := p.attr("img.floor-thumb", "alt"); got != "El plano de madrid-1" {
			t.Errorf("the plan's alt = %q", got)
		}

		refused := b.post("/admin/floors/"+fx.FloorMadrid.String(), url.Values{
			"building": {fx.BuildingMadrid.String()}, "name": {"1st"}, "number": {"first"}, "status": {"ACTIVATED"},
		})
		refused.wantStatus(t, http.StatusBadRequest)
		refused.wantText(t, "form .notice.error", "Revisa el formulario", "El número de planta debe ser un número entero de -20 a 300.")

		_, etag := adminGetJSON[layout.LayoutFloor](t, pb, "floors", fx.FloorMadrid)
		saved := b.post("/admin/floors/"+fx.FloorMadrid.String(), url.Values{
			"etag": {etag}, "building": {fx.BuildingMadrid.String()}, "name": {"Primera"}, "number": {"1"},
			"status": {"ACTIVATED"}, "visible": {"true"},
		})
		saved.wantStatus(t, http.StatusOK)
		saved.wantText(t, "main .notice.ok", "Guardado. Primera está al día.")
	})

	t.Run("PlanAndResources", func(t *testing.T) {
		p := b.get("/admin/floors/" + fx.FloorMadrid.String() + "/plan")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "main h1", "Colocar puestos y salas")
		p.wantText(t, "#grid-h", "Añadir una fila o cuadrícula de puestos")
		if got := p.attr("#prefix", "value"); got != "Puesto" {
			t.Errorf("new desks are named %q, want Puesto", got)
		}
		grid := b.post("/admin/floors/"+fx.FloorMadrid.String()+"/plan/grid", url.Values{
			"rows": {"21"}, "columns": {"2"}, "prefix": {"Puesto"}, "start": {"1"},
			"subcategory": {fx.SubDesk.String()}, "rule": {fx.RuleDesk.String()},
		})
		grid.wantStatus(t, http.StatusBadRequest)
		grid.wantText(t, "form .notice.error", "El número de filas debe ser un número entero de 1 a 20.")

		list := b.get("/admin/resources?floor=" + fx.FloorMadrid.String())
		list.wantStatus(t, http.StatusOK)
		list.wantText(t, "main h1", "Puestos y salas")
		list.wantText(t, "form#bulk", "Cambiar los puestos y salas marcados", "Mantener la regla de cada uno",
			"Código de cartel", "Cambiar seleccionados")
		if got := list.attr(`input[name=ids][value="`+fx.DeskOne.String()+`"]`, "aria-label"); got != "Elegir Desk 1" {
			t.Errorf("Desk 1's box is labelled %q", got)
		}
		changed := b.post("/admin/resources/bulk", url.Values{
			"ids": {fx.DeskOne.String()}, "add": {fx.FeatureWhiteboard.String()}, "floor": {fx.FloorMadrid.String()},
		})
		changed.wantStatus(t, http.StatusOK)
		changed.wantText(t, ".notice.ok", "Se ha cambiado 1 puesto o sala.")

		r := b.get("/admin/resources/" + fx.DeskOne.String())
		r.wantStatus(t, http.StatusOK)
		r.wantText(t, "main", "Qué es", "Código de cartel", "Regla y extras", "Características", "Quién puede usarlo",
			"Accesible", "Ver en el plano")
		missing := b.post("/admin/resources", url.Values{"id": {uuid.NewString()}, "status": {"ACTIVATED"},
			"subcategory": {fx.SubDesk.String()}, "floor": {fx.FloorMadrid.String()}, "rule": {fx.RuleDesk.String()},
			"x1": {"1"}, "y1": {"1"}, "x2": {"20"}, "y2": {"20"}})
		missing.wantStatus(t, http.StatusBadRequest)
		missing.wantText(t, "form .notice.error", "Revisa el formulario", "Ponle un nombre.")
	})
}
