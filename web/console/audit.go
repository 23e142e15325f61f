package console

import (
	"cmp"
	"context"
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
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

// The audit log page of the admin console: every admin change, newest first, filtered by what changed,
// which object, who changed it and when, read a page at a time. It only reads.

// AuditPageSize is how many changes the audit log shows at a time.
const AuditPageSize = 50

// auditCollectionNames are the collections of the audit log the filter offers, in its order.
var auditCollectionNames = []string{
	"buildings", "floors", "resources", "resourceRules", "subcategories", "features", "reservables", "closures",
	"users", "organizations", "signInSettings", "emailDomains", "scimTokens", "scimGroups", "teams", "neighbourhoods", "webhooks",
	"reportSettings",
}

// auditCollections name the collections of the audit log in words of ctx's language, in the order the
// filter offers them.
func auditCollections(ctx context.Context) []views.Option {
	out := make([]views.Option, len(auditCollectionNames))
	for i, c := range auditCollectionNames {
		out[i] = views.Option{Value: c, Label: auditCollectionWords(ctx, c)}
	}
	return out
}

// auditCollectionWords names a collection of the audit log: "Desks and rooms".
func auditCollectionWords(ctx context.Context, c string) string {
	switch c {
	case "buildings":
		return lang.T(ctx, "admin.audit.collectionBuildings")
	case "floors":
		return lang.T(ctx, "admin.audit.collectionFloors")
	case "resources":
		return lang.T(ctx, "admin.audit.collectionResources")
	case "resourceRules":
		return lang.T(ctx, "admin.audit.collectionRules")
	case "subcategories":
		return lang.T(ctx, "admin.audit.collectionKinds")
	case "features":
		return lang.T(ctx, "admin.audit.collectionFeatures")
	case "reservables":
		return lang.T(ctx, "admin.audit.collectionServices")
	case "closures":
		return lang.T(ctx, "admin.audit.collectionClosures")
	case "users":
		return lang.T(ctx, "admin.audit.collectionPeople")
	case "organizations":
		return lang.T(ctx, "admin.audit.objectOrganization")
	case "signInSettings":
		return lang.T(ctx, "admin.audit.objectSignInSettings")
	case "reportSettings":
		return lang.T(ctx, "admin.audit.objectReportSettings")
	case "emailDomains":
		return lang.T(ctx, "admin.audit.collectionEmailDomains")
	case "scimTokens":
		return lang.T(ctx, "admin.audit.collectionScimTokens")
	case "scimGroups":
		return lang.T(ctx, "admin.audit.collectionScimGroups")
	case "teams":
		return lang.T(ctx, "admin.audit.collectionTeams")
	case "neighbourhoods":
		return lang.T(ctx, "admin.audit.collectionNeighbourhoods")
	case "webhooks":
		return lang.T(ctx, "admin.audit.collectionWebhooks")
	}
	return c
}

// auditObjectWords names one object of a collection in ctx's language: "Rule"; ok is false for a
// collection it has no words for.
func auditObjectWords(ctx context.Context, collection string) (words string, ok bool) {
	switch collection {
	case "buildings":
		return lang.T(ctx, "admin.audit.objectBuilding"), true
	case "floors":
		return lang.T(ctx, "admin.audit.objectFloor"), true
	case "resources":
		return lang.T(ctx, "admin.audit.objectResource"), true
	case "resourceRules":
		return lang.T(ctx, "admin.audit.objectRule"), true
	case "subcategories":
		return lang.T(ctx, "admin.audit.objectKind"), true
	case "features":
		return lang.T(ctx, "admin.audit.objectFeature"), true
	case "reservables":
		return lang.T(ctx, "admin.audit.objectService"), true
	case "closures":
		return lang.T(ctx, "admin.audit.objectClosure"), true
	case "users":
		return lang.T(ctx, "admin.audit.objectPerson"), true
	case "organizations":
		return lang.T(ctx, "admin.audit.objectOrganization"), true
	case "signInSettings":
		return lang.T(ctx, "admin.audit.objectSignInSettings"), true
	case "reportSettings":
		return lang.T(ctx, "admin.audit.objectReportSettings"), true
	case "emailDomains":
		return lang.T(ctx, "admin.audit.objectEmailDomain"), true
	case "scimTokens":
		return lang.T(ctx, "admin.audit.objectScimToken"), true
	case "scimGroups":
		return lang.T(ctx, "admin.audit.objectScimGroup"), true
	case "teams":
		return lang.T(ctx, "admin.audit.objectTeam"), true
	case "neighbourhoods":
		return lang.T(ctx, "admin.audit.objectNeighbourhood"), true
	case "userRules":
		return lang.T(ctx, "admin.audit.objectUserRule"), true
	case "mobileRoles":
		return lang.T(ctx, "admin.audit.objectMobileRole"), true
	case "webhooks":
		return lang.T(ctx, "admin.audit.objectWebhook"), true
	}
	return collection, false
}

// auditActionWords says what a change did, in ctx's language; ok is false for an action it has no words
// for.
func auditActionWords(ctx context.Context, action string) (words string, ok bool) {
	switch action {
	case "CREATE":
		return lang.T(ctx, "admin.audit.actionCreate"), true
	case "UPDATE":
		return lang.T(ctx, "admin.audit.actionUpdate"), true
	case "DELETE":
		return lang.T(ctx, "admin.audit.actionDelete"), true
	case "DEACTIVATE":
		return lang.T(ctx, "admin.audit.actionDeactivate"), true
	case "REACTIVATE":
		return lang.T(ctx, "admin.audit.actionReactivate"), true
	case "PLAN":
		return lang.T(ctx, "admin.audit.actionPlan"), true
	case "REVOKE":
		return lang.T(ctx, "admin.audit.actionRevoke"), true
	case "BIND":
		return lang.T(ctx, "admin.audit.actionBind"), true
	case "VERIFY":
		return lang.T(ctx, "admin.audit.actionVerify"), true
	}
	return action, false
}

// auditFilters reads the filters of the audit log's address; zones are those it may be read in, the
// default first. A bad one is a *kit.FormRefusal in words of ctx's language.
func auditFilters(ctx context.Context, q url.Values, zones []views.Option) (views.AuditFilterForm, booking.AuditFilter, error) {
	form := views.AuditFilterForm{Collection: q.Get("collection"), Object: q.Get("object"), Person: q.Get("person"),
		From: q.Get("from"), To: q.Get("to"), Zone: cmp.Or(q.Get("zone"), zones[0].Value)}
	f := booking.AuditFilter{Collection: form.Collection, Limit: AuditPageSize + 1}
	if form.Collection != "" && !slices.Contains(auditCollectionNames, form.Collection) {
		return form, f, kit.RefuseForm("%s", lang.T(ctx, "admin.audit.refuseWhat"))
	}
	if !slices.ContainsFunc(zones, func(o views.Option) bool { return o.Value == form.Zone }) {
		form.Zone = zones[0].Value
		return form, f, kit.RefuseForm("%s", lang.T(ctx, "admin.audit.refuseZone"))
	}
	loc, err := booking.Location(form.Zone)
	if err != nil {
		return form, f, err
	}
	for _, id := range []struct {
		v, label string
		into     **uuid.UUID
	}{{form.Object, lang.T(ctx, "admin.audit.object"), &f.ObjectID}, {form.Person, lang.T(ctx, "admin.audit.changedBy"), &f.ActorID}} {
		if id.v == "" {
			continue
		}
		u, err := uuid.Parse(id.v)
		if err != nil || len(id.v) != 36 {
			return form, f, kit.RefuseForm("%s", lang.T(ctx, "admin.audit.refuseID", map[string]any{"Label": id.label}))
		}
		*id.into = &u
	}
	day := func(v, label string) (*time.Time, error) {
		if v == "" {
			return nil, nil
		}
		d, err := time.ParseInLocation(time.DateOnly, v, loc)
		if err != nil || d.Year() < 2000 || d.Year() > 9999 {
			return nil, kit.RefuseForm("%s", lang.T(ctx, "admin.audit.refuseDate", map[string]any{"Label": label}))
		}
		return &d, nil
	}
	if f.From, err = day(form.From, lang.T(ctx, "admin.audit.from")); err != nil {
		return form, f, err
	}
	if f.To, err = day(form.To, lang.T(ctx, "admin.audit.until")); err != nil {
		return form, f, err
	}
	if f.To != nil {
		end := f.To.AddDate(0, 0, 1) // until the end of that day
		f.To = &end
	}
	if f.From != nil && f.To != nil && !f.To.After(*f.From) {
		return form, f, kit.RefuseForm("%s", lang.T(ctx, "admin.audit.refuseUntil"))
	}
	if v := q.Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return form, f, kit.RefuseForm("%s", lang.T(ctx, "admin.audit.refuseBefore"))
		}
		f.BeforeID = &n
	}
	return form, f, nil
}

