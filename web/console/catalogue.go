package console

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/layout"
)

// The rules and catalogue pages of the admin console: resource rules, subcategories, features, services
// (reservables) and the organization's additional-services switch. Each object has its own form, which
// reads the object from the admin domain (web/admin) in the import format and saves it back with Put,
// guarded by the ETag the form carries.

const (
	msMinute = int64(time.Minute / time.Millisecond)
	msHour   = int64(time.Hour / time.Millisecond)
	msDay    = 24 * msHour
)

// --- Rules ---

// ruleWords names the fields of a resource rule as its form does.
var ruleWords = map[string]string{
	"name": "Name", "startTime": "From", "endTime": "Until", "maximumDuration": "Longest booking",
	"maximumAdvance": "How far ahead", "advanceCheckIn": "Check-in opens", "expirationMargin": "Check-in closes",
	"allDayBookingsCheckInMS": "Check in by", "accessControlType": "Access control",
}

// maxNameLength bounds the names written on the admin forms.
const maxNameLength = 200

// ruleForm shows a rule in its form, in hours, minutes and days.
func ruleForm(r layout.LayoutResourceRule, etag string) views.RuleForm {
	f := views.RuleForm{
		ID: r.ID, ETag: etag, Name: r.Name, From: kit.HHMM(r.StartTime), Until: kit.HHMM(r.EndTime),
		MaxHours: strconv.FormatInt(r.MaximumDuration/msHour, 10), MaxMinutes: strconv.FormatInt(r.MaximumDuration%msHour/msMinute, 10),
		AheadDays: strconv.FormatInt(r.MaximumAdvance/msDay, 10), AheadHours: strconv.FormatInt(r.MaximumAdvance%msDay/msHour, 10),
		CheckInBefore: strconv.FormatInt(r.AdvanceCheckIn/msMinute, 10), CheckInAfter: strconv.FormatInt(r.ExpirationMargin/msMinute, 10),
		Approval: r.RequiresApproval, AllDay: r.AllDayBookings, AccessControlType: r.AccessControlType,
	}
	if r.AllDayBookingsCheckInMS > 0 {
		f.AllDayBy = kit.HHMM(r.AllDayBookingsCheckInMS)
	}
	return f
}

// readRuleForm reads a rule's form: the view shows what was typed, the rule is what it means. A value
// the form cannot use is a *kit.FormRefusal in words.
func readRuleForm(form url.Values, id string, org uuid.UUID) (views.RuleForm, layout.LayoutResourceRule, error) {
	v := views.RuleForm{
		ID: id, ETag: form.Get("etag"), Name: strings.TrimSpace(form.Get("name")),
		From: form.Get("from"), Until: form.Get("until"), MaxHours: form.Get("maxHours"), MaxMinutes: form.Get("maxMinutes"),
		AheadDays: form.Get("aheadDays"), AheadHours: form.Get("aheadHours"),
		CheckInBefore: form.Get("checkInBefore"), CheckInAfter: form.Get("checkInAfter"),
		Approval: form.Get("approval") != "", AllDay: form.Get("allDay") != "", AllDayBy: form.Get("allDayBy"),
		AccessControlType: form.Get("accessControlType"),
	}
	r := layout.LayoutResourceRule{
		ID: id, OrganizationID: org.String(), Name: v.Name, RequiresApproval: v.Approval, AllDayBookings: v.AllDay,
		AccessControlType: v.AccessControlType,
	}
	if len(v.Name) > maxNameLength {
		return v, r, kit.RefuseForm("Name: write at most %d characters.", maxNameLength)
	}
	from, ok, err := clockField(form, "from", "From")
	if err != nil {
		return v, r, err
	}
	if !ok || from >= 24*time.Hour {
		return v, r, kit.RefuseForm("From: choose the time bookings may start each day, e.g. 08:00.")
	}
	until, ok, err := clockField(form, "until", "Until")
	if err != nil {
		return v, r, err
	}
	if !ok {
		return v, r, kit.RefuseForm("Until: choose the time bookings must end each day; 00:00 means midnight.")
	}
	if until == 0 {
		until = 24 * time.Hour
	}
	if until <= from {
		return v, r, kit.RefuseForm("Until must be later than From (00:00 means midnight).")
	}
	r.StartTime, r.EndTime = from.Milliseconds(), until.Milliseconds()
	if until == 24*time.Hour {
		r.EndTime = 0 // the import format's end of the day
	}
	numbers := []struct {
		name, label string
		max, unit   int64
		into        *int64
	}{
		{"maxHours", "Longest booking, hours", 8784, msHour, &r.MaximumDuration},
		{"maxMinutes", "Longest booking, minutes", 59, msMinute, &r.MaximumDuration},
		{"aheadDays", "How far ahead, days", 3660, msDay, &r.MaximumAdvance},
		{"aheadHours", "How far ahead, hours", 23, msHour, &r.MaximumAdvance},
		{"checkInBefore", "Check-in opens, minutes before the start", 1440, msMinute, &r.AdvanceCheckIn},
		{"checkInAfter", "Check-in closes, minutes after the start", 1440, msMinute, &r.ExpirationMargin},
	}
	for _, n := range numbers {
		x, err := wholeNumber(form, n.name, n.label, n.max)
		if err != nil {
			return v, r, err
		}
		*n.into += x * n.unit
	}
	by, ok, err := clockField(form, "allDayBy", "Check in by")
	if err != nil {
		return v, r, err
	}
	if ok {
		r.AllDayBookingsCheckInMS = by.Milliseconds()
	}
	return v, r, nil
}

