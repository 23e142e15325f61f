package web_test

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// createFeatures creates n features through the API, one audit entry each, and returns their ids in
// the order they were made.
func createFeatures(t *testing.T, tb *testBundle, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		id := uuid.New()
		wantStatus(t, tb.call(t, fx.Adam, http.MethodPut, adminPath("features", id), map[string]any{"name": "Feature " + id.String()[:8]}), http.StatusCreated)
		ids[i] = id.String()
	}
	return ids
}

// auditPage is one page of GET /admin/audit: its entries' ids and objects, and whether it has a
// nextCursor.
type auditPage struct {
	IDs     []int64
	Objects []string
	Next    bool
}

// getAuditPage reads the page of the audit log at query and returns it with its nextCursor.
func (tb *testBundle) getAuditPage(t *testing.T, query string) (auditPage, string) {
	t.Helper()
	r := tb.call(t, fx.Adam, http.MethodGet, api+"/admin/audit?"+query, nil)
	wantStatus(t, r, http.StatusOK)
	body := wantKeys(t, "page", r.object(t), "entries", "nextCursor")
	var p auditPage
	for _, e := range array(t, "entries", body["entries"]) {
		entry, _ := e.(map[string]any)
		p.IDs = append(p.IDs, integer(t, "entries[].id", entry["id"]))
		obj, _ := entry["objectId"].(string)
		p.Objects = append(p.Objects, obj)
	}
	next, _ := body["nextCursor"].(string)
	if body["nextCursor"] != nil && next == "" {
		t.Fatalf("nextCursor = %#v, want a string or null", body["nextCursor"])
	}
	p.Next = body["nextCursor"] != nil
	return p, next
}

// TestAdminAPIAuditPaging reads seven changes three at a time, following nextCursor: the pages hold the
// whole log once, newest first, as one page of 500 does, and the last page has no nextCursor.
func TestAdminAPIAuditPaging(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	created := createFeatures(t, tb, 7)
	all, _ := tb.getAuditPage(t, "limit=500")
	newestFirst := slices.Clone(created)
	slices.Reverse(newestFirst)
	if diff := cmp.Diff(newestFirst, all.Objects); diff != "" {
		t.Fatalf("the whole log's objects (-want +got):\n%s", diff)
	}
	want := []auditPage{
		{IDs: all.IDs[0:3], Objects: all.Objects[0:3], Next: true},
		{IDs: all.IDs[3:6], Objects: all.Objects[3:6], Next: true},
		{IDs: all.IDs[6:7], Objects: all.Objects[6:7]},
	}
	var got []auditPage
	for query := "limit=3"; query != "" && len(got) < 10; {
		p, next := tb.getAuditPage(t, query)
		got = append(got, p)
		query = ""
		if next != "" {
			query = "limit=3&cursor=" + next
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages of 3 (-want +got):\n%s", diff)
	}
}

// createFeaturesDirectly creates n features through the admin domain, without HTTP, one audit entry each.
func createFeaturesDirectly(t *testing.T, tb *testBundle, n int) {
	t.Helper()
	svc, adam := layout.New(tb.Pool, tb.Service), tb.User(t, fx.OrgA, fx.Adam)
	for range n {
		if _, _, err := svc.Put(t.Context(), adam, layout.Features, uuid.New(), []byte(`{"name": "X"}`), ""); err != nil {
			t.Fatalf("Put: %v", err)
		}
	}
}

// TestAdminAPIAuditLimit checks the bounds of limit, 1 to 500 (100 when left out), and of cursor.
func TestAdminAPIAuditLimit(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	createFeaturesDirectly(t, tb, 101)
	tests := []struct {
		query       string
		wantEntries int // -1 for 400 2000 naming the parameter
		wantNext    bool
	}{
		{"", 100, true},
		{"limit=", 100, true}, // empty is left out
		{"limit=1", 1, true},
		{"limit=101", 101, true},
		{"limit=500", 101, false},
		{"limit=0", -1, false},
		{"limit=-1", -1, false},
		{"limit=501", -1, false},
		{"limit=1.5", -1, false},
		{"cursor=0", -1, false},
		{"cursor=x", -1, false},
	}
	for _, tc := range tests {
		t.Run("?"+tc.query, func(t *testing.T) {
			if tc.wantEntries < 0 {
				r := tb.call(t, fx.Adam, http.MethodGet, api+"/admin/audit?"+tc.query, nil)
				field, _, _ := strings.Cut(tc.query, "=")
				wantDetail(t, wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex), field+":")
				return
			}
			p, _ := tb.getAuditPage(t, tc.query)
			if got := len(p.IDs); got != tc.wantEntries || p.Next != tc.wantNext {
				t.Errorf("entries = %d, nextCursor %v; want %d, %v", got, p.Next, tc.wantEntries, tc.wantNext)
			}
		})
	}
}

