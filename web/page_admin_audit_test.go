package web_test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/console"
	"github.com/workspacebooking/booking/web/layout"
)

// The audit log page: every admin change, in words, filtered and paged; only admins read it.

// changeRule saves the fixture's approval rule with a new longest booking, as an admin's form does.
func changeRule(t *testing.T, b *browser, hours int) {
	t.Helper()
	etag := b.get("/admin/rules").attr(ruleForm(fx.RuleApproval)+` input[name=etag]`, "value")
	v := ruleValues(etag)
	v.Set("maxHours", strconv.Itoa(hours))
	b.hxPost("/admin/rules/"+fx.RuleApproval.String(), v).wantStatus(t, http.StatusOK)
}

func TestPageAdminAudit(t *testing.T) {
	t.Parallel()

	t.Run("AChangeFieldByField", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		changeRule(t, b, 2)
		p := b.get("/admin/audit")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Audit log")
		if got := p.count(".audit-entry"); got != 1 {
			t.Fatalf("entries = %d, want 1: %s", got, p.text("main"))
		}
		p.wantText(t, ".audit-entry", time.Now().In(fx.Madrid).Format("Mon 2 Jan 2006"), "adam Adler", "Rule of Boardroom",
			"Changed", "Longest booking", "4 h", "2 h")
		p.wantText(t, ".audit-entry .diff del", "4 h")
		p.wantText(t, ".audit-entry .diff ins", "2 h")
		if got := p.count(".audit-entry .diff dt"); got != 1 {
			t.Errorf("fields shown = %d (%s), want only the one that changed", got, p.text(".diff"))
		}
		p.wantText(t, ".audit-filters", "Dates are days in Madrid time.")
	})

	t.Run("Filters", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		changeRule(t, b, 2)
		// The log's times are the database's, not the fixture's clock.
		now := time.Now().In(fx.Madrid)
		today, tomorrow, yesterday := now.Format(time.DateOnly), now.AddDate(0, 0, 1).Format(time.DateOnly), now.AddDate(0, 0, -1).Format(time.DateOnly)
		etag := b.get("/admin/people").attr(personRow(fx.Bob)+" input[name=etag]", "value")
		b.hxPost("/admin/people/"+fx.Bob.String(), personValues(etag, "bob", "Baker", "bob@acme.test", "RECEPTIONIST", "")).wantStatus(t, http.StatusOK)
		for _, tc := range []struct {
			query string
			want  int
		}{
			{"", 2},
			{"collection=users", 1},
			{"collection=resourceRules", 1},
			{"collection=buildings", 0},
			{"object=" + fx.Bob.String(), 1},
			{"person=" + fx.Adam.String(), 2},
			{"person=" + fx.Rita.String(), 0},
			{"from=" + today + "&to=" + today, 2},
			{"from=" + tomorrow, 0},
			{"to=" + yesterday, 0},
		} {
			p := b.get("/admin/audit?" + tc.query)
			p.wantStatus(t, http.StatusOK)
			if got := p.count(".audit-entry"); got != tc.want {
				t.Errorf("?%s: %d entries, want %d", tc.query, got, tc.want)
			}
		}
		b.get("/admin/audit?collection=users").wantText(t, ".audit-entry", "Person", "bob Baker", "Role", "Employee", "Receptionist")
	})

	t.Run("BadFiltersInWords", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		for q, want := range map[string]string{
			"collection=secrets":            "What: choose one of the list.",
			"from=yesterday":                "From: choose a date.",
			"from=2026-11-24&to=2026-11-23": "Until must be on or after From.",
			"object=nope":                   "Object: this address names no object",
			"before=x":                      "This address for older changes is incomplete",
		} {
			p := b.get("/admin/audit?" + q)
			p.wantStatus(t, http.StatusBadRequest)
			p.wantText(t, "[role=alert]", want)
		}
	})

	t.Run("PagedNewestFirst", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		for i := range 51 {
			id := uuid.NewString()
			b.post("/admin/catalogue/features/"+id, url.Values{"name": {"Feature " + strconv.Itoa(i)}}).wantStatus(t, http.StatusOK)
		}
		p := b.get("/admin/audit")
		if got := p.count(".audit-entry"); got != 50 {
			t.Fatalf("first page = %d entries, want 50", got)
		}
		p.wantText(t, ".audit-entry:first-child", "Feature 50", "Created")
		next := b.hxGet(p.attr(".more a", "hx-get"))
		next.wantStatus(t, http.StatusOK)
		// The answer is table rows alone, which an HTML parser drops outside a table: read the markup.
		if got := strings.Count(next.body, `<tr class="audit-entry"`); got != 1 || strings.Contains(next.body, `class="more"`) ||
			strings.Contains(next.body, "<header") {
			t.Errorf("next page = %d rows, want the oldest alone: %s", got, next.body)
		}
		if !strings.Contains(next.body, "Feature 0") {
			t.Errorf("next page lacks the oldest change: %s", next.body)
		}
	})

	t.Run("OlderChangesKeepTheFilters", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		changeRule(t, b, 2) // the oldest change, which the filter leaves out
		svc, adam := layout.New(pb.Pool, pb.Service), pb.User(t, fx.OrgA, fx.Adam)
		for range console.AuditPageSize + 1 {
			if _, _, err := svc.Put(t.Context(), adam, layout.Features, uuid.New(), []byte(`{"name": "Lamp"}`), ""); err != nil {
				t.Fatal(err)
			}
		}
		today := time.Now().In(fx.Madrid).Format(time.DateOnly)
		filters := url.Values{"collection": {"features"}, "person": {fx.Adam.String()}, "from": {today}, "to": {today}}
		p := b.get("/admin/audit?" + filters.Encode())
		p.wantStatus(t, http.StatusOK)
		more, err := url.Parse(p.attr(".more a", "hx-get"))
		if err != nil || more.Path != "/admin/audit" {
			t.Fatalf("link to older changes = %q, want /admin/audit?…", p.attr(".more a", "hx-get"))
		}
		got := more.Query()
		if got.Get("before") == "" {
			t.Errorf("link to older changes %s has no cursor", more)
		}
		got.Del("before")
		if diff := cmp.Diff(filters, got); diff != "" {
			t.Errorf("filters of the link to older changes (-want +got):\n%s", diff)
		}
		next := b.hxGet(more.String())
		next.wantStatus(t, http.StatusOK)
		if got := strings.Count(next.body, `<tr class="audit-entry"`); got != 1 || strings.Contains(next.body, "Rule") {
			t.Errorf("next page = %d rows, want the oldest feature alone: %s", got, next.body)
		}
	})

	t.Run("OthersAre403AndSeeNothingOfAnotherOrganization", func(t *testing.T) {
		pb := setupPages(t)
		changeRule(t, pb.signedIn(t, fx.Adam), 2)
		p := pb.signedIn(t, fx.Rita).get("/admin/audit")
		p.wantStatus(t, http.StatusForbidden)
		p.wantText(t, "main", "Only an admin of the organization can change its settings.")
		if p.count(".audit-entry") != 0 {
			t.Errorf("a receptionist reads the audit log")
		}
		// An object of another organization has no history here.
		pb.signedIn(t, fx.Adam).get("/admin/audit?object="+fx.RuleB.String()).wantText(t, "main", "No changes match these filters.")
	})
}