// domainRule is the rule a form describes, as the booking rules read it.
func domainRule(r layout.LayoutResourceRule) booking.ResourceRule {
	ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
	return booking.ResourceRule{
		StartTime: ms(r.StartTime), EndTime: ms(r.EndTime), MaximumDuration: ms(r.MaximumDuration),
		MaximumAdvance: ms(r.MaximumAdvance), AdvanceCheckIn: ms(r.AdvanceCheckIn), ExpirationMargin: ms(r.ExpirationMargin),
		RequiresApproval: r.RequiresApproval, AllDayBookings: r.AllDayBookings, AllDayBookingsCheckIn: ms(r.AllDayBookingsCheckInMS),
	}
}

// ruleUses tells, per rule id, the resources that use the rule and the time zones of their buildings.
type ruleUses struct {
	resources map[string][]views.NamedLink
	zones     map[string][]string
}

// readRuleUses reads which resources use each rule of the actor's organization.
func (s *Handlers) readRuleUses(ctx context.Context, actor booking.User) (ruleUses, error) {
	resources, _, err := listValues[layout.LayoutResource](ctx, s, actor, layout.Resources)
	if err != nil {
		return ruleUses{}, err
	}
	floors, _, err := listValues[layout.LayoutFloor](ctx, s, actor, layout.Floors)
	if err != nil {
		return ruleUses{}, err
	}
	buildings, _, err := listValues[layout.LayoutBuilding](ctx, s, actor, layout.Buildings)
	if err != nil {
		return ruleUses{}, err
	}
	zoneOfBuilding := map[string]string{}
	for _, b := range buildings {
		zoneOfBuilding[b.ID] = b.Timezone
	}
	zoneOfFloor := map[string]string{}
	for _, f := range floors {
		zoneOfFloor[f.ID] = zoneOfBuilding[f.BuildingID]
	}
	u := ruleUses{resources: map[string][]views.NamedLink{}, zones: map[string][]string{}}
	for _, r := range resources {
		u.resources[r.ResourceRuleID] = append(u.resources[r.ResourceRuleID],
			views.NamedLink{Name: r.Name, Href: "/admin/resources/" + r.ID})
		if z := zoneOfFloor[r.FloorID]; z != "" {
			u.zones[r.ResourceRuleID] = append(u.zones[r.ResourceRuleID], z)
		}
	}
	return u, nil
}

// withUses adds the sentence and the resources that use the rule to its form.
func (u ruleUses) withUses(f views.RuleForm, r layout.LayoutResourceRule) views.RuleForm {
	f.Sentence = booking.RuleSentence(domainRule(r), u.zones[r.ID])
	f.Resources = u.resources[r.ID]
	names := make([]string, 0, 2)
	for _, r := range f.Resources[:min(2, len(f.Resources))] {
		names = append(names, r.Name)
	}
	f.Fallback = ruleOf(names, len(f.Resources))
	return f
}

