package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// The rules and catalogue pages of the office settings: a form per object, saved with its ETag, every
// value in words and units.

// ruleForm returns the CSS selector of a rule's form.
func ruleForm(id uuid.UUID) string { return "#rule-" + id.String() }

// ruleValues are the form values of the fixture's RuleApproval, as its form shows them.
func ruleValues(etag string) url.Values {
	return url.Values{"etag": {etag}, "name": {""}, "from": {"08:00"}, "until": {"20:00"},
		"maxHours": {"4"}, "maxMinutes": {"0"}, "aheadDays": {"30"}, "aheadHours": {"0"},
		"checkInBefore": {"10"}, "checkInAfter": {"15"}, "approval": {"on"}, "accessControlType": {"ANY"}}
}

// TestPageAdminRules checks the rules page: each rule in words, who uses it, and who may see it.
func TestPageAdminRules(t *testing.T) {
	t.Parallel()

	t.Run("EachRuleInWordsWithItsResources", func(t *testing.T) {
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Adam).get("/admin/rules")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Rules")
		p.wantText(t, ruleForm(fx.RuleApproval)+" .rule-sentence",
			"Bookable 08:00–20:00 Madrid time, at most 4 h, up to 30 days ahead; check in from 10 min before to 15 min after the start; needs approval.")
		p.wantText(t, ruleForm(fx.RuleRoom)+" .rule-sentence", "Bookable 08:00–20:00 local time (Madrid, New York)")
		p.wantText(t, ruleForm(fx.RuleDesk)+" .rule-sentence",
			"Bookable around the clock, for any length, any time ahead; check in from the start until the end; whole-day bookings allowed, check in by 11:00.")
		p.wantText(t, ruleForm(fx.RuleApproval)+" .rule-users", "Boardroom")
		if got := p.attr(ruleForm(fx.RuleApproval)+` .rule-users a`, "href"); got != "/admin/resources/"+fx.RoomBoard.String() {
			t.Errorf("resource link = %q", got)
		}
		for field, want := range map[string]string{"from": "08:00", "until": "20:00", "maxHours": "4", "maxMinutes": "0",
			"aheadDays": "30", "checkInBefore": "10", "checkInAfter": "15"} {
			if got := p.attr(ruleForm(fx.RuleApproval)+` input[name=`+field+`]`, "value"); got != want {
				t.Errorf("%s = %q, want %q", field, got, want)
			}
		}
		if p.count(ruleForm(fx.RuleB)) != 0 {
			t.Errorf("another organization's rule is shown")
		}
		if got := p.attr(`.admin-nav a[href="/admin/rules"]`, "aria-current"); got != "page" {
			t.Errorf("Rules link aria-current = %q, want page", got)
		}
	})

	t.Run("SentenceAsTheAdminTypes", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		v := ruleValues("")
		v.Set("maxHours", "1")
		v.Set("maxMinutes", "30")
		v.Del("approval")
		p := b.hxPost("/admin/rules/"+fx.RuleApproval.String()+"/sentence", v)
		p.wantStatus(t, http.StatusOK)
		if got, want := p.text("body"), "Bookable 08:00–20:00 Madrid time, at most 1 h 30 min, up to 30 days ahead; check in from 10 min before to 15 min after the start."; got != want {
			t.Errorf("sentence = %q, want %q", got, want)
		}
		v.Set("until", "07:00")
		p = b.hxPost("/admin/rules/"+fx.RuleApproval.String()+"/sentence", v)
		p.wantText(t, ".sentence-problem", "Until must be later than From")
		// A rule nothing uses yet is read in local time.
		p = b.hxPost("/admin/rules/"+uuid.NewString()+"/sentence", ruleValues(""))
		p.wantText(t, "body", "Bookable 08:00–20:00 local time")
	})

	t.Run("SaveWithHTMX", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		etag := b.get("/admin/rules").attr(ruleForm(fx.RuleApproval)+` input[name=etag]`, "value")
		v := ruleValues(etag)
		v.Set("maxHours", "2")
		p := b.hxPost("/admin/rules/"+fx.RuleApproval.String(), v)
		p.wantStatus(t, http.StatusOK)
		if p.count("header.top") != 0 || p.count("form"+ruleForm(fx.RuleApproval)) != 1 {
			t.Fatalf("htmx answer is not the form alone: %s", p.body)
		}
		p.wantText(t, ruleForm(fx.RuleApproval)+" [role=status]", "Saved the rule without a name. Bookable 08:00–20:00 Madrid time, at most 2 h")
		if got := p.attr(`input[name=etag]`, "value"); got == etag || got == "" {
			t.Errorf("etag after saving = %q, want a new one", got)
		}
		b.get("/admin/rules").wantText(t, ruleForm(fx.RuleApproval)+" .rule-sentence", "at most 2 h")
		// The rule is in force for bookings: 3 h in the Boardroom is now too long.
		alice := pb.mbUser(t, fx.Alice)
		_, err := pb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: alice, Organizer: alice,
			Category: booking.CategorySpace, Bookings: []booking.NewBooking{fx.Request(fx.RoomBoard, fx.At(1, 9, 0), fx.At(1, 12, 0))}})
		if err == nil {
			t.Errorf("a 3 h booking passed a rule of at most 2 h")
		}
	})

	t.Run("SaveEveryField", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		id := uuid.New()
		v := url.Values{"etag": {""}, "name": {"Late desks"}, "from": {"07:30"}, "until": {"22:15"},
			"maxHours": {"3"}, "maxMinutes": {"20"}, "aheadDays": {"2"}, "aheadHours": {"5"},
			"checkInBefore": {"12"}, "checkInAfter": {"25"}, "approval": {"on"}, "allDay": {"on"}, "allDayBy": {"10:45"},
			"accessControlType": {"QR"}}
		b.post("/admin/rules/"+id.String(), v).wantStatus(t, http.StatusOK)
		minute := int64(time.Minute / time.Millisecond)
		want := layout.LayoutResourceRule{ID: id.String(), OrganizationID: fx.OrgA.String(), Name: "Late desks",
			StartTime: (7*60 + 30) * minute, EndTime: (22*60 + 15) * minute, MaximumDuration: (3*60 + 20) * minute,
			MaximumAdvance: (2*24 + 5) * 60 * minute, AdvanceCheckIn: 12 * minute, ExpirationMargin: 25 * minute,
			RequiresApproval: true, AllDayBookings: true, AllDayBookingsCheckInMS: (10*60 + 45) * minute, AccessControlType: "QR"}
		got, _ := adminGetJSON[layout.LayoutResourceRule](t, pb, "resourceRules", id)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("the saved rule (-want +got):\n%s", diff)
		}
	})

	t.Run("SaveWithoutJavaScript", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		etag := b.get("/admin/rules").attr(ruleForm(fx.RuleApproval)+` input[name=etag]`, "value")
		v := ruleValues(etag)
		v.Set("until", "00:00") // midnight
		p := b.post("/admin/rules/"+fx.RuleApproval.String(), v)
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/admin/rules" {
			t.Errorf("after saving at %s, want back at /admin/rules", p.url)
		}
		p.wantText(t, ".notice.ok", "Saved the rule without a name. Bookable 08:00–24:00 Madrid time")
	})

	t.Run("RefusalsInWords", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		etag := b.get("/admin/rules").attr(ruleForm(fx.RuleApproval)+` input[name=etag]`, "value")
		for _, tc := range []struct{ field, value, want string }{
			{"from", "25:00", "From: write a time of day as HH:MM, e.g. 08:30."},
			{"until", "07:00", "Until must be later than From (00:00 means midnight)."},
			{"maxMinutes", "75", "Longest booking, minutes: write a whole number from 0 to 59."},
			{"aheadDays", "-1", "How far ahead, days: write a whole number from 0 to 3660."},
		} {
			v := ruleValues(etag)
			v.Set(tc.field, tc.value)
			p := b.hxPost("/admin/rules/"+fx.RuleApproval.String(), v)
			p.wantStatus(t, http.StatusBadRequest)
			p.wantText(t, ruleForm(fx.RuleApproval)+" [role=alert]", "Please check the form", tc.want)
			if got := p.attr(`input[name=`+tc.field+`]`, "value"); got != tc.value {
				t.Errorf("%s shows %q after the refusal, want what was typed, %q", tc.field, got, tc.value)
			}
		}
		b.get("/admin/rules").wantText(t, ruleForm(fx.RuleApproval)+" .rule-sentence", "at most 4 h") // unchanged
	})

	t.Run("StaleFormShowsTheCurrentVersion", func(t *testing.T) {
		pb := setupPages(t)
		first, second := pb.signedIn(t, fx.Adam), pb.signedIn(t, fx.Adam)
		etag := first.get("/admin/rules").attr(ruleForm(fx.RuleApproval)+` input[name=etag]`, "value")
		v := ruleValues(etag)
		v.Set("maxHours", "3")
		second.hxPost("/admin/rules/"+fx.RuleApproval.String(), v).wantStatus(t, http.StatusOK)
		v.Set("maxHours", "6")
		p := first.hxPost("/admin/rules/"+fx.RuleApproval.String(), v)
		p.wantStatus(t, http.StatusPreconditionFailed)
		p.wantText(t, "[role=alert]", "Someone else changed this meanwhile", "The form now shows the current version")
		if got := p.attr(`input[name=maxHours]`, "value"); got != "3" {
			t.Errorf("maxHours after the stale save = %q, want the current 3", got)
		}
		p.wantText(t, ".rule-sentence", "at most 3 h")
		// Without htmx, the whole page answers with the same words.
		p = first.post("/admin/rules/"+fx.RuleApproval.String(), v)
		p.wantStatus(t, http.StatusPreconditionFailed)
		p.wantText(t, ruleForm(fx.RuleApproval)+" [role=alert]", "Someone else changed this meanwhile")
	})

	t.Run("AddARule", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		page := b.get("/admin/rules")
		id := page.attr(`.add-new form input[name=etag]`, "value")
		if id != "" {
			t.Fatalf("the new rule's form has an etag %q", id)
		}
		action := page.attr(`.add-new form`, "action")
		v := ruleValues("")
		v.Set("name", "Phone booths")
		v.Set("maxHours", "1")
		p := b.post(action, v)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "Added the rule “Phone booths”.")
		p.wantText(t, "#rule-"+action[len("/admin/rules/"):]+" h2", "Phone booths")
		p.wantText(t, "#rule-"+action[len("/admin/rules/"):], "No desk or room uses this rule yet.")
	})

	t.Run("OthersAre403", func(t *testing.T) {
		pb := setupPages(t)
		for _, who := range []uuid.UUID{fx.Alice, fx.Rita} {
			b := pb.signedIn(t, who)
			p := b.get("/admin/rules")
			p.wantStatus(t, http.StatusForbidden)
			p.wantText(t, "main", "Only an admin of the organization can change its settings.")
			b.post("/admin/rules/"+fx.RuleApproval.String(), ruleValues("")).wantStatus(t, http.StatusForbidden)
			b.hxPost("/admin/rules/"+fx.RuleApproval.String()+"/sentence", ruleValues("")).wantStatus(t, http.StatusForbidden)
		}
		b := pb.signedIn(t, fx.Adam)
		b.get("/admin/rules").wantText(t, ruleForm(fx.RuleApproval)+" .rule-sentence", "at most 4 h")
	})

	t.Run("AnotherOrganizationsRuleIs404", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		b.post("/admin/rules/"+fx.RuleB.String(), ruleValues(`"x"`)).wantStatus(t, http.StatusNotFound)
		b.post("/admin/rules/not-an-id", ruleValues("")).wantStatus(t, http.StatusNotFound)
	})
}

