package console

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

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
// the form cannot use is a *kit.FormRefusal in words, in ctx's language.
func readRuleForm(ctx context.Context, form url.Values, id string, org uuid.UUID) (views.RuleForm, layout.LayoutResourceRule, error) {
	v := views.RuleForm{
		ID: id, ETag: form.Get("etag"), Name: textField(form, "name"),
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
		return v, r, kit.RefuseForm("%s", lang.T(ctx, "admin.rules.refuseNameLength", map[string]any{"Max": maxNameLength}))
	}
	from, ok, err := clockField(ctx, form, "from", lang.T(ctx, "admin.rules.fieldFrom"))
	if err != nil {
		return v, r, err
	}
	if !ok || from >= 24*time.Hour {
		return v, r, kit.RefuseForm("%s", lang.T(ctx, "admin.rules.refuseFrom"))
	}
	until, ok, err := clockField(ctx, form, "until", lang.T(ctx, "admin.rules.fieldUntil"))
	if err != nil {
		return v, r, err
	}
	if !ok {
		return v, r, kit.RefuseForm("%s", lang.T(ctx, "admin.rules.refuseUntil"))
	}
	if until == 0 {
		until = 24 * time.Hour
	}
	if until <= from {
		return v, r, kit.RefuseForm("%s", lang.T(ctx, "admin.rules.refuseUntilAfterFrom"))
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
		{"maxHours", lang.T(ctx, "admin.rules.fieldMaxHours"), 8784, msHour, &r.MaximumDuration},
		{"maxMinutes", lang.T(ctx, "admin.rules.fieldMaxMinutes"), 59, msMinute, &r.MaximumDuration},
		{"aheadDays", lang.T(ctx, "admin.rules.fieldAheadDays"), 3660, msDay, &r.MaximumAdvance},
		{"aheadHours", lang.T(ctx, "admin.rules.fieldAheadHours"), 23, msHour, &r.MaximumAdvance},
		{"checkInBefore", lang.T(ctx, "admin.rules.fieldCheckInBefore"), 1440, msMinute, &r.AdvanceCheckIn},
		{"checkInAfter", lang.T(ctx, "admin.rules.fieldCheckInAfter"), 1440, msMinute, &r.ExpirationMargin},
	}
	for _, n := range numbers {
		x, err := wholeNumber(ctx, form, n.name, n.label, n.max)
		if err != nil {
			return v, r, err
		}
		*n.into += x * n.unit
	}
	by, ok, err := clockField(ctx, form, "allDayBy", lang.T(ctx, "admin.rules.fieldAllDayBy"))
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

// withUses adds the sentence, in ctx's language, and the resources that use the rule to its form.
func (u ruleUses) withUses(ctx context.Context, f views.RuleForm, r layout.LayoutResourceRule) views.RuleForm {
	f.Sentence = views.RuleSentence(ctx, domainRule(r), u.zones[r.ID])
	f.Resources = u.resources[r.ID]
	names := make([]string, 0, 2)
	for _, r := range f.Resources[:min(2, len(f.Resources))] {
		names = append(names, r.Name)
	}
	f.Fallback = ruleOf(ctx, names, len(f.Resources))
	return f
}

// ruleOf names a rule without a name by the resources that use it: "Rule of Goya and Velázquez", "Rule
// of Goya, Velázquez and 3 more". first holds the first two of them, of total; "" when none uses it.
func ruleOf(ctx context.Context, first []string, total int) string {
	switch {
	case total == 1 && len(first) == 1:
		return lang.T(ctx, "admin.rules.ruleOfOne", map[string]any{"First": first[0]})
	case total == 2 && len(first) == 2:
		return lang.T(ctx, "admin.rules.ruleOfTwo", map[string]any{"First": first[0], "Second": first[1]})
	case total > 2 && len(first) == 2:
		return lang.N(ctx, "admin.rules.ruleOfMore", total-2, map[string]any{"First": first[0], "Second": first[1]})
	}
	return ""
}

// adminRules reads the rules page: every rule of the organization in its form, and an empty one.
func (s *Handlers) adminRules(c echo.Context) (views.AdminRules, error) {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	rules, etags, err := listValues[layout.LayoutResourceRule](ctx, s, actor, layout.ResourceRules)
	if err != nil {
		return views.AdminRules{}, err
	}
	uses, err := s.readRuleUses(ctx, actor)
	if err != nil {
		return views.AdminRules{}, err
	}
	p := views.AdminRules{Chrome: s.Chrome(c, lang.T(ctx, "admin.rules.title"))}
	for i, r := range rules {
		p.Rules = append(p.Rules, uses.withUses(ctx, ruleForm(r, etags[i]), r))
	}
	fresh := layout.LayoutResourceRule{ID: uuid.NewString(), StartTime: 8 * msHour, EndTime: 20 * msHour,
		MaximumDuration: 4 * msHour, MaximumAdvance: 30 * msDay, AdvanceCheckIn: 15 * msMinute, ExpirationMargin: 15 * msMinute}
	p.New = uses.withUses(ctx, ruleForm(fresh, ""), fresh)
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
		return kit.Refuse("admin.common.formUnreadable", map[string]any{"Error": err})
	}
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	_, r, err := readRuleForm(ctx, form, id.String(), actor.OrganizationID)
	var fr *kit.FormRefusal
	if errors.As(err, &fr) {
		return kit.Render(c, http.StatusOK, views.RuleSentenceView("", fr.Text))
	}
	uses, err := s.readRuleUses(ctx, actor)
	if err != nil {
		return err
	}
	return kit.Render(c, http.StatusOK, views.RuleSentenceView(views.RuleSentence(ctx, domainRule(r), uses.zones[r.ID]), ""))
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
		return kit.Refuse("admin.common.formUnreadable", map[string]any{"Error": err})
	}
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	typed, r, err := readRuleForm(ctx, form, id.String(), actor.OrganizationID)
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
		prob, code, perr := refusal(c, err, "rule", ruleWords)
		if perr != nil {
			return perr
		}
		f := uses.withUses(ctx, typed, r)
		if code == http.StatusPreconditionFailed {
			cur, curTag, gerr := getValue[layout.LayoutResourceRule](ctx, s, actor, layout.ResourceRules, id)
			if gerr != nil {
				return gerr
			}
			f = uses.withUses(ctx, ruleForm(cur, curTag), cur)
		}
		f.New, f.Problem = isNew, prob
		return s.answerRuleForm(c, code, f)
	}
	f := uses.withUses(ctx, ruleForm(saved, etag), saved)
	msg := lang.T(ctx, "admin.rules.saved", map[string]any{"Name": strconvQuote(ctx, saved.Name), "Sentence": f.Sentence})
	if isNew {
		msg = lang.T(ctx, "admin.rules.added", map[string]any{"Name": strconvQuote(ctx, saved.Name), "Sentence": f.Sentence})
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

// strconvQuote names an object in a message, in ctx's language: its name in quotation marks, or
// "without a name".
func strconvQuote(ctx context.Context, name string) string {
	if name == "" {
		return lang.T(ctx, "admin.rules.withoutAName")
	}
	return lang.T(ctx, "admin.rules.quoted", map[string]any{"Name": name})
}