// ruleOf names a rule without a name by the resources that use it: "Rule of Goya and Velázquez", "Rule
// of Goya, Velázquez and 3 more". first holds the first two of them, of total; "" when none uses it.
func ruleOf(first []string, total int) string {
	switch {
	case total == 1 && len(first) == 1:
		return "Rule of " + first[0]
	case total == 2 && len(first) == 2:
		return "Rule of " + first[0] + " and " + first[1]
	case total > 2 && len(first) == 2:
		return fmt.Sprintf("Rule of %s, %s and %d more", first[0], first[1], total-2)
	}
	return ""
}

// adminRules reads the rules page: every rule of the organization in its form, and an empty one.
func (s *Handlers) adminRules(c echo.Context) (views.AdminRules, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	rules, etags, err := listValues[layout.LayoutResourceRule](ctx, s, actor, layout.ResourceRules)
	if err != nil {
		return views.AdminRules{}, err
	}
	uses, err := s.readRuleUses(ctx, actor)
	if err != nil {
		return views.AdminRules{}, err
	}
	p := views.AdminRules{Chrome: s.Chrome(c, "Rules")}
	for i, r := range rules {
		p.Rules = append(p.Rules, uses.withUses(ruleForm(r, etags[i]), r))
	}
	fresh := layout.LayoutResourceRule{ID: uuid.NewString(), StartTime: 8 * msHour, EndTime: 20 * msHour,
		MaximumDuration: 4 * msHour, MaximumAdvance: 30 * msDay, AdvanceCheckIn: 15 * msMinute, ExpirationMargin: 15 * msMinute}
	p.New = uses.withUses(ruleForm(fresh, ""), fresh)
	p.New.New = true
	return p, nil
}

// Rules is GET /admin/rules.
func (s *Handlers) Rules(c echo.Context) error {
	p, err := s.adminRules(c)
	if err != nil {
		return err
	}
	if id, msg := s.savedFlash(c); !confirmRule(&p, id, msg) {
		p.Notice = msg
	}
	return kit.Render(c, http.StatusOK, views.AdminRulesPage(p))
}

// confirmRule puts the confirmation msg in the form of the rule id, and reports whether the page has it.
func confirmRule(p *views.AdminRules, id, msg string) bool {
	for i := range p.Rules {
		if id != "" && p.Rules[i].ID == id {
			p.Rules[i].Saved = msg
			return true
		}
	}
	return false
}

// RuleSentence is POST /admin/rules/{ruleId}/sentence: the sentence of the values in the rule's
// form, or what to fix in it, for the form to show as the admin types. It saves nothing.
func (s *Handlers) RuleSentence(c echo.Context) error {
	id, err := pathID(c, "ruleId")
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return kit.Invalid("form: %v", err)
	}
	ctx, actor := c.Request().Context(), kit.Actor(c)
	_, r, err := readRuleForm(form, id.String(), actor.OrganizationID)
	var fr *kit.FormRefusal
	if errors.As(err, &fr) {
		return kit.Render(c, http.StatusOK, views.RuleSentenceView("", fr.Text))
	}
	uses, err := s.readRuleUses(ctx, actor)
	if err != nil {
		return err
	}
	return kit.Render(c, http.StatusOK, views.RuleSentenceView(booking.RuleSentence(domainRule(r), uses.zones[r.ID]), ""))
}

// SaveRule is POST /admin/rules/{ruleId}: creates or updates the rule. A refusal, or a rule
// someone else changed since the form was loaded, is shown in the form; with htmx only the form is
// answered. A save is confirmed in the rule's form: with htmx a new rule answers with the whole list.
func (s *Handlers) SaveRule(c echo.Context) error {
	id, err := pathID(c, "ruleId")
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return kit.Invalid("form: %v", err)
	}
	ctx, actor := c.Request().Context(), kit.Actor(c)
	typed, r, err := readRuleForm(form, id.String(), actor.OrganizationID)
	isNew := typed.ETag == ""
	var saved layout.LayoutResourceRule
	var etag string
	if err == nil {
		saved, etag, err = putValue(ctx, s, actor, layout.ResourceRules, id, r, typed.ETag)
	}
	uses, uerr := s.readRuleUses(ctx, actor)
	if uerr != nil {
		return uerr
	}
	if err != nil {
		prob, code, perr := refusal(err, "rule", ruleWords)
		if perr != nil {
			return perr
		}
		f := uses.withUses(typed, r)
		if code == http.StatusPreconditionFailed {
			cur, curTag, gerr := getValue[layout.LayoutResourceRule](ctx, s, actor, layout.ResourceRules, id)
			if gerr != nil {
				return gerr
			}
			f = uses.withUses(ruleForm(cur, curTag), cur)
		}
		f.New, f.Problem = isNew, prob
		return s.answerRuleForm(c, code, f)
	}
	f := uses.withUses(ruleForm(saved, etag), saved)
	msg := "Saved the rule " + strconvQuote(saved.Name) + ". " + f.Sentence
	if isNew {
		msg = "Added the rule " + strconvQuote(saved.Name) + ". " + f.Sentence
	}
	switch {
	case !kit.IsHTMX(c):
		return s.redirectSaved(c, "/admin/rules", nil, saved.ID, "rule-"+saved.ID, msg)
	case !isNew:
		f.Saved = msg
		return kit.Render(c, http.StatusOK, views.RuleFormView(f))
	}
	p, err := s.adminRules(c)
	if err != nil {
		return err
	}
	confirmRule(&p, saved.ID, msg)
	swapSection(c, "#rules")
	return kit.Render(c, http.StatusOK, views.RulesList(p))
}

