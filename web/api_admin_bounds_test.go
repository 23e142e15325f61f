package web_test

import (
	"fmt"
	"maps"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestAdminAPIRuleDurations puts resource rules and services with durations out of bounds: negative,
// over 400 days, or too large for a 64-bit integer. Each is 400 2000 naming the field; nothing is saved.
func TestAdminAPIRuleDurations(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	const day = int64(86_400_000)
	for _, tc := range []struct {
		collection, field string
		value             string // JSON
	}{
		{"resourceRules", "maximumDuration", "-1"},
		{"resourceRules", "maximumDuration", fmt.Sprint(400*day + 1)},
		{"resourceRules", "maximumDuration", "9223372036854775807"},
		{"resourceRules", "maximumDuration", "9223372036854775808"},
		{"resourceRules", "maximumAdvance", fmt.Sprint(401 * day)},
		{"resourceRules", "maximumAdvance", "-9223372036854775808"},
		{"resourceRules", "advanceCheckIn", fmt.Sprint(400*day + 1)},
		{"resourceRules", "expirationMargin", "9223372036854775807"},
		{"reservables", "minimumCancellationMs", fmt.Sprint(400*day + 1)},
		{"reservables", "standardDeliveryTimeMs", "9223372036854775807"},
	} {
		t.Run(tc.field+"="+tc.value, func(t *testing.T) {
			id := uuid.New()
			body := fmt.Sprintf(`{"name": "Bounded", %q: %s}`, tc.field, tc.value)
			r := tb.call(t, fx.Adam, http.MethodPut, adminPath(tc.collection, id), body)
			wantDetail(t, wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex), tc.field)
			wantProblem(t, tb.call(t, fx.Adam, http.MethodGet, adminPath(tc.collection, id), nil), http.StatusNotFound, booking.CodeObjectNotFound, noIndex)
		})
	}
	t.Run("FourHundredDays", func(t *testing.T) {
		body := fmt.Sprintf(`{"name": "Long", "maximumDuration": %d, "maximumAdvance": %d}`, 400*day, 400*day)
		wantStatus(t, tb.call(t, fx.Adam, http.MethodPut, adminPath("resourceRules", uuid.New()), body), http.StatusCreated)
	})
}

// TestAdminAPIImageAddresses puts floors, resources and people with image addresses: only https URLs and
// the service's own /plans/ and /static/ paths are kept; anything else is 400 2000 naming the field.
func TestAdminAPIImageAddresses(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	objects := map[string]map[string]any{
		"floors": {"buildingId": fx.BuildingMadrid.String(), "name": "Floor 9", "floorNumber": 9},
		"resources": {"floorId": fx.FloorMadrid.String(), "subcategoryId": fx.SubDesk.String(), "resourceRuleId": fx.RuleDesk.String(),
			"name": "Desk 9", "posterCode": "MAD-D9"},
		"users": {"name": "Nora", "email": "nora@acme.test"},
	}
	refused := []string{"javascript:alert(1)", "JavaScript:alert(1)", "data:image/svg+xml,<svg/>", "http://example.com/a.png",
		"//evil.example/a.png", "floors/a.svg", "../static/a.svg", "/find", "https:/a.png", "https://", " https://example.com/a.png",
		"/static/../find", "/static/a\\b.svg", "https://example.com/a\n.png"}
	kept := []string{"https://example.com/a.png", "/static/floors/madrid-1.svg", "/plans/" + fx.FloorMadrid.String() + "/" + fmt.Sprintf("%064d", 0) + ".svg", ""}
	for collection, object := range objects {
		for _, image := range refused {
			t.Run(collection+"/"+image, func(t *testing.T) {
				id := uuid.New()
				body := maps.Clone(object)
				body["image"] = image
				r := tb.call(t, fx.Adam, http.MethodPut, adminPath(collection, id), body)
				wantDetail(t, wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex), collection+"[0].image")
				wantProblem(t, tb.call(t, fx.Adam, http.MethodGet, adminPath(collection, id), nil), http.StatusNotFound, booking.CodeObjectNotFound, noIndex)
			})
		}
		for i, image := range kept {
			t.Run(collection+"/kept/"+image, func(t *testing.T) {
				body := maps.Clone(object)
				body["image"] = image
				if collection != "floors" {
					body["posterCode"], body["email"] = fmt.Sprintf("MAD-K%d", i), fmt.Sprintf("nora%d@acme.test", i)
				}
				if collection == "floors" {
					body["floorNumber"] = 20 + i
				}
				if collection == "users" {
					delete(body, "posterCode")
				} else if collection == "resources" {
					delete(body, "email")
				}
				wantStatus(t, tb.call(t, fx.Adam, http.MethodPut, adminPath(collection, uuid.New()), body), http.StatusCreated)
			})
		}
	}
}
