package web_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// Names sort as people read them: "Desk B 2" before "Desk B 10", wherever a list, a select or the plan
// puts resources, kinds of space or buildings in order.
func TestPageNamesInNaturalOrder(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	svc, adam := layout.New(pb.Pool, pb.Service), pb.User(t, fx.OrgA, fx.Adam)
	put := func(c layout.Collection, doc map[string]any) {
		t.Helper()
		body, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.Put(t.Context(), adam, c, uuid.New(), body, ""); err != nil {
			t.Fatalf("put %s: %v", c, err)
		}
	}
	for i, name := range []string{"Desk B 10", "Desk B 2", "Desk B 1", "Desk 10 window", "Desk 9 window"} {
		put(layout.Resources, map[string]any{"floorId": fx.FloorMadrid, "subcategoryId": fx.SubDesk, "resourceRuleId": fx.RuleDesk,
			"name": name, "posterCode": "NAT-" + string(rune('A'+i)),
			"mapCoordinates": map[string]int{"topLeftX": 200 + 60*i, "topLeftY": 200, "bottomRightX": 250 + 60*i, "bottomRightY": 240}})
	}
	for _, name := range []string{"Pod 10", "Pod 2"} {
		put(layout.Subcategories, map[string]any{"name": name, "category": "WORKSTATION"})
	}
	desks := []string{"Desk 9 window", "Desk 10 window", "Desk B 1", "Desk B 2", "Desk B 10"}
	// ours keeps the names of the list made here, in the order they come.
	ours := func(names []string, of []string) []string {
		return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !slices.Contains(of, n) })
	}
	texts := func(s *goquery.Selection) []string {
		var out []string
		s.Each(func(_ int, e *goquery.Selection) { out = append(out, strings.TrimSpace(e.Text())) })
		return out
	}
	want := func(t *testing.T, where string, want, got []string) {
		t.Helper()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", where, diff)
		}
	}
	alice, adm := pb.signedIn(t, fx.Alice), pb.signedIn(t, fx.Adam)

	t.Run("FindList", func(t *testing.T) {
		p := alice.get(findPath("kind", "desk", "date", "2026-11-24", "from", "09:00", "to", "10:00"))
		p.wantStatus(t, http.StatusOK)
		free, _ := resultNames(p)
		want(t, "the find list", desks, ours(free, desks))
	})

	t.Run("PlanOrder", func(t *testing.T) {
		p := alice.get(planPath("kind", "desk"))
		p.wantStatus(t, http.StatusOK)
		var names []string
		p.doc.Find("svg a[aria-label]").Each(func(_ int, a *goquery.Selection) {
			label, _ := a.Attr("aria-label")
			names = append(names, strings.SplitN(label, ",", 2)[0])
		})
		want(t, "the plan's tab order", desks, ours(names, desks))
	})

	t.Run("AdminList", func(t *testing.T) {
		p := adm.get("/admin/resources")
		p.wantStatus(t, http.StatusOK)
		want(t, "the admin list", desks, ours(texts(p.doc.Find(`.admin-table tbody a[href^="/admin/resources/"]`)), desks))
	})

	t.Run("Selects", func(t *testing.T) {
		p := adm.get("/admin/closures")
		p.wantStatus(t, http.StatusOK)
		var targets []string
		for _, label := range texts(p.doc.Find("select[name=target] option")) {
			targets = append(targets, strings.TrimSuffix(label, " (Madrid HQ, madrid-1)"))
		}
		want(t, "the closures' select", desks, ours(targets, desks))

		kinds := adm.get("/admin/resources/new")
		kinds.wantStatus(t, http.StatusOK)
		pods := []string{"Pod 2 (desk)", "Pod 10 (desk)"}
		want(t, "the kind select", pods, ours(texts(kinds.doc.Find("#subcategory option")), pods))
	})
}