// answerRuleForm answers a rule form that was not saved: the form alone for htmx, otherwise the whole page
// with this form in place of the rule's.
func (s *Handlers) answerRuleForm(c echo.Context, status int, f views.RuleForm) error {
	if kit.IsHTMX(c) {
		return kit.Render(c, status, views.RuleFormView(f))
	}
	p, err := s.adminRules(c)
	if err != nil {
		return err
	}
	if f.New {
		p.New = f
	}
	for i := range p.Rules {
		if p.Rules[i].ID == f.ID {
			p.Rules[i] = f
		}
	}
	return kit.Render(c, status, views.AdminRulesPage(p))
}

// strconvQuote names an object in a message: its name in quotation marks, or "without a name".
func strconvQuote(name string) string {
	if name == "" {
		return "without a name"
	}
	return "“" + name + "”"
}

// --- Catalogue ---

// catalogueWords names the fields of subcategories, features and services as their forms do.
var catalogueWords = map[string]string{
	"name": "Name", "category": "People book", "email": "Contact e-mail", "description": "Description",
	"minimumCancellationMs": "Change or cancel it at least", "standardDeliveryTimeMs": "Usually delivered",
}

// catalogueCollections are the collections the catalogue page edits, in its order.
var catalogueCollections = []layout.Collection{layout.Subcategories, layout.Features, layout.Reservables}

// catalogueGroup is a collection of the catalogue page, with what it says about it.
func catalogueGroup(c layout.Collection) views.CatalogueGroup {
	switch c {
	case layout.Subcategories:
		return views.CatalogueGroup{Collection: string(c), Title: "Kinds of space", AddLabel: "Add a kind of space",
			Lead:  "What people look for: desks, meeting rooms, phone booths… Each desk or room is of one kind.",
			Empty: "No kinds yet. Add one before adding desks or rooms."}
	case layout.Features:
		return views.CatalogueGroup{Collection: string(c), Title: "Features", AddLabel: "Add a feature",
			Lead:  "What a desk or room has, for people to filter by: a screen, a whiteboard, a standing desk…",
			Empty: "No features yet."}
	}
	return views.CatalogueGroup{Collection: string(c), Title: "Services", AddLabel: "Add a service",
		Lead:  "What people can order with a booking of a room: coffee, lunch, a video setup… Choose the rooms that offer each on their own pages.",
		Empty: "No services yet."}
}

