package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// Every admin form confirms a save beside the object it saved, on the answer the person sees: with htmx,
// the page once the answer is swapped in; without, the page the form redirects to. The new or changed
// object is in its list, and an add form is empty again.

// swapped returns the page as a person sees it once htmx has swapped in the answer to the form: the
// answer replaces the form's target (hx-target, or the answer's HX-Retarget) as hx-swap (or HX-Reswap)
// says. An answer that swaps nothing, such as a 204 that sends the browser elsewhere, fails the test.
func (p htmlPage) swapped(t *testing.T, form string, answer htmlPage) htmlPage {
	t.Helper()
	if loc := answer.header.Get("HX-Redirect"); loc != "" || answer.status == http.StatusNoContent {
		t.Fatalf("the answer (status %d, HX-Redirect %q) shows nothing where the person is", answer.status, loc)
	}
	f := p.doc.Find(form)
	if f.Length() != 1 {
		t.Fatalf("%d forms match %q", f.Length(), form)
	}
	target := f
	sel := answer.header.Get("HX-Retarget")
	if sel == "" {
		sel, _ = f.Attr("hx-target")
	}
	switch {
	case sel == "" || sel == "this":
	case strings.HasPrefix(sel, "closest "):
		target = f.Closest(strings.TrimPrefix(sel, "closest "))
	default:
		target = p.doc.Find(sel)
	}
	if target.Length() != 1 {
		t.Fatalf("the answer's target %q matches %d elements of the page", sel, target.Length())
	}
	content, err := answer.doc.Find("body").Html()
	if err != nil {
		t.Fatal(err)
	}
	if pick := answer.header.Get("HX-Reselect"); pick != "" || f.AttrOr("hx-select", "") != "" {
		if pick == "" {
			pick = f.AttrOr("hx-select", "")
		}
		if content, err = goquery.OuterHtml(answer.doc.Find(pick)); err != nil {
			t.Fatal(err)
		}
	}
	how := answer.header.Get("HX-Reswap")
	if how == "" {
		how = f.AttrOr("hx-swap", "innerHTML")
	}
	switch how {
	case "outerHTML":
		target.ReplaceWithHtml(content)
	case "innerHTML":
		target.SetHtml(content)
	default:
		t.Fatalf("swap %q is not one this test knows", how)
	}
	html, err := goquery.OuterHtml(p.doc.Selection)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		t.Fatal(err)
	}
	return htmlPage{status: answer.status, header: answer.header, url: p.url, body: html, doc: doc}
}

// wantConfirmed fails the test unless object is on the page once and holds a confirmation, which a
// script can focus, with every part.
func (p htmlPage) wantConfirmed(t *testing.T, object string, parts ...string) {
	t.Helper()
	if n := p.count(object); n != 1 {
		t.Fatalf("%d elements match %s; page: %s", n, object, p.text("main"))
	}
	status := object + " [role=status]"
	if p.count(status) != 1 {
		t.Fatalf("%s holds %d confirmations, want 1; the page says: %s", object, p.count(status), p.text("main [role=status]"))
	}
	p.wantText(t, status, parts...)
	if got := p.attr(status, "tabindex"); got != "-1" {
		t.Errorf("the confirmation's tabindex = %q, want -1 (focusable by the page's script)", got)
	}
}

// personRowOf returns the CSS selector of the row of the person with the e-mail address on the page.
func personRowOf(t *testing.T, p htmlPage, email string) string {
	t.Helper()
	var id string
	p.doc.Find(".person-row").Each(func(_ int, s *goquery.Selection) {
		if strings.Contains(s.Find(".person-who").Text(), email) {
			id = s.AttrOr("id", "")
		}
	})
	if id == "" {
		t.Fatalf("no row of %s in %q", email, p.text("#people"))
	}
	return "#" + id
}