// TestAdminAPIAuditFilters reads the log of four changes of A, a second apart, and one of B, under each
// filter: filters combine, from is inclusive and to exclusive (ms), and B's change is never listed.
func TestAdminAPIAuditFilters(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for _, e := range []struct {
		org, object uuid.UUID
		actor       *uuid.UUID
		ms          int
		collection  string
		action      booking.AuditAction
	}{
		{fx.OrgA, fx.FeatureScreen, &fx.Adam, 0, "features", booking.AuditCreate},
		{fx.OrgA, fx.FeatureScreen, &fx.Adam, 1000, "features", booking.AuditUpdate},
		{fx.OrgB, fx.BuildingB, &fx.Boris, 1500, "features", booking.AuditUpdate},
		{fx.OrgA, fx.Bob, &fx.Rita, 2000, "users", booking.AuditUpdate},
		{fx.OrgA, fx.BuildingMadrid, nil, 3000, "buildings", booking.AuditDelete},
	} {
		tb.exec(t, `INSERT INTO admin_audit (organization_id, at, actor_id, collection, object_id, action) VALUES ($1, $2, $3, $4, $5, $6)`,
			e.org, t0.Add(time.Duration(e.ms)*time.Millisecond), e.actor, e.collection, e.object, string(e.action))
	}
	ms := func(d int) string { return strconv.FormatInt(t0.UnixMilli()+int64(d), 10) }
	const (
		created  = "0 features CREATE"
		updated  = "1000 features UPDATE"
		bob      = "2000 users UPDATE"
		building = "3000 buildings DELETE"
	)
	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{building, bob, updated, created}},
		{"collection=features", []string{updated, created}},
		{"collection=users", []string{bob}},
		{"objectId=" + fx.FeatureScreen.String(), []string{updated, created}},
		{"objectId=" + fx.BuildingB.String(), nil},
		{"actorId=" + fx.Adam.String(), []string{updated, created}},
		{"actorId=" + fx.Rita.String(), []string{bob}},
		{"actorId=" + fx.Boris.String(), nil},
		{"from=" + ms(1000), []string{building, bob, updated}},
		{"to=" + ms(2000), []string{updated, created}},
		{"from=" + ms(1000) + "&to=" + ms(3000), []string{bob, updated}},
		{"from=" + ms(1) + "&to=" + ms(1000), nil},
		{"collection=features&from=" + ms(1000), []string{updated}},
		{"collection=features&actorId=" + fx.Rita.String(), nil},
	}
	for _, tc := range tests {
		t.Run("?"+tc.query, func(t *testing.T) {
			r := tb.call(t, fx.Adam, http.MethodGet, api+"/admin/audit?"+tc.query, nil)
			wantStatus(t, r, http.StatusOK)
			var got []string
			for _, e := range array(t, "entries", r.object(t)["entries"]) {
				entry, _ := e.(map[string]any)
				got = append(got, fmt.Sprintf("%d %s %s", integer(t, "at", entry["at"])-t0.UnixMilli(), entry["collection"], entry["action"]))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
		})
	}
}
