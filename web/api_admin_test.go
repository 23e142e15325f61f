package web_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// adminPath returns the path of the admin API for a collection, and an object of it when id is given.
func adminPath(collection string, id ...uuid.UUID) string {
	p := api + "/admin/" + collection
	for _, i := range id {
		p += "/" + i.String()
	}
	return p
}

// ifMatch is the If-Match header with the tag.
func ifMatch(tag string) http.Header { return http.Header{"If-Match": {tag}} }

// adminObjects are a new object of each collection, the object the service answers for it (without id
// and organizationId), and a change to it.
var adminObjects = []struct {
	collection     string
	create, update map[string]any
	want           map[string]any
}{
	{"buildings", map[string]any{"name": "Lisbon", "address": map[string]any{"city": "Lisbon"}, "timezone": "Europe/Lisbon"},
		map[string]any{"name": "Lisboa", "address": map[string]any{}, "timezone": "Europe/Lisbon", "status": "DEACTIVATED"},
		map[string]any{"name": "Lisbon", "address": map[string]any{"city": "Lisbon"}, "timezone": "Europe/Lisbon", "status": "ACTIVATED", "visible": true}},
	{"floors", map[string]any{"buildingId": fx.BuildingMadrid.String(), "name": "Floor 9", "floorNumber": 9},
		map[string]any{"buildingId": fx.BuildingMadrid.String(), "name": "Floor 9", "floorNumber": 9, "visible": false},
		map[string]any{"buildingId": fx.BuildingMadrid.String(), "name": "Floor 9", "floorNumber": json.Number("9"), "status": "ACTIVATED", "type": "OFFICE", "visible": true}},
	{"subcategories", map[string]any{"name": "Booth", "category": "SPACE"}, map[string]any{"name": "Phone booth", "category": "SPACE"},
		map[string]any{"name": "Booth", "category": "SPACE", "deleteHistorial": false, "hideBookings": false, "canBeSearched": true, "shifts": false}},
	{"resourceRules", map[string]any{"name": "Short", "maximumDuration": 3600000}, map[string]any{"name": "Short", "maximumDuration": 7200000},
		map[string]any{"name": "Short", "advanceCheckIn": json.Number("0"), "expirationMargin": json.Number("0"), "startTime": json.Number("0"),
			"endTime": json.Number("86400000"), "maximumDuration": json.Number("3600000"), "maximumAdvance": json.Number("0"),
			"accessControlType": "ANY", "requiresApproval": false, "allDayBookings": false, "allDayBookingsCheckInMS": json.Number("0")}},
	{"features", map[string]any{"name": "Projector"}, map[string]any{"name": "Beamer"}, map[string]any{"name": "Projector"}},
	{"reservables", map[string]any{"name": "Flowers"}, map[string]any{"name": "Flowers", "allowComments": true},
		map[string]any{"name": "Flowers", "type": "SERVICE", "chooseQuantity": false, "chooseDeliveryTime": false, "allowComments": false,
			"minimumCancellationMs": json.Number("0"), "standardDeliveryTimeMs": json.Number("0")}},
	{"resources", map[string]any{"floorId": fx.FloorMadrid.String(), "subcategoryId": fx.SubDesk.String(), "resourceRuleId": fx.RuleDesk.String(),
		"name": "Desk 9", "posterCode": "MAD-D9", "featureIds": []any{fx.FeatureScreen.String()}},
		map[string]any{"floorId": fx.FloorMadrid.String(), "subcategoryId": fx.SubDesk.String(), "resourceRuleId": fx.RuleDesk.String(),
			"name": "Desk 9", "posterCode": "MAD-D9"},
		map[string]any{"floorId": fx.FloorMadrid.String(), "subcategoryId": fx.SubDesk.String(), "resourceRuleId": fx.RuleDesk.String(),
			"name": "Desk 9", "posterCode": "MAD-D9", "featureIds": []any{fx.FeatureScreen.String()},
			"approachable": true, "visible": true, "status": "ACTIVATED", "mapCoordinates": map[string]any{
				"topLeftX": json.Number("0"), "topLeftY": json.Number("0"), "bottomRightX": json.Number("0"), "bottomRightY": json.Number("0")}}},
	{"users", map[string]any{"name": "Nora", "email": "nora@acme.test"}, map[string]any{"name": "Nora", "email": "nora@acme.test", "role": "ADMIN"},
		map[string]any{"name": "Nora", "email": "nora@acme.test", "canBeSearched": true, "type": "SERVICE_INTERNAL", "userLanguage": "en", "role": "EMPLOYEE", "active": true}},
	{"closures", map[string]any{"floorId": fx.FloorNewYork.String(), "startDate": fx.At(5, 0, 0).UnixMilli(), "endDate": fx.At(6, 0, 0).UnixMilli(), "reason": "Painting"},
		map[string]any{"floorId": fx.FloorNewYork.String(), "startDate": fx.At(5, 0, 0).UnixMilli(), "endDate": fx.At(7, 0, 0).UnixMilli(), "reason": "Painting"},
		map[string]any{"floorId": fx.FloorNewYork.String(), "startDate": json.Number(fmt.Sprint(fx.At(5, 0, 0).UnixMilli())),
			"endDate": json.Number(fmt.Sprint(fx.At(6, 0, 0).UnixMilli())), "reason": "Painting"}},
}