// Audit is GET /admin/audit[?collection=&object=&person=&from=&to=&zone=&before=]: a page of the
// changes the filters choose, newest first. With htmx and a cursor (before), only the rows of that page.
func (s *Handlers) Audit(c echo.Context) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	buildings, _, err := listValues[layout.LayoutBuilding](ctx, s, actor, layout.Buildings)
	if err != nil {
		return err
	}
	users, _, err := listValues[layout.LayoutUser](ctx, s, actor, layout.Users)
	if err != nil {
		return err
	}
	p := views.AdminAudit{Chrome: s.Chrome(c, lang.T(ctx, "admin.audit.title")), Collections: auditCollections(ctx), Zones: auditZones(ctx, buildings)}
	for _, u := range users {
		p.People = append(p.People, views.Option{Value: u.ID, Label: strings.TrimSpace(u.Name + " " + u.Surname)})
	}
	slices.SortFunc(p.People, func(a, b views.Option) int { return booking.CompareNames(a.Label, b.Label) })

	q := c.QueryParams()
	form, filter, err := auditFilters(ctx, q, p.Zones)
	p.Filter, p.Zone = form, lang.Zone(ctx, form.Zone)
	if err != nil {
		if fr, ok := err.(*kit.FormRefusal); ok {
			p.Error = fr.Text
			return kit.Render(c, fr.Status, views.AdminAuditPage(p))
		}
		return err
	}
	entries, err := s.layout.Audit(ctx, actor, filter)
	if err != nil {
		return err
	}
	if len(entries) > AuditPageSize {
		entries = entries[:AuditPageSize]
		next := url.Values{}
		for _, k := range []string{"collection", "object", "person", "from", "to", "zone"} {
			if v := q.Get(k); v != "" {
				next.Set(k, v)
			}
		}
		next.Set("before", strconv.FormatInt(entries[len(entries)-1].ID, 10))
		p.More = "/admin/audit?" + next.Encode()
	}
	names, err := s.layout.AuditNames(ctx, actor, auditIDs(entries))
	if err != nil {
		return err
	}
	for _, e := range entries {
		p.Rows = append(p.Rows, auditRow(ctx, e, names, form.Zone))
	}
	if kit.IsHTMX(c) && filter.BeforeID != nil {
		return kit.Render(c, http.StatusOK, views.AuditRows(p))
	}
	return kit.Render(c, http.StatusOK, views.AdminAuditPage(p))
}

// auditZones are the time zones the audit log can be read in: those of the organization's buildings,
// once each, in the order of the buildings' names; UTC when it has none. The first is the default: the
// times of an object in no building (a rule, a person) and the dates of the filters are read in it. The
// zones are named in ctx's language.
func auditZones(ctx context.Context, buildings []layout.LayoutBuilding) []views.Option {
	slices.SortFunc(buildings, func(a, b layout.LayoutBuilding) int { return booking.CompareNames(a.Name, b.Name) })
	var out []views.Option
	for _, b := range buildings {
		if _, err := booking.Location(b.Timezone); err != nil || b.Timezone == "" {
			continue
		}
		if !slices.ContainsFunc(out, func(o views.Option) bool { return o.Value == b.Timezone }) {
			out = append(out, views.Option{Value: b.Timezone, Label: lang.Zone(ctx, b.Timezone)})
		}
	}
	if len(out) == 0 {
		out = append(out, views.Option{Value: "UTC", Label: "UTC"})
	}
	return out
}