// TestPageAdminCatalogue checks the catalogue: subcategories, features, services and the
// additional-services switch.
func TestPageAdminCatalogue(t *testing.T) {
	t.Parallel()

	t.Run("ShowsTheOrganizationsCatalogue", func(t *testing.T) {
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Adam).get("/admin/catalogue")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#subcategories-"+fx.SubRoom.String()+" summary", "Meeting room", "Rooms")
		p.wantText(t, "#features-"+fx.FeatureScreen.String()+" summary", "Screen", "av@acme.test")
		p.wantText(t, "#reservables-"+fx.ReservableCoffee.String()+" summary", "Coffee",
			"Choose quantity, delivery time, comment · cancel 2 h ahead · catering@acme.test")
		p.wantText(t, "#additional-services", "On", "Turn additional services off")
		if got := p.attr("#reservables-"+fx.ReservableAV.String()+" input[name=deliveryMinutes]", "value"); got != "15" {
			t.Errorf("AV delivery minutes = %q, want 15", got)
		}
		if p.count("#subcategories-"+fx.SubRoomB.String()) != 0 || p.count("#reservables-"+fx.ReservableB.String()) != 0 {
			t.Errorf("another organization's catalogue is shown")
		}
	})

	t.Run("SaveAFeatureWithHTMX", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		item := "#features-" + fx.FeatureWhiteboard.String()
		etag := b.get("/admin/catalogue").attr(item+" input[name=etag]", "value")
		p := b.hxPost("/admin/catalogue/features/"+fx.FeatureWhiteboard.String(),
			url.Values{"etag": {etag}, "name": {"Whiteboard"}, "email": {"facilities@acme.test"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, item+" summary", "facilities@acme.test")
		p.wantText(t, item+" [role=status]", "Saved “Whiteboard”.")
	})

	t.Run("SaveAServiceInHoursAndMinutes", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		item := "#reservables-" + fx.ReservableLunch.String()
		etag := b.get("/admin/catalogue").attr(item+" input[name=etag]", "value")
		p := b.post("/admin/catalogue/reservables/"+fx.ReservableLunch.String(), url.Values{"etag": {etag}, "name": {"Lunch"},
			"chooseQuantity": {"on"}, "allowComments": {"on"}, "cancelHours": {"24"}, "cancelMinutes": {"0"},
			"deliveryHours": {"0"}, "deliveryMinutes": {"30"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "Saved “Lunch”.")
		p.wantText(t, item+" summary", "Choose quantity, comment · cancel 1 day ahead")
		if got := p.attr(item+" input[name=deliveryMinutes]", "value"); got != "30" {
			t.Errorf("delivery minutes = %q, want 30", got)
		}
	})

	t.Run("ServiceContactEmail", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		item := "#reservables-" + fx.ReservableLunch.String()
		path := "/admin/catalogue/reservables/" + fx.ReservableLunch.String()
		etag := b.get("/admin/catalogue").attr(item+" input[name=etag]", "value")
		lunch := func(email string) url.Values {
			return url.Values{"etag": {etag}, "name": {"Lunch"}, "chooseQuantity": {"on"}, "email": {email}}
		}

		p := b.hxPost(path, lunch("catering at acme"))
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, item+" [role=alert]", "Please check the form")
		if got, want := p.text(item+" [role=alert] p:last-child"), `Contact e-mail: "catering at acme" is not an e-mail address.`; got != want {
			t.Errorf("refusal = %q, want %q", got, want)
		}
		if got := p.attr(item+" input[name=email]", "value"); got != "catering at acme" {
			t.Errorf("e-mail after the refusal = %q, want what was typed", got)
		}
		if got := b.get("/admin/catalogue").attr(item+" input[name=etag]", "value"); got != etag {
			t.Errorf("the refused form changed the service: ETag %s, was %s", got, etag)
		}

		p = b.hxPost(path, lunch(" lunch@acme.test "))
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, item+" summary", "Choose quantity · lunch@acme.test")
		p.wantText(t, item+" [role=status]", "Saved “Lunch”.")
		if got := b.get("/admin/catalogue").attr(item+" input[name=email]", "value"); got != "lunch@acme.test" {
			t.Errorf("e-mail after saving = %q, want lunch@acme.test", got)
		}
		etag = b.get("/admin/catalogue").attr(item+" input[name=etag]", "value")
		p = b.hxPost(path, lunch(""))
		p.wantStatus(t, http.StatusOK)
		if got := p.text(item + " summary"); strings.Contains(got, "@") {
			t.Errorf("summary after clearing the e-mail = %q, want no address", got)
		}
	})

	t.Run("AddASubcategory", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		id := uuid.NewString()
		p := b.post("/admin/catalogue/subcategories/"+id, url.Values{"name": {"Phone booth"}, "category": {"SPACE"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#subcategories-"+id+" summary", "Phone booth", "Rooms · not searchable")
	})

	t.Run("RefusalsAndStaleForms", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		item := "#features-" + fx.FeatureScreen.String()
		etag := b.get("/admin/catalogue").attr(item+" input[name=etag]", "value")
		path := "/admin/catalogue/features/" + fx.FeatureScreen.String()
		p := b.hxPost(path, url.Values{"etag": {etag}, "name": {" "}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, item+" [role=alert]", "Name: write a name.")
		b.hxPost(path, url.Values{"etag": {etag}, "name": {"Big screen"}}).wantStatus(t, http.StatusOK)
		p = b.hxPost(path, url.Values{"etag": {etag}, "name": {"Huge screen"}})
		p.wantStatus(t, http.StatusPreconditionFailed)
		p.wantText(t, item+" [role=alert]", "Someone else changed this meanwhile")
		if got := p.attr(item+" input[name=name]", "value"); got != "Big screen" {
			t.Errorf("name after the stale save = %q, want the current one", got)
		}
		b.post("/admin/catalogue/closures/"+uuid.NewString(), url.Values{"name": {"x"}}).wantStatus(t, http.StatusNotFound)
		b.post("/admin/catalogue/features/"+fx.FeatureScreen.String()+"x", url.Values{"name": {"x"}}).wantStatus(t, http.StatusNotFound)
	})

	t.Run("AdditionalServicesSwitch", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		p := b.hxPost("/admin/catalogue/additional-services", url.Values{"active": {"false"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#additional-services", "Additional services are off", "Turn additional services on")
		adam := pb.mbUser(t, fx.Adam)
		if on, err := pb.Service.AdditionalServicesActive(t.Context(), adam); err != nil || on {
			t.Errorf("additional services = %v, %v; want off", on, err)
		}
		p = b.post("/admin/catalogue/additional-services", url.Values{"active": {"true"}})
		p.wantText(t, ".notice.ok", "Additional services are on")
		b.get("/admin/audit?collection=organizations").wantText(t, ".audit-entry", "Additional services", "yes", "no")
	})

	t.Run("OthersAre403", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Rita)
		b.get("/admin/catalogue").wantStatus(t, http.StatusForbidden)
		p := b.post("/admin/catalogue/additional-services", url.Values{"active": {"false"}})
		p.wantStatus(t, http.StatusForbidden)
		p.wantText(t, "main", "Only an admin of the organization can change its settings.")
		b.post("/admin/catalogue/features/"+fx.FeatureScreen.String(), url.Values{"name": {"x"}}).wantStatus(t, http.StatusForbidden)
		adam := pb.mbUser(t, fx.Adam)
		if on, _ := pb.Service.AdditionalServicesActive(t.Context(), adam); !on {
			t.Errorf("a receptionist turned additional services off")
		}
	})

	t.Run("AnotherOrganizationsItemIs404", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		b.post("/admin/catalogue/reservables/"+fx.ReservableB.String(), url.Values{"etag": {`"x"`}, "name": {"Mine"}}).
			wantStatus(t, http.StatusNotFound)
	})
}