// catalogueItem shows one object of the catalogue in its form.
func catalogueItem(c layout.Collection, doc json.RawMessage, etag string) (views.CatalogueItem, error) {
	it := views.CatalogueItem{Collection: string(c), ETag: etag}
	switch c {
	case layout.Subcategories:
		var v layout.LayoutSubcategory
		if err := json.Unmarshal(doc, &v); err != nil {
			return it, fmt.Errorf("decode subcategory: %w", err)
		}
		it.ID, it.Name, it.Category, it.HideBookings = v.ID, v.Name, v.Category, v.HideBookings
		it.Searchable = v.CanBeSearched == nil || *v.CanBeSearched
		it.Summary = map[string]string{"WORKSTATION": "Desks", "SPACE": "Rooms"}[v.Category]
		if !it.Searchable {
			it.Summary += " · not searchable"
		}
	case layout.Features:
		var v layout.LayoutFeature
		if err := json.Unmarshal(doc, &v); err != nil {
			return it, fmt.Errorf("decode feature: %w", err)
		}
		it.ID, it.Name, it.Email = v.ID, v.Name, v.Email
		it.Summary = cmp.Or(v.Email, "No contact")
	case layout.Reservables:
		var v layout.LayoutReservable
		if err := json.Unmarshal(doc, &v); err != nil {
			return it, fmt.Errorf("decode service: %w", err)
		}
		it.ID, it.Name, it.Description, it.Email = v.ID, v.Name, v.Description, v.Email
		it.ChooseQuantity, it.ChooseDeliveryTime, it.AllowComments = v.ChooseQuantity, v.ChooseDeliveryTime, v.AllowComments
		it.DeliveryHours = strconv.FormatInt(v.StandardDeliveryTimeMs/msHour, 10)
		it.DeliveryMinutes = strconv.FormatInt(v.StandardDeliveryTimeMs%msHour/msMinute, 10)
		it.CancelHours = strconv.FormatInt(v.MinimumCancellationMs/msHour, 10)
		it.CancelMinutes = strconv.FormatInt(v.MinimumCancellationMs%msHour/msMinute, 10)
		it.Summary = serviceSummary(v)
	}
	return it, nil
}

// serviceSummary says in a line what people choose when they order a service, until when they can
// cancel it, and whom to contact about it.
func serviceSummary(v layout.LayoutReservable) string {
	var chosen []string
	for _, o := range []struct {
		on   bool
		what string
	}{{v.ChooseQuantity, "quantity"}, {v.ChooseDeliveryTime, "delivery time"}, {v.AllowComments, "comment"}} {
		if o.on {
			chosen = append(chosen, o.what)
		}
	}
	s := "Nothing to choose"
	if len(chosen) > 0 {
		s = "Choose " + strings.Join(chosen, ", ")
	}
	if v.MinimumCancellationMs > 0 {
		s += " · cancel " + booking.DurationWords(time.Duration(v.MinimumCancellationMs)*time.Millisecond) + " ahead"
	}
	if v.Email != "" {
		s += " · " + v.Email
	}
	return s
}

// adminCatalogue reads the catalogue page.
func (s *Handlers) adminCatalogue(c echo.Context) (views.AdminCatalogue, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	active, err := s.bookings.AdditionalServicesActive(ctx, actor)
	if err != nil {
		return views.AdminCatalogue{}, err
	}
	p := views.AdminCatalogue{Chrome: s.Chrome(c, "Catalogue"), Services: views.ServicesSwitch{Active: active}}
	for _, coll := range catalogueCollections {
		objs, err := s.layout.List(ctx, actor, coll)
		if err != nil {
			return views.AdminCatalogue{}, err
		}
		g := catalogueGroup(coll)
		for _, o := range objs {
			it, err := catalogueItem(coll, o.JSON, o.ETag)
			if err != nil {
				return views.AdminCatalogue{}, err
			}
			g.Items = append(g.Items, it)
		}
		slices.SortFunc(g.Items, func(a, b views.CatalogueItem) int { return booking.CompareNames(a.Name, b.Name) })
		g.New = views.CatalogueItem{Collection: string(coll), ID: uuid.NewString(), New: true, Category: "WORKSTATION", Searchable: true,
			DeliveryHours: "0", DeliveryMinutes: "0", CancelHours: "0", CancelMinutes: "0"}
		p.Groups = append(p.Groups, g)
	}
	return p, nil
}

// Catalogue is GET /admin/catalogue.
func (s *Handlers) Catalogue(c echo.Context) error {
	p, err := s.adminCatalogue(c)
	if err != nil {
		return err
	}
	if id, msg := s.savedFlash(c); id == "additional-services" {
		p.Services.Saved = msg
	} else if !confirmCatalogueItem(&p, id, msg) {
		p.Notice = msg
	}
	return kit.Render(c, http.StatusOK, views.AdminCataloguePage(p))
}

// confirmCatalogueItem opens the item id and puts the confirmation msg in it, and reports whether the
// page has the item.
func confirmCatalogueItem(p *views.AdminCatalogue, id, msg string) bool {
	for gi := range p.Groups {
		for i := range p.Groups[gi].Items {
			if it := &p.Groups[gi].Items[i]; id != "" && it.ID == id {
				it.Saved, it.Open = msg, true
				return true
			}
		}
	}
	return false
}