// A closure that covers a booking is 409 4016 until it says what to do with it; CANCEL cancels it.
func TestAdminAPIClosureCoveringBookings(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	booked := aliceGoyaTomorrow(t, tb)
	id := uuid.New()
	closure := map[string]any{"resourceId": fx.RoomGoya.String(), "startDate": fx.At(1, 8, 0).UnixMilli(),
		"endDate": fx.At(1, 12, 0).UnixMilli(), "reason": "Leak"}
	r := tb.call(t, fx.Adam, http.MethodPut, adminPath("closures", id), closure)
	wantDetail(t, wantProblem(t, r, http.StatusConflict, booking.CodeClosureCoversBookings, noIndex), "covers 1 booking", "Goya", "CANCEL", "KEEP")
	wantProblem(t, tb.call(t, fx.Adam, http.MethodGet, adminPath("closures", id), nil), http.StatusNotFound, booking.CodeObjectNotFound, noIndex)

	closure["overlapping"] = "CANCEL"
	wantStatus(t, tb.call(t, fx.Adam, http.MethodPut, adminPath("closures", id), closure), http.StatusCreated)
	if n := fx.RowCount(t, tb.Bundle, "SELECT count(*) FROM bookings WHERE id = $1 AND status = 'CANCELLED'", booked); n != 1 {
		t.Errorf("the covered booking is not cancelled")
	}
	wantStatus(t, tb.call(t, fx.Adam, http.MethodDelete, adminPath("closures", id), nil), http.StatusNoContent)
}

func TestAdminAPIEveryCollection(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	for _, tc := range adminObjects {
		t.Run(tc.collection, func(t *testing.T) {
			id := uuid.New()
			path := adminPath(tc.collection, id)
			created := tb.call(t, fx.Adam, http.MethodPut, path, tc.create)
			wantStatus(t, created, http.StatusCreated)
			want := map[string]any{"id": id.String(), "organizationId": fx.OrgA.String()}
			for k, v := range tc.want {
				want[k] = v
			}
			if diff := cmp.Diff(want, created.object(t)); diff != "" {
				t.Errorf("PUT body (-want +got):\n%s", diff)
			}
			tag := created.header.Get("ETag")
			got := tb.call(t, fx.Adam, http.MethodGet, path, nil)
			wantStatus(t, got, http.StatusOK)
			if got.header.Get("ETag") != tag || !bytes.Equal(got.body, created.body) {
				t.Errorf("GET = %s %s, want %s %s", got.header.Get("ETag"), got.body, tag, created.body)
			}
			list := tb.call(t, fx.Adam, http.MethodGet, adminPath(tc.collection), nil)
			wantStatus(t, list, http.StatusOK)
			if !strings.Contains(string(list.body), string(created.body)) {
				t.Errorf("the list does not hold the object: %s", clip(list.body))
			}
			updated := tb.callWith(t, fx.Adam, http.MethodPut, path, tc.update, ifMatch(tag))
			wantStatus(t, updated, http.StatusOK)
			if updated.header.Get("ETag") == tag {
				t.Errorf("ETag after an update = %s, the same as before", tag)
			}
			audits := fx.TableCount(t, tb.Bundle, "admin_audit")
			stale := tb.callWith(t, fx.Adam, http.MethodPut, path, tc.create, ifMatch(tag))
			wantProblem(t, stale, http.StatusPreconditionFailed, booking.CodePreconditionFailed, noIndex)
			if now := tb.call(t, fx.Adam, http.MethodGet, path, nil); !bytes.Equal(now.body, updated.body) {
				t.Errorf("after a stale PUT the object is %s, want %s", now.body, updated.body)
			}
			if got := fx.TableCount(t, tb.Bundle, "admin_audit"); got != audits {
				t.Errorf("audit entries after a stale PUT = %d, want %d", got, audits)
			}
			stale = tb.callWith(t, fx.Adam, http.MethodDelete, path, nil, ifMatch(tag))
			wantProblem(t, stale, http.StatusPreconditionFailed, booking.CodePreconditionFailed, noIndex)
			wantStatus(t, tb.callWith(t, fx.Adam, http.MethodDelete, path, nil, ifMatch(updated.header.Get("ETag"))), http.StatusNoContent)
			wantProblem(t, tb.call(t, fx.Adam, http.MethodGet, path, nil), http.StatusNotFound, booking.CodeObjectNotFound, noIndex)
		})
	}
}

