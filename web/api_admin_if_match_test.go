package web_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// staleTag is a tag that is no version of any object: what an admin holds after someone else deleted it.
const staleTag = `"0123456789abcdef0123456789abcdef"`

// adminObjectState is what GET answers for an object (its status, ETag and body) and how many entries
// the audit log holds for it.
type adminObjectState struct {
	Status int
	ETag   string
	Body   string
	Audits int
}

func (tb *testBundle) adminState(t *testing.T, id uuid.UUID) adminObjectState {
	t.Helper()
	r := tb.call(t, fx.Adam, http.MethodGet, adminPath("features", id), nil)
	s := adminObjectState{Status: r.status}
	if r.status == http.StatusOK {
		s.ETag, s.Body = r.header.Get("ETag"), string(r.body)
	}
	audit := tb.call(t, fx.Adam, http.MethodGet, api+"/admin/audit?limit=500&objectId="+id.String(), nil)
	wantStatus(t, audit, http.StatusOK)
	s.Audits = len(array(t, "entries", audit.object(t)["entries"]))
	return s
}

// TestAdminAPIIfMatch sends PUT and DELETE of a feature under each If-Match header: a write is made only
// while the header names the current version; a refused one changes nothing and records nothing.
func TestAdminAPIIfMatch(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	const precondition, unknown = http.StatusPreconditionFailed, http.StatusNotFound
	tests := []struct {
		name   string
		exists bool
		// ifMatch builds the If-Match field lines from the current ETag ("" for none).
		ifMatch             func(current string) []string
		wantPut, wantDelete int // the status, 200 (201 for a create) or 204 when the write is made
	}{
		{"ExistingCurrent", true, func(cur string) []string { return []string{cur} }, http.StatusOK, http.StatusNoContent},
		{"ExistingStale", true, func(string) []string { return []string{staleTag} }, precondition, precondition},
		{"ExistingListHoldingCurrent", true, func(cur string) []string { return []string{staleTag + ", " + cur} }, http.StatusOK, http.StatusNoContent},
		{"ExistingListWithoutCurrent", true, func(string) []string { return []string{staleTag + `, "ffff"`} }, precondition, precondition},
		// A list may come as several field lines (RFC 9110, 5.3): the current tag in the second one matches.
		{"ExistingCurrentInSecondLine", true, func(cur string) []string { return []string{staleTag, cur} }, http.StatusOK, http.StatusNoContent},
		{"ExistingStar", true, func(string) []string { return []string{"*"} }, http.StatusOK, http.StatusNoContent},
		// If-Match compares strongly (RFC 9110, 13.1.1): a weak tag never matches.
		{"ExistingWeakCurrent", true, func(cur string) []string { return []string{"W/" + cur} }, precondition, precondition},
		{"MissingWithout", false, func(string) []string { return nil }, http.StatusCreated, unknown},
		{"MissingTag", false, func(string) []string { return []string{staleTag} }, precondition, unknown},
		{"MissingStar", false, func(string) []string { return []string{"*"} }, precondition, unknown},
	}
	for _, tc := range tests {
		for _, method := range []string{http.MethodPut, http.MethodDelete} {
			t.Run(tc.name+"/"+method, func(t *testing.T) {
				id, cur := uuid.New(), ""
				if tc.exists {
					r := tb.call(t, fx.Adam, http.MethodPut, adminPath("features", id), map[string]any{"name": "Projector"})
					wantStatus(t, r, http.StatusCreated)
					cur = r.header.Get("ETag")
				}
				before := tb.adminState(t, id)
				req := tb.request(t, fx.Adam, method, adminPath("features", id), nil)
				if method == http.MethodPut {
					req = tb.request(t, fx.Adam, method, adminPath("features", id), map[string]any{"name": "Beamer"})
				}
				for _, v := range tc.ifMatch(cur) {
					req.Header.Add("If-Match", v)
				}
				r := tb.send(t, req)
				status, want := tc.wantPut, before
				if method == http.MethodDelete {
					status = tc.wantDelete
				}
				switch status {
				case precondition:
					wantProblem(t, r, status, booking.CodePreconditionFailed, noIndex)
				case unknown:
					wantProblem(t, r, status, booking.CodeObjectNotFound, noIndex)
				case http.StatusNoContent:
					wantStatus(t, r, status)
					want = adminObjectState{Status: unknown, Audits: before.Audits + 1}
				default:
					wantStatus(t, r, status)
					want = adminObjectState{Status: http.StatusOK, ETag: r.header.Get("ETag"), Body: string(r.body), Audits: before.Audits + 1}
					if want.ETag == cur {
						t.Errorf("ETag after a change = %s, the same as before", cur)
					}
				}
				if diff := cmp.Diff(want, tb.adminState(t, id)); diff != "" {
					t.Errorf("after %s (-want +got):\n%s", method, diff)
				}
			})
		}
	}
}