// readCatalogueForm reads the form of a catalogue item into it (what was typed) and into doc, the object
// current holds with the form's values in place of its own; current is nil for a new object.
func readCatalogueForm(form url.Values, it *views.CatalogueItem, org uuid.UUID, current json.RawMessage) (any, error) {
	it.Name = strings.TrimSpace(form.Get("name"))
	if it.Name == "" {
		return nil, kit.RefuseForm("Name: write a name.")
	}
	if len(it.Name) > maxNameLength {
		return nil, kit.RefuseForm("Name: write at most %d characters.", maxNameLength)
	}
	decodeCurrent := func(v any) error {
		if current == nil {
			return nil
		}
		return json.Unmarshal(current, v)
	}
	switch layout.Collection(it.Collection) {
	case layout.Subcategories:
		it.Category, it.Searchable, it.HideBookings = form.Get("category"), form.Get("searchable") != "", form.Get("hideBookings") != ""
		var v layout.LayoutSubcategory
		if err := decodeCurrent(&v); err != nil {
			return nil, fmt.Errorf("decode subcategory: %w", err)
		}
		if it.Category != "WORKSTATION" && it.Category != "SPACE" {
			return nil, kit.RefuseForm("People book: choose desks or rooms.")
		}
		searchable := it.Searchable
		v.ID, v.OrganizationID, v.Name, v.Category, v.CanBeSearched, v.HideBookings = it.ID, org.String(), it.Name, it.Category, &searchable, it.HideBookings
		return v, nil
	case layout.Features:
		it.Email = strings.TrimSpace(form.Get("email"))
		var v layout.LayoutFeature
		if err := decodeCurrent(&v); err != nil {
			return nil, fmt.Errorf("decode feature: %w", err)
		}
		if len(it.Email) > 254 || (it.Email != "" && !strings.Contains(it.Email, "@")) {
			return nil, kit.RefuseForm("Contact e-mail: write an address such as facilities@example.com, or leave it empty.")
		}
		v.ID, v.OrganizationID, v.Name, v.Email = it.ID, org.String(), it.Name, it.Email
		return v, nil
	}
	it.Description = strings.TrimSpace(form.Get("description"))
	it.Email = strings.TrimSpace(form.Get("email")) // the import checks it and says what is wrong
	it.ChooseQuantity, it.ChooseDeliveryTime, it.AllowComments = form.Get("chooseQuantity") != "", form.Get("chooseDeliveryTime") != "", form.Get("allowComments") != ""
	it.DeliveryHours, it.DeliveryMinutes = form.Get("deliveryHours"), form.Get("deliveryMinutes")
	it.CancelHours, it.CancelMinutes = form.Get("cancelHours"), form.Get("cancelMinutes")
	var v layout.LayoutReservable
	if err := decodeCurrent(&v); err != nil {
		return nil, fmt.Errorf("decode service: %w", err)
	}
	if len(it.Description) > 1000 {
		return nil, kit.RefuseForm("Description: write at most 1000 characters.")
	}
	v.ID, v.OrganizationID, v.Name, v.Description, v.Email = it.ID, org.String(), it.Name, it.Description, it.Email
	v.ChooseQuantity, v.ChooseDeliveryTime, v.AllowComments = it.ChooseQuantity, it.ChooseDeliveryTime, it.AllowComments
	v.StandardDeliveryTimeMs, v.MinimumCancellationMs = 0, 0
	for _, n := range []struct {
		name, label string
		max, unit   int64
		into        *int64
	}{
		{"deliveryHours", "Usually delivered, hours", 24, msHour, &v.StandardDeliveryTimeMs},
		{"deliveryMinutes", "Usually delivered, minutes", 59, msMinute, &v.StandardDeliveryTimeMs},
		{"cancelHours", "Change or cancel it at least, hours", 8784, msHour, &v.MinimumCancellationMs},
		{"cancelMinutes", "Change or cancel it at least, minutes", 59, msMinute, &v.MinimumCancellationMs},
	} {
		x, err := wholeNumber(form, n.name, n.label, n.max)
		if err != nil {
			return nil, err
		}
		*n.into += x * n.unit
	}
	return v, nil
}

