package console

import (
	"cmp"
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

// The audit log page of the admin console: every admin change, newest first, filtered by what changed,
// which object, who changed it and when, read a page at a time. It only reads.

// AuditPageSize is how many changes the audit log shows at a time.
const AuditPageSize = 50

// auditCollections name the collections of the audit log in words, in the order the filter offers them.
var auditCollections = []views.Option{
	{Value: "buildings", Label: "Buildings"}, {Value: "floors", Label: "Floors"},
	{Value: "resources", Label: "Desks and rooms"}, {Value: "resourceRules", Label: "Rules"},
	{Value: "subcategories", Label: "Kinds of space"}, {Value: "features", Label: "Features"},
	{Value: "reservables", Label: "Services"}, {Value: "closures", Label: "Closures"},
	{Value: "users", Label: "People"}, {Value: "organizations", Label: "Organization"},
	{Value: "signInSettings", Label: "Sign-in settings"}, {Value: "emailDomains", Label: "E-mail domains"},
	{Value: "scimTokens", Label: "SCIM tokens"}, {Value: "scimGroups", Label: "SCIM groups"},
	{Value: "webhooks", Label: "Webhooks"},
}

// auditObjectWords names one object of a collection: "Rule".
var auditObjectWords = map[string]string{
	"buildings": "Building", "floors": "Floor", "resources": "Desk or room", "resourceRules": "Rule",
	"subcategories": "Kind of space", "features": "Feature", "reservables": "Service", "closures": "Closure",
	"users": "Person", "organizations": "Organization", "signInSettings": "Sign-in settings",
	"emailDomains": "E-mail domain", "scimTokens": "SCIM token", "scimGroups": "SCIM group", "userRules": "User rule", "mobileRoles": "Mobile role",
	"webhooks": "Webhook endpoint",
}

// auditActionWords says what a change did.
var auditActionWords = map[string]string{
	"CREATE": "Created", "UPDATE": "Changed", "DELETE": "Deleted", "DEACTIVATE": "Deactivated",
	"REACTIVATE": "Reactivated", "PLAN": "New floor plan", "REVOKE": "Revoked",
	"BIND": "Linked to the identity provider", "VERIFY": "Verified",
}

// auditFilters reads the filters of the audit log's address; zones are those it may be read in, the
// default first. A bad one is a *kit.FormRefusal in words.
func auditFilters(q url.Values, zones []views.Option) (views.AuditFilterForm, booking.AuditFilter, error) {
	form := views.AuditFilterForm{Collection: q.Get("collection"), Object: q.Get("object"), Person: q.Get("person"),
		From: q.Get("from"), To: q.Get("to"), Zone: cmp.Or(q.Get("zone"), zones[0].Value)}
	f := booking.AuditFilter{Collection: form.Collection, Limit: AuditPageSize + 1}
	if form.Collection != "" && !slices.ContainsFunc(auditCollections, func(o views.Option) bool { return o.Value == form.Collection }) {
		return form, f, kit.RefuseForm("What: choose one of the list.")
	}
	if !slices.ContainsFunc(zones, func(o views.Option) bool { return o.Value == form.Zone }) {
		form.Zone = zones[0].Value
		return form, f, kit.RefuseForm("Time zone: choose one of the list.")
	}
	loc, err := booking.Location(form.Zone)
	if err != nil {
		return form, f, err
	}
	for _, id := range []struct {
		v, label string
		into     **uuid.UUID
	}{{form.Object, "Object", &f.ObjectID}, {form.Person, "Changed by", &f.ActorID}} {
		if id.v == "" {
			continue
		}
		u, err := uuid.Parse(id.v)
		if err != nil || len(id.v) != 36 {
			return form, f, kit.RefuseForm("%s: this address names no object; follow a link from the log again.", id.label)
		}
		*id.into = &u
	}
	day := func(v, label string) (*time.Time, error) {
		if v == "" {
			return nil, nil
		}
		d, err := time.ParseInLocation(time.DateOnly, v, loc)
		if err != nil || d.Year() < 2000 || d.Year() > 9999 {
			return nil, kit.RefuseForm("%s: choose a date.", label)
		}
		return &d, nil
	}
	if f.From, err = day(form.From, "From"); err != nil {
		return form, f, err
	}
	if f.To, err = day(form.To, "Until"); err != nil {
		return form, f, err
	}
	if f.To != nil {
		end := f.To.AddDate(0, 0, 1) // until the end of that day
		f.To = &end
	}
	if f.From != nil && f.To != nil && !f.To.After(*f.From) {
		return form, f, kit.RefuseForm("Until must be on or after From.")
	}
	if v := q.Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return form, f, kit.RefuseForm("This address for older changes is incomplete; start from the first page.")
		}
		f.BeforeID = &n
	}
	return form, f, nil
}

// Audit is GET /admin/audit[?collection=&object=&person=&from=&to=&zone=&before=]: a page of the
// changes the filters choose, newest first. With htmx and a cursor (before), only the rows of that page.
func (s *Handlers) Audit(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	buildings, _, err := listValues[layout.LayoutBuilding](ctx, s, actor, layout.Buildings)
	if err != nil {
		return err
	}
	users, _, err := listValues[layout.LayoutUser](ctx, s, actor, layout.Users)
	if err != nil {
		return err
	}
	p := views.AdminAudit{Chrome: s.Chrome(c, "Audit log"), Collections: auditCollections, Zones: auditZones(buildings)}
	for _, u := range users {
		p.People = append(p.People, views.Option{Value: u.ID, Label: strings.TrimSpace(u.Name + " " + u.Surname)})
	}
	slices.SortFunc(p.People, func(a, b views.Option) int { return booking.CompareNames(a.Label, b.Label) })

	q := c.QueryParams()
	form, filter, err := auditFilters(q, p.Zones)
	p.Filter, p.Zone = form, views.ZoneLabel(form.Zone)
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
		p.Rows = append(p.Rows, auditRow(e, names, form.Zone))
	}
	if kit.IsHTMX(c) && filter.BeforeID != nil {
		return kit.Render(c, http.StatusOK, views.AuditRows(p))
	}
	return kit.Render(c, http.StatusOK, views.AdminAuditPage(p))
}

// auditZones are the time zones the audit log can be read in: those of the organization's buildings,
// once each, in the order of the buildings' names; UTC when it has none. The first is the default: the
// times of an object in no building (a rule, a person) and the dates of the filters are read in it.
func auditZones(buildings []layout.LayoutBuilding) []views.Option {
	slices.SortFunc(buildings, func(a, b layout.LayoutBuilding) int { return booking.CompareNames(a.Name, b.Name) })
	var out []views.Option
	for _, b := range buildings {
		if _, err := booking.Location(b.Timezone); err != nil || b.Timezone == "" {
			continue
		}
		if !slices.ContainsFunc(out, func(o views.Option) bool { return o.Value == b.Timezone }) {
			out = append(out, views.Option{Value: b.Timezone, Label: views.ZoneLabel(b.Timezone)})
		}
	}
	if len(out) == 0 {
		out = append(out, views.Option{Value: "UTC", Label: "UTC"})
	}
	return out
}