func TestAdminFormsConfirmBesideTheObject(t *testing.T) {
	t.Parallel()

	t.Run("RuleAddedWithHTMX", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		page := b.get("/admin/rules")
		form := ".add-new form"
		action := page.attr(form, "hx-post")
		v := ruleValues("")
		v.Set("name", "Phone booths")
		v.Set("maxHours", "1")
		seen := page.swapped(t, form, b.hxPost(action, v))
		rule := "#rule-" + strings.TrimPrefix(action, "/admin/rules/")
		seen.wantConfirmed(t, rule, "Added the rule “Phone booths”.", "at most 1 h")
		seen.wantText(t, "#rules "+rule+" h2", "Phone booths")
		seen.wantText(t, rule, "No desk or room uses this rule yet.")
		if got := seen.attr(form, "action"); got == action || seen.attr(form+" input[name=name]", "value") != "" {
			t.Errorf("the add form after adding: action %s, name %q; want a new, empty one", got, seen.attr(form+" input[name=name]", "value"))
		}
	})

	t.Run("RuleSavedWithHTMX", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		page := b.get("/admin/rules")
		form := ruleForm(fx.RuleApproval)
		v := ruleValues(page.attr(form+" input[name=etag]", "value"))
		v.Set("name", "Boardroom hours")
		seen := page.swapped(t, form, b.hxPost(page.attr(form, "hx-post"), v))
		seen.wantConfirmed(t, form, "Saved the rule “Boardroom hours”.")
		seen.wantText(t, "#rules "+form+" h2", "Boardroom hours")
	})

	t.Run("RuleAddedWithoutJavaScript", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		action := b.get("/admin/rules").attr(".add-new form", "action")
		v := ruleValues("")
		v.Set("name", "Phone booths")
		p := b.post(action, v)
		p.wantStatus(t, http.StatusOK)
		rule := "#rule-" + strings.TrimPrefix(action, "/admin/rules/")
		p.wantConfirmed(t, rule, "Added the rule “Phone booths”.")
		p.wantText(t, rule+" h2", "Phone booths")
		if p.attr(".add-new form", "action") == action || p.attr(".add-new form input[name=name]", "value") != "" {
			t.Errorf("the add form after adding is not a new, empty one")
		}
	})

	for _, tc := range []struct {
		coll, name string
		values     url.Values
		summary    string
	}{
		{"subcategories", "Phone booth", url.Values{"category": {"SPACE"}, "searchable": {"on"}}, "Rooms"},
		{"features", "Standing desk", url.Values{"email": {"facilities@acme.test"}}, "facilities@acme.test"},
		{"reservables", "Breakfast", url.Values{"chooseQuantity": {"on"}, "cancelHours": {"12"}}, "Choose quantity · cancel 12 h ahead"},
	} {
		t.Run("CatalogueAddedWithHTMX/"+tc.coll, func(t *testing.T) {
			pb := setupPages(t)
			b := pb.signedIn(t, fx.Adam)
			page := b.get("/admin/catalogue")
			form := "#" + tc.coll + " .add-new form"
			action := page.attr(form, "hx-post")
			v := url.Values{"etag": {""}, "name": {tc.name}}
			for k, vs := range tc.values {
				v[k] = vs
			}
			seen := page.swapped(t, form, b.hxPost(action, v))
			item := "#" + tc.coll + "-" + strings.TrimPrefix(action, "/admin/catalogue/"+tc.coll+"/")
			seen.wantConfirmed(t, item, "Added “"+tc.name+"”.")
			seen.wantText(t, "#"+tc.coll+" .admin-list "+item+" summary", tc.name, tc.summary)
			if seen.attr(form, "action") == action || seen.attr(form+" input[name=name]", "value") != "" {
				t.Errorf("the add form after adding is not a new, empty one")
			}
		})
	}

	t.Run("CatalogueSavedWithHTMX", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		page := b.get("/admin/catalogue")
		item := "#features-" + fx.FeatureWhiteboard.String()
		form := item + " form"
		v := url.Values{"etag": {page.attr(form+" input[name=etag]", "value")}, "name": {"Big whiteboard"}}
		seen := page.swapped(t, form, b.hxPost(page.attr(form, "hx-post"), v))
		seen.wantConfirmed(t, item, "Saved “Big whiteboard”.")
		seen.wantText(t, "#features .admin-list "+item+" summary", "Big whiteboard")
	})

	t.Run("CatalogueAddedWithoutJavaScript", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		action := b.get("/admin/catalogue").attr("#features .add-new form", "action")
		p := b.post(action, url.Values{"etag": {""}, "name": {"Standing desk"}})
		p.wantStatus(t, http.StatusOK)
		item := "#features-" + strings.TrimPrefix(action, "/admin/catalogue/features/")
		p.wantConfirmed(t, item, "Added “Standing desk”.")
		p.wantText(t, "#features .admin-list "+item+" summary", "Standing desk")
	})

	t.Run("PersonAddedWithHTMX", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		page := b.get("/admin/people")
		form := ".add-person form"
		seen := page.swapped(t, form, b.hxPost(page.attr(form, "hx-post"), personValues("", "zoe", "Zeta", "zoe@acme.test", "RECEPTIONIST", "es")))
		row := personRowOf(t, seen, "zoe@acme.test")
		seen.wantConfirmed(t, row, "Added zoe Zeta as receptionist.")
		seen.wantText(t, "#people "+row, "zoe Zeta", "Receptionist", "Spanish (español)")
		if seen.attr(form+" input[name=name]", "value") != "" || seen.count(".add-person[open]") != 0 {
			t.Errorf("the add form after adding is not closed and empty")
		}
	})

	t.Run("PersonRefusedWithHTMX", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		page := b.get("/admin/people")
		form := ".add-person form"
		answer := b.hxPost(page.attr(form, "hx-post"), personValues("", "zoe", "", "not-an-address", "EMPLOYEE", "en"))
		answer.wantStatus(t, http.StatusBadRequest)
		seen := page.swapped(t, form, answer)
		seen.wantText(t, ".add-person[open] [role=alert]", "Please check the form", "E-mail: \"not-an-address\" is not an e-mail address.")
		if got := seen.attr(form+" input[name=name]", "value"); got != "zoe" {
			t.Errorf("name after the refusal = %q, want what was typed", got)
		}
		if seen.count(".add-person") != 1 || seen.count(".person-row") != 4 {
			t.Errorf("after the refusal the page has %d add forms and %d people, want 1 and 4", seen.count(".add-person"), seen.count(".person-row"))
		}
	})

	t.Run("PersonSavedWithHTMX", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		page := b.get("/admin/people")
		row := personRow(fx.Bob)
		form := row + " form.admin-form"
		v := personValues(page.attr(form+" input[name=etag]", "value"), "bob", "Baker", "bob@acme.test", "ADMIN", "fr")
		seen := page.swapped(t, form, b.hxPost(page.attr(form, "hx-post"), v))
		seen.wantConfirmed(t, row, "Saved bob Baker: Admin, French (français).")
		seen.wantText(t, "#people "+row+" .person-tags", "Admin", "French")
	})

	t.Run("PersonAddedWithoutJavaScript", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		p := b.post("/admin/people", personValues("", "zoe", "Zeta", "zoe@acme.test", "RECEPTIONIST", "es"))
		p.wantStatus(t, http.StatusOK)
		row := personRowOf(t, p, "zoe@acme.test")
		p.wantConfirmed(t, row, "Added zoe Zeta as receptionist.")
		if p.attr(".add-person input[name=name]", "value") != "" {
			t.Errorf("the add form after adding is not empty")
		}
	})

	t.Run("ClosureAdded", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		form := closureValues("resource:"+fx.RoomGoya.String(), "2026-11-25T09:00", "2026-11-25T12:00", "Painting")
		p := b.post("/admin/closures", form)
		p.wantStatus(t, http.StatusOK)
		row := "#closure-" + form.Get("id")
		p.wantConfirmed(t, row, "Saved: Goya", "is closed from 09:00 to 12:00 Madrid time on Wed 25 Nov: Painting.")
		p.wantText(t, "#closures "+row, "Goya", "Painting")
		if p.attr("#closure-reason", "value") != "" || p.attr(".add-closure input[name=id]", "value") == form.Get("id") {
			t.Errorf("the closure form after saving is not a new, empty one")
		}
	})

	t.Run("LayoutObjectsAddedAndSaved", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		// Each form redirects to the object's own page, which shows the object whole with the confirmation
		// at the top of its form.
		confirmed := func(p htmlPage, name string, parts ...string) {
			t.Helper()
			p.wantStatus(t, http.StatusOK)
			p.wantText(t, "main h1", name)
			p.wantConfirmed(t, "form.admin-form", parts...)
			if got := p.attr("form.admin-form input[name=name]", "value"); got != name {
				t.Errorf("the form shows the name %q, want %q", got, name)
			}
		}
		p := b.post("/admin/buildings", url.Values{"name": {"Lisbon Office"}, "timezone": {"Europe/Lisbon"}, "status": {"ACTIVATED"}, "visible": {"true"}})
		confirmed(p, "Lisbon Office", "Added.", "Lisbon Office")
		building := strings.TrimPrefix(p.url.Path, "/admin/buildings/")
		p = b.post("/admin/buildings/"+building, url.Values{"etag": {p.attr("input[name=etag]", "value")}, "name": {"Lisbon HQ"},
			"timezone": {"Europe/Lisbon"}, "status": {"ACTIVATED"}, "visible": {"true"}})
		confirmed(p, "Lisbon HQ", "Saved.", "Lisbon HQ")
		b.get("/admin/buildings").wantText(t, ".admin-list", "Lisbon HQ")

		p = b.post("/admin/floors", url.Values{"building": {building}, "number": {"2"}, "name": {"Second floor"}, "status": {"ACTIVATED"}})
		confirmed(p, "Second floor", "Added.", "Second floor")
		floor := strings.TrimPrefix(p.url.Path, "/admin/floors/")
		p = b.post("/admin/floors/"+floor, url.Values{"etag": {p.attr("input[name=etag]", "value")}, "building": {building},
			"number": {"2"}, "name": {"Floor two"}, "status": {"ACTIVATED"}})
		confirmed(p, "Floor two", "Saved.", "Floor two")
		b.get("/admin/floors").wantText(t, ".admin-list", "Floor two")

		desk := url.Values{"subcategory": {fx.SubDesk.String()}, "floor": {floor}, "rule": {fx.RuleDesk.String()},
			"name": {"Desk 9"}, "posterCode": {"LIS-D9"}, "status": {"ACTIVATED"}, "visible": {"true"}, "approachable": {"true"},
			"x1": {"0"}, "y1": {"0"}, "x2": {"40"}, "y2": {"40"}}
		p = b.post("/admin/resources", desk)
		confirmed(p, "Desk 9", "Added.", "Desk 9")
		resource := strings.TrimPrefix(p.url.Path, "/admin/resources/")
		desk.Set("etag", p.attr("input[name=etag]", "value"))
		desk.Set("name", "Window desk")
		p = b.post("/admin/resources/"+resource, desk)
		confirmed(p, "Window desk", "Saved.", "Window desk")
		b.get("/admin/resources?floor="+floor).wantText(t, ".admin-table", "Window desk")
		if _, err := uuid.Parse(resource); err != nil {
			t.Errorf("after adding the desk at %s, want its page", p.url)
		}
	})
}
