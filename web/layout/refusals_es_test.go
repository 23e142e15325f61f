package layout_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"
	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

// TestRefusalsInSpanish makes refusals of the admin API and of the import for real and reads them in
// Spanish: words in Spanish, ids, field paths and codes as they are, Message in English.
func TestRefusalsInSpanish(t *testing.T) {
	t.Parallel()
	b := setup(t)
	es := lang.With(context.Background(), language.Spanish)
	org := bookingtest.OrgA.String()
	missing := uuid.MustParse("00000000-0000-4000-8000-000000099999")
	for _, tc := range []struct {
		name             string
		err              func() error
		code             booking.Code
		english, spanish string
	}{
		{"InUse", func() error {
			return b.admin.Delete(t.Context(), b.adam, layout.Buildings, bookingtest.BuildingMadrid, "")
		}, booking.CodeObjectInUse,
			"building " + bookingtest.BuildingMadrid.String() + " is referred to by floors, so it cannot be deleted; set its status to DEACTIVATED instead",
			"no se puede eliminar el edificio " + bookingtest.BuildingMadrid.String() + " porque hay referencias en floors; en su lugar, cambia su estado a DEACTIVATED"},
		{"InUseByResources", func() error {
			return b.admin.Delete(t.Context(), b.adam, layout.Features, bookingtest.FeatureScreen, "")
		}, booking.CodeObjectInUse,
			"feature " + bookingtest.FeatureScreen.String() + " is referred to by 3 resources, so it cannot be deleted; point what refers to it at another one first, or keep it",
			"no se puede eliminar la característica " + bookingtest.FeatureScreen.String() + " porque hay referencias en 3 recursos; primero haz que esas referencias apunten a otro objeto, o cancela la eliminación"},
		{"NotFound", func() error {
			_, err := b.admin.Get(t.Context(), b.adam, layout.Floors, missing)
			return err
		}, booking.CodeObjectNotFound,
			"no floor with id " + missing.String(), "no se encuentra la planta con el id " + missing.String()},
		{"NotAnAdmin", func() error {
			_, err := b.admin.Get(t.Context(), b.alice, layout.Floors, bookingtest.FloorMadrid)
			return err
		}, booking.CodeForbidden,
			"only admins may manage the organization", "solo los administradores pueden gestionar la organización"},
		{"WrongType", func() error {
			_, _, err := b.admin.Put(t.Context(), b.adam, layout.Buildings, missing, []byte(`{"name": 3}`), "")
			return err
		}, booking.CodeInvalidRequest,
			"buildings[0]: buildings.name: expected a string, got JSON number",
			"buildings[0]: buildings.name: se esperaba una cadena y se ha recibido JSON number"},
		{"ImportField", func() error {
			_, err := b.admin.Import(t.Context(), layout.Layout{Buildings: []layout.LayoutBuilding{{
				ID: missing.String(), OrganizationID: org, Name: "X", Timezone: "Mars/Olympus"}}})
			return err
		}, booking.CodeInvalidRequest,
			`buildings[0].timezone: "Mars/Olympus" is not a known time zone`,
			`buildings[0].timezone: "Mars/Olympus" no es una zona horaria conocida`},
		{"Bulk", func() error {
			_, err := b.admin.ChangeResources(t.Context(), b.adam, nil, layout.ResourceChange{})
			return err
		}, booking.CodeInvalidRequest,
			"choose at least one desk or room", "elige al menos un puesto o una sala"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			bookingtest.WantCode(t, err, tc.code)
			var e *booking.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want a *booking.Error", err)
			}
			if e.Message != tc.english {
				t.Errorf("Message = %q\nwant      %q", e.Message, tc.english)
			}
			if got := e.In(es); got != tc.spanish {
				t.Errorf("In(es) = %q\nwant      %q", got, tc.spanish)
			}
		})
	}
}