// SaveCatalogueItem is POST /admin/catalogue/{collection}/{id}: creates or updates a subcategory,
// feature or service. A refusal, or an item someone else changed since the form was loaded, is shown in
// its form; with htmx only the item is answered. A save is confirmed in the item: with htmx a new item
// answers with its whole group.
func (s *Handlers) SaveCatalogueItem(c echo.Context) error {
	coll := layout.Collection(c.Param("collection"))
	if !slices.Contains(catalogueCollections, coll) {
		return echo.ErrNotFound
	}
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return kit.Invalid("form: %v", err)
	}
	ctx, actor := c.Request().Context(), kit.Actor(c)
	ifMatch := form.Get("etag")
	typed := views.CatalogueItem{Collection: string(coll), ID: id.String(), ETag: ifMatch, New: ifMatch == ""}
	var current json.RawMessage
	if !typed.New {
		o, err := s.layout.Get(ctx, actor, coll, id)
		if err != nil {
			return err
		}
		current = o.JSON
	}
	doc, err := readCatalogueForm(form, &typed, actor.OrganizationID, current)
	var saved layout.Object
	if err == nil {
		body, merr := json.Marshal(doc)
		if merr != nil {
			return fmt.Errorf("encode %s: %w", coll, merr)
		}
		saved, _, err = s.layout.Put(ctx, actor, coll, id, body, ifMatch)
	}
	if err != nil {
		prob, code, perr := refusal(err, "item", catalogueWords)
		if perr != nil {
			return perr
		}
		it := typed
		if code == http.StatusPreconditionFailed {
			o, gerr := s.layout.Get(ctx, actor, coll, id)
			if gerr != nil {
				return gerr
			}
			if it, gerr = catalogueItem(coll, o.JSON, o.ETag); gerr != nil {
				return gerr
			}
		}
		it.Problem, it.Open = prob, true
		return s.answerCatalogueItem(c, code, it)
	}
	it, err := catalogueItem(coll, saved.JSON, saved.ETag)
	if err != nil {
		return err
	}
	msg := "Saved " + strconvQuote(it.Name) + "."
	if typed.New {
		msg = "Added " + strconvQuote(it.Name) + "."
	}
	switch {
	case !kit.IsHTMX(c):
		return s.redirectSaved(c, "/admin/catalogue", nil, it.ID, it.Collection+"-"+it.ID, msg)
	case !typed.New:
		it.Saved, it.Open = msg, true
		return kit.Render(c, http.StatusOK, views.CatalogueItemView(it))
	}
	p, err := s.adminCatalogue(c)
	if err != nil {
		return err
	}
	confirmCatalogueItem(&p, it.ID, msg)
	for _, g := range p.Groups {
		if g.Collection == it.Collection {
			swapSection(c, "#"+g.Collection)
			return kit.Render(c, http.StatusOK, views.CatalogueGroupView(g))
		}
	}
	return fmt.Errorf("catalogue: no group %s", it.Collection)
}

// answerCatalogueItem answers a catalogue form that was not saved: the item alone for htmx, otherwise the
// whole page with this form in place of the item's.
func (s *Handlers) answerCatalogueItem(c echo.Context, status int, it views.CatalogueItem) error {
	if kit.IsHTMX(c) {
		return kit.Render(c, status, views.CatalogueItemView(it))
	}
	p, err := s.adminCatalogue(c)
	if err != nil {
		return err
	}
	for gi := range p.Groups {
		g := &p.Groups[gi]
		if g.Collection != it.Collection {
			continue
		}
		if it.New {
			g.New = it
		}
		for i := range g.Items {
			if g.Items[i].ID == it.ID {
				g.Items[i] = it
			}
		}
	}
	return kit.Render(c, status, views.AdminCataloguePage(p))
}

// AdditionalServices is POST /admin/catalogue/additional-services (active=true|false): turns the
// organization's additional services on or off.
func (s *Handlers) AdditionalServices(c echo.Context) error {
	var active bool
	switch c.FormValue("active") {
	case "true":
		active = true
	case "false":
	default:
		return kit.InvalidField("active", "choose true or false")
	}
	ctx, actor := c.Request().Context(), kit.Actor(c)
	if err := s.bookings.SetAdditionalServices(ctx, actor, active); err != nil {
		return err
	}
	sw := views.ServicesSwitch{Active: active, Saved: "Additional services are off: nobody can order them with a booking."}
	if active {
		sw.Saved = "Additional services are on: people can order them with their bookings."
	}
	if !kit.IsHTMX(c) {
		return s.redirectSaved(c, "/admin/catalogue", nil, "additional-services", "additional-services", sw.Saved)
	}
	return kit.Render(c, http.StatusOK, views.ServicesSwitchView(sw))
}