// TestBrowserAdminSettings drives the rules, people, audit, catalogue, closures and identity pages in
// Chromium at a phone's, a tablet's and a desktop's size: the rule's sentence follows what the admin
// types, and axe finds no serious problem. With ADMIN_SCREENS set to a directory, it saves a screenshot of each page there.
func TestBrowserAdminSettings(t *testing.T) {
	t.Parallel()
	chromiumPath(t)
	pb := setupPages(t)
	// Changes, so that the audit log shows a column of History links one above the other, which axe
	// checks for their size (target-size).
	adam := pb.signedIn(t, fx.Adam)
	for hours := 9; hours >= 2; hours-- { // ending at 2 hours, which the test starts from
		changeRule(t, adam, hours)
	}
	dir := os.Getenv("ADMIN_SCREENS")
	for _, size := range []struct {
		name string
		w, h int
	}{{"phone", 390, 844}, {"tablet", 820, 1180}, {"desktop", 1440, 900}} {
		t.Run(size.name, func(t *testing.T) {
			b := newTabSized(t, pb.srv.URL, size.w, size.h)
			var ce consoleErrors
			ce.listen(b)
			kioskBrowserSignIn(b, fx.Adam, "/admin/rules")
			b.waitText("h1", "Rules")
			form := ruleForm(fx.RuleApproval)
			b.do(chromedp.SetValue(chromedp.CSS(form+" input[name=maxMinutes]"), ""),
				chromedp.SendKeys(chromedp.CSS(form+" input[name=maxMinutes]"), "45"))
			b.waitText(form+" .rule-sentence", "at most 2 h 45 min")
			b.axe("admin rules " + size.name)
			_, _ = chromedp.Run(b.ctx, chromedp.Evaluate[bool](`window.scrollTo(0, 0); true`))
			shot(t, b, dir, "rules-"+size.name)
			for _, page := range []string{"people", "audit", "catalogue", "closures", "identity"} {
				b.open("/admin/" + page)
				b.waitLoaded()
				b.axe("admin " + page + " " + size.name)
				if page == "audit" {
					// Each History link is a target of at least 24 × 24 px (WCAG 2.2 target size), also in a column.
					small, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`[...document.querySelectorAll(".audit-history")]
						.filter(a => { const r = a.getBoundingClientRect(); return r.height < 24 || r.width < 24 }).length`))
					if n, _ := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll(".audit-history").length`)); err != nil || small > 0 || n < 8 {
						t.Errorf("%d of %d History links are smaller than 24 × 24 px (%v)", small, n, err)
					}
				}
				shot(t, b, dir, page+"-"+size.name)
			}
			if errs := ce.take(); len(errs) > 0 {
				t.Errorf("the pages reported errors: %v", errs)
			}
		})
	}
}

// shot saves the whole page as dir/name.png, when dir is set.
func shot(t *testing.T, b *tab, dir, name string) {
	t.Helper()
	if dir == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