func TestAdminAPIDeleteReferenced(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	tests := []struct {
		collection string
		id         uuid.UUID
		words      []string
	}{
		{"buildings", fx.BuildingMadrid, []string{"floors", "DEACTIVATED"}},
		{"floors", fx.FloorMadrid, []string{"resources", "DEACTIVATED"}},
		{"resourceRules", fx.RuleRoom, []string{"resources"}},
		{"features", fx.FeatureWhiteboard, []string{"1 resource"}},
	}
	for _, tc := range tests {
		t.Run(tc.collection, func(t *testing.T) {
			r := tb.call(t, fx.Adam, http.MethodDelete, adminPath(tc.collection, tc.id), nil)
			wantDetail(t, wantProblem(t, r, http.StatusConflict, booking.CodeObjectInUse, noIndex), tc.words...)
			wantStatus(t, tb.call(t, fx.Adam, http.MethodGet, adminPath(tc.collection, tc.id), nil), http.StatusOK)
		})
	}
}

// TestAdminAPIValidationAsImport checks that PUT answers what `booking import` says of the same object.
func TestAdminAPIValidationAsImport(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	id := uuid.New()
	bad := layout.LayoutBuilding{ID: id.String(), OrganizationID: fx.OrgA.String(), Name: "Mars base", Timezone: "Mars/Olympus"}
	_, importErr := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Buildings: []layout.LayoutBuilding{bad}})
	var want *booking.Error
	if !errors.As(importErr, &want) {
		t.Fatalf("import: %v, want a refusal", importErr)
	}
	r := tb.call(t, fx.Adam, http.MethodPut, adminPath("buildings", id), bad)
	p := wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	if got := p["detail"]; got != want.Message {
		t.Errorf("detail = %q, want the import's %q", got, want.Message)
	}
	t.Run("BodyTooLarge", func(t *testing.T) {
		big := fmt.Sprintf(`{"name": %q}`, strings.Repeat("x", 1<<20))
		wantProblem(t, tb.call(t, fx.Adam, http.MethodPut, adminPath("features", id), big), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	})
	t.Run("UnknownCollection", func(t *testing.T) {
		wantProblem(t, tb.call(t, fx.Adam, http.MethodGet, adminPath("bookings"), nil), http.StatusNotFound, booking.CodeObjectNotFound, noIndex)
	})
	t.Run("Employee", func(t *testing.T) {
		r := tb.call(t, fx.Alice, http.MethodPut, adminPath("features", id), map[string]any{"name": "X"})
		wantProblem(t, r, http.StatusForbidden, booking.CodeForbidden, noIndex)
	})
}

func TestAdminAPIExportImportsUnchanged(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	first := tb.call(t, fx.Adam, http.MethodGet, api+"/admin/layout", nil)
	wantStatus(t, first, http.StatusOK)
	l, err := layout.DecodeLayout(bytes.NewReader(first.body))
	if err != nil {
		t.Fatalf("the export is not a layout document: %v", err)
	}
	if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), l); err != nil {
		t.Fatalf("import the export: %v", err)
	}
	second := tb.call(t, fx.Adam, http.MethodGet, api+"/admin/layout", nil)
	if diff := cmp.Diff(string(first.body), string(second.body)); diff != "" {
		t.Errorf("export after importing the export (-first +second):\n%s", diff)
	}
}

func TestAdminAPIAudit(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	id := uuid.New()
	created := tb.call(t, fx.Adam, http.MethodPut, adminPath("features", id), map[string]any{"name": "Projector"})
	updated := tb.call(t, fx.Adam, http.MethodPut, adminPath("features", id), map[string]any{"name": "Beamer"})
	r := tb.call(t, fx.Adam, http.MethodGet, api+"/admin/audit?limit=1&objectId="+id.String(), nil)
	wantStatus(t, r, http.StatusOK)
	page := r.object(t)
	entries := array(t, "entries", page["entries"])
	if len(entries) != 1 {
		t.Fatalf("entries = %d, want 1", len(entries))
	}
	e := wantKeys(t, "entries[0]", entries[0], "id", "at", "actor", "collection", "objectId", "action", "before", "after")
	want := map[string]any{
		"actor": map[string]any{"id": fx.Adam.String(), "name": "adam Adler"}, "collection": "features",
		"objectId": id.String(), "action": "UPDATE", "before": created.object(t), "after": updated.object(t),
	}
	delete(e, "id")
	delete(e, "at")
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("entry (-want +got):\n%s", diff)
	}
	cursor, _ := page["nextCursor"].(string)
	next := tb.call(t, fx.Adam, http.MethodGet, api+"/admin/audit?objectId="+id.String()+"&cursor="+cursor, nil)
	wantStatus(t, next, http.StatusOK)
	older := array(t, "entries", next.object(t)["entries"])
	if len(older) != 1 || older[0].(map[string]any)["action"] != "CREATE" {
		t.Errorf("next page = %s, want the creation", next.body)
	}
	wantProblem(t, tb.call(t, fx.Adam, http.MethodGet, api+"/admin/audit?limit=501", nil), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	wantProblem(t, tb.call(t, fx.Alice, http.MethodGet, api+"/admin/audit", nil), http.StatusForbidden, booking.CodeForbidden, noIndex)
}
