package web_test

import (
	"fmt"
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
