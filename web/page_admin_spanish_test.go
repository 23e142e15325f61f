package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// An admin whose own language is Spanish reads the console's people, identity, catalogue, closures,
// rules, webhooks and audit pages in Spanish: the rule sentences, the refusals and confirmations beside
// the forms, and dates in Spanish in the building's time zone. The clock is Monday 2026-11-23 09:00 in
// Madrid.
func TestPageAdminConsoleInSpanish(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	if _, err := pb.Pool.Exec(t.Context(), `UPDATE users SET user_language = 'es' WHERE id = $1`, fx.Adam); err != nil {
		t.Fatal(err)
	}
	pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
	b := pb.signedIn(t, fx.Adam)

	t.Run("UnknownBuilding", func(t *testing.T) {
		p := b.get("/admin/buildings/nope")
		p.wantStatus(t, http.StatusNotFound)
		p.wantText(t, "main", `Tu organización no tiene el edificio "nope".`)
		if got := p.attr("html", "lang"); got != "es" {
			t.Errorf("<html lang=%q>, want es", got)
		}
	})

	t.Run("RuleSentences", func(t *testing.T) {
		p := b.get("/admin/rules")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Reglas")
		p.wantText(t, ruleForm(fx.RuleApproval)+" .rule-sentence",
			"Reservable de 08:00 a 20:00 hora de Madrid, máximo 4 h, hasta 30 días de antelación; "+
				"registro de llegada desde 10 min antes hasta 15 min después del inicio; requiere aprobación.")
		p.wantText(t, ruleForm(fx.RuleRoom)+" .rule-sentence", "Reservable de 08:00 a 20:00 hora local (Madrid, New York)")
		p.wantText(t, ruleForm(fx.RuleDesk)+" .rule-sentence",
			"Reservable a cualquier hora, sin límite de duración, sin límite de antelación; registro de llegada desde el inicio hasta el final; "+
				"se permiten reservas de día completo, con registro de llegada hasta las 11:00.")
		p.wantText(t, ruleForm(fx.RuleApproval), "Horario reservable cada día", "Reserva más larga", "La usan", "Guardar la regla")

		v := ruleValues("")
		v.Set("maxHours", "1")
		v.Set("maxMinutes", "30")
		s := b.hxPost("/admin/rules/"+fx.RuleApproval.String()+"/sentence", v)
		s.wantStatus(t, http.StatusOK)
		s.wantText(t, "body", "Reservable de 08:00 a 20:00 hora de Madrid, máximo 1 h 30 min, hasta 30 días de antelación")
		v.Set("maxMinutes", "sesenta")
		b.hxPost("/admin/rules/"+fx.RuleApproval.String()+"/sentence", v).
			wantText(t, ".sentence-problem", "Reserva más larga, minutos: escribe un número entero de 0 a 59.")
	})

	t.Run("Closures", func(t *testing.T) {
		goya := "resource:" + fx.RoomGoya.String()
		p := b.post("/admin/closures", closureValues(goya, "2026-11-24T12:00", "2026-11-24T09:00", "Fuga"))
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".add-closure [role=alert]", "Revisa el formulario", "«Hasta» debe ser posterior a «Desde».")

		form := closureValues(goya, "2026-11-24T09:00", "2026-11-24T12:00", "Fuga")
		p = b.post("/admin/closures", form)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".closure-bookings", "1 reserva cae dentro de este cierre.",
			"Goya, de alice Archer, de 10:00 a 11:00 hora de Madrid el mar 24 nov")
		p.wantText(t, ".closure-bookings button[value=KEEP]", "Conservarlas (el cierre no las afectará)")
		form.Set("overlapping", "KEEP")
		p = b.post("/admin/closures", form)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "cierra de 09:00 a 12:00 hora de Madrid el mar 24 nov (Fuga). Se han conservado las reservas afectadas.")
		p.wantText(t, "#closure-"+form.Get("id"), "Cerrado de 09:00 a 12:00 hora de Madrid el mar 24 nov: Fuga",
			"Conserva 1 reserva hecha antes de guardarlo.")

		days := url.Values{"id": {uuid.NewString()}, "target": {"building:" + fx.BuildingMadrid.String()},
			"fromDate": {"2026-11-30"}, "toDate": {"2026-12-01"}, "reason": {"Vacaciones"}}
		p = b.post("/admin/closures", days)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "Se ha guardado: Edificio Madrid HQ cierra del lun 30 nov al mar 1 dic (Vacaciones).")
		p.wantText(t, "#closure-"+days.Get("id"), "Edificio Madrid HQ", "Cerrado del lun 30 nov al mar 1 dic: Vacaciones")
		p.wantText(t, "main", "Cierres actuales y próximos", "Guardar el cierre")
	})

	t.Run("AuditLog", func(t *testing.T) {
		p := b.get("/admin/audit?collection=closures")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Registro de actividad")
		p.wantText(t, ".audit-filters", "Las fechas son días en hora de Madrid.")
		p.wantText(t, ".audit-table", "Cierre", "Creado", "Vacaciones", "Desde", "Hasta", "lun 30 nov 2026, 00:00", "Reservas conservadas", "1 reserva")
		b.get("/admin/audit?from=ayer").wantText(t, "main", "Revisa los filtros", "Desde: elige una fecha.")
	})

	t.Run("People", func(t *testing.T) {
		p := b.get("/admin/people")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Personas")
		p.wantText(t, "#people", "personas")
		p.wantText(t, "#person-"+fx.Rita.String(), "Recepcionista", "Cambiar", "Desactivar a rita")
		p.wantText(t, "#person-"+fx.Adam.String(), "Tú", "Administrador")
		if got := p.attr("#people-q", "placeholder"); got != "Busca por nombre o correo" {
			t.Errorf("search placeholder = %q", got)
		}
		p = b.post("/admin/people", personValues("", "", "Zeta", "zoe@acme.test", "RECEPTIONIST", "es"))
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".add-person", "Nombre: escribe el nombre de la persona.")
	})

	t.Run("OtherPages", func(t *testing.T) {
		for path, want := range map[string][]string{
			"/admin/catalogue": {"Catálogo", "Servicios adicionales", "Tipos de espacio", "Características", "Añadir un servicio"},
			"/admin/identity":  {"Personas del proveedor de identidad", "Dominios de correo", "Aprovisionamiento SCIM", "Aún no hay ningún token SCIM."},
			"/admin/webhooks":  {"Webhooks", "Aún no hay ningún endpoint.", "Añadir un endpoint", "se ha hecho una reserva"},
			"/admin/utilisation?from=2026-11-20&to=2026-11-20": {"Uso", "Madrid HQ, el vie 20 nov", "Cada cifra sale de al menos 5 personas.",
				"Agrupar por", "Aún no hay nada que mostrar", "Días de más uso", "Privacidad de los informes"},
		} {
			p := b.get(path)
			p.wantStatus(t, http.StatusOK)
			p.wantText(t, "main", want...)
		}
	})
}
