package web

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/admin"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/layoutimport"
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
}

// auditObjectWords names one object of a collection: "Rule".
var auditObjectWords = map[string]string{
	"buildings": "Building", "floors": "Floor", "resources": "Desk or room", "resourceRules": "Rule",
	"subcategories": "Kind of space", "features": "Feature", "reservables": "Service", "closures": "Closure",
	"users": "Person", "organizations": "Organization",
}

// auditActionWords says what a change did.
var auditActionWords = map[string]string{
	"CREATE": "Created", "UPDATE": "Changed", "DELETE": "Deleted", "DEACTIVATE": "Deactivated",
	"REACTIVATE": "Reactivated", "PLAN": "New floor plan", "REVOKE": "Revoked",
}

// auditFilters reads the filters of the audit log's address. A bad one is a *formRefusal in words.
func auditFilters(q url.Values, loc *time.Location) (views.AuditFilterForm, booking.AuditFilter, error) {
	form := views.AuditFilterForm{Collection: q.Get("collection"), Object: q.Get("object"), Person: q.Get("person"),
		From: q.Get("from"), To: q.Get("to")}
	f := booking.AuditFilter{Collection: form.Collection, Limit: AuditPageSize + 1}
	if form.Collection != "" && !slices.ContainsFunc(auditCollections, func(o views.Option) bool { return o.Value == form.Collection }) {
		return form, f, refuseForm("What: choose one of the list.")
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
			return form, f, refuseForm("%s: this address names no object; follow a link from the log again.", id.label)
		}
		*id.into = &u
	}
	day := func(v, label string) (*time.Time, error) {
		if v == "" {
			return nil, nil
		}
		d, err := time.ParseInLocation(time.DateOnly, v, loc)
		if err != nil || d.Year() < 2000 || d.Year() > 9999 {
			return nil, refuseForm("%s: choose a date.", label)
		}
		return &d, nil
	}
	var err error
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
		return form, f, refuseForm("Until must be on or after From.")
	}
	if v := q.Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return form, f, refuseForm("This address for older changes is incomplete; start from the first page.")
		}
		f.BeforeID = &n
	}
	return form, f, nil
}

// pageAdminAudit is GET /admin/audit[?collection=&object=&person=&from=&to=&before=]: a page of the
// changes the filters choose, newest first. With htmx and a cursor (before), only the rows of that page.
func (s *Server) pageAdminAudit(c echo.Context) error {
	ctx, actor := c.Request().Context(), actorFrom(c)
	buildings, _, err := listObjects[layoutimport.LayoutBuilding](ctx, s.admin, actor, admin.Buildings)
	if err != nil {
		return err
	}
	loc, zone := auditZone(buildings)
	users, _, err := listObjects[layoutimport.LayoutUser](ctx, s.admin, actor, admin.Users)
	if err != nil {
		return err
	}
	p := views.AdminAudit{Chrome: s.chrome(c, "Audit log"), Collections: auditCollections, Zone: zone}
	for _, u := range users {
		p.People = append(p.People, views.Option{Value: u.ID, Label: strings.TrimSpace(u.Name + " " + u.Surname)})
	}
	slices.SortFunc(p.People, func(a, b views.Option) int { return cmp.Compare(fold(a.Label), fold(b.Label)) })

	q := c.QueryParams()
	form, filter, err := auditFilters(q, loc)
	p.Filter = form
	if err != nil {
		if fr, ok := err.(*formRefusal); ok {
			p.Error = fr.text
			return s.render(c, fr.status, views.AdminAuditPage(p))
		}
		return err
	}
	entries, err := s.admin.Audit(ctx, actor, filter)
	if err != nil {
		return err
	}
	if len(entries) > AuditPageSize {
		entries = entries[:AuditPageSize]
		next := url.Values{}
		for _, k := range []string{"collection", "object", "person", "from", "to"} {
			if v := q.Get(k); v != "" {
				next.Set(k, v)
			}
		}
		next.Set("before", strconv.FormatInt(entries[len(entries)-1].ID, 10))
		p.More = "/admin/audit?" + next.Encode()
	}
	for _, e := range entries {
		p.Rows = append(p.Rows, auditRow(e, loc))
	}
	if isHTMX(c) && filter.BeforeID != nil {
		return s.render(c, http.StatusOK, views.AuditRows(p))
	}
	return s.render(c, http.StatusOK, views.AdminAuditPage(p))
}

// auditZone is the time zone the audit log is read in: the organization's building's, the first by name
// when it has several; UTC when it has none.
func auditZone(buildings []layoutimport.LayoutBuilding) (*time.Location, string) {
	slices.SortFunc(buildings, func(a, b layoutimport.LayoutBuilding) int { return cmp.Compare(a.Name, b.Name) })
	for _, b := range buildings {
		if loc, err := time.LoadLocation(b.Timezone); err == nil && b.Timezone != "" {
			return loc, views.ZoneLabel(b.Timezone)
		}
	}
	return time.UTC, "UTC"
}

// auditRow shows one change in words.
func auditRow(e booking.AuditEntry, loc *time.Location) views.AuditRow {
	collection := string(e.Collection)
	r := views.AuditRow{
		When:        e.At.In(loc).Format("Mon 2 Jan 2006, 15:04"),
		Who:         cmp.Or(e.ActorName, "The system"),
		What:        cmp.Or(auditObjectWords[collection], collection),
		Action:      cmp.Or(auditActionWords[string(e.Action)], string(e.Action)),
		Object:      e.ObjectID.String(),
		HistoryHref: "/admin/audit?object=" + e.ObjectID.String(),
		Changes:     auditChanges(e.Before, e.After),
	}
	if e.ActorID == nil && e.ActorName == "" {
		r.Who = "Provisioning or the system"
	}
	for _, doc := range []json.RawMessage{e.After, e.Before} {
		var named struct{ Name, Surname, Reason string }
		if json.Unmarshal(doc, &named) == nil && cmp.Or(named.Name, named.Reason) != "" {
			r.Object = strings.TrimSpace(cmp.Or(named.Name, named.Reason) + " " + named.Surname)
			break
		}
	}
	if r.Object == e.ObjectID.String() && (len(e.After) > 0 || len(e.Before) > 0) {
		r.Object = r.What + " without a name"
	}
	r.ObjectHref = auditObjectHref(collection, e.ObjectID)
	return r
}

// auditObjectHref is the admin page of an object, "" when it has none of its own.
func auditObjectHref(collection string, id uuid.UUID) string {
	switch collection {
	case "buildings", "floors", "resources":
		return "/admin/" + collection + "/" + id.String()
	case "resourceRules":
		return "/admin/rules#rule-" + id.String()
	case "subcategories", "features", "reservables":
		return "/admin/catalogue#" + collection + "-" + id.String()
	case "users":
		return "/admin/people"
	case "closures":
		return "/admin/closures"
	}
	return ""
}

// auditChanges compares an object before and after a change, field by field, in words; fields that did
// not change are left out, and so are the ids every object carries.
func auditChanges(before, after json.RawMessage) []views.FieldChange {
	b, a := flatten(before), flatten(after)
	keys := map[string]bool{}
	for k := range b {
		keys[k] = true
	}
	for k := range a {
		keys[k] = true
	}
	var out []views.FieldChange
	for k := range keys {
		if k == "id" || k == "organizationId" {
			continue
		}
		bv, bok := b[k]
		av, aok := a[k]
		if bok && aok && fmt.Sprint(bv) == fmt.Sprint(av) {
			continue
		}
		ch := views.FieldChange{Field: fieldWords(k), Before: "—", After: "—"}
		if bok {
			ch.Before = valueWords(k, bv)
		}
		if aok {
			ch.After = valueWords(k, av)
		}
		out = append(out, ch)
	}
	slices.SortFunc(out, func(x, y views.FieldChange) int { return cmp.Compare(x.Field, y.Field) })
	return out
}

// flatten reads a JSON object into its fields, nested objects as "address.city". Anything else is empty.
func flatten(doc json.RawMessage) map[string]any {
	out := map[string]any{}
	var m map[string]any
	if len(doc) == 0 || json.Unmarshal(doc, &m) != nil {
		return out
	}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+k+".", sub)
				continue
			}
			out[prefix+k] = v
		}
	}
	walk("", m)
	return out
}

// knownFieldWords name the fields of the import format whose names do not read well split into words.
var knownFieldWords = map[string]string{
	"startTime": "Bookable from", "endTime": "Bookable until", "maximumDuration": "Longest booking",
	"maximumAdvance": "How far ahead", "advanceCheckIn": "Check-in opens before the start",
	"expirationMargin": "Check-in closes after the start", "allDayBookingsCheckInMS": "Whole-day check-in by",
	"allDayBookings": "Whole-day bookings", "requiresApproval": "Needs approval",
	"minimumCancellationMs": "Cancel at least this long before", "standardDeliveryTimeMs": "Delivered after the start",
	"chooseQuantity": "People choose the quantity", "chooseDeliveryTime": "People choose the delivery time",
	"allowComments": "People may add a comment", "userLanguage": "Language", "email": "E-mail",
	"canBeSearched": "Can be searched", "resourceRuleId": "Rule", "subcategoryId": "Kind of space",
	"floorId": "Floor", "buildingId": "Building", "featureIds": "Features", "reservableIds": "Services",
	"posterCode": "Poster code", "name": "Name", "surname": "Last name", "role": "Role", "active": "Can sign in",
	"additionalServicesActive": "Additional services",
}

// fieldWords names a field of the import format in words: "maximumDuration" is "Longest booking", and
// others are split where their case changes: "address.city" is "Address city".
func fieldWords(key string) string {
	if w, ok := knownFieldWords[key]; ok {
		return w
	}
	var b strings.Builder
	for i, r := range key {
		switch {
		case r == '.':
			b.WriteRune(' ')
		case unicode.IsUpper(r) && i > 0:
			b.WriteRune(' ')
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" {
		return key
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// valueWords writes a field's value for a person: times of day and durations from milliseconds, yes and
// no, lists joined.
func valueWords(key string, v any) string {
	switch x := v.(type) {
	case nil:
		return "—"
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case float64:
		ms := int64(x)
		switch key {
		case "startTime", "endTime", "allDayBookingsCheckInMS":
			if key == "endTime" && ms == 0 {
				return "24:00"
			}
			return hhmm(ms)
		case "maximumDuration", "maximumAdvance":
			if ms == 0 {
				return "no limit"
			}
			return booking.DurationWords(time.Duration(ms) * time.Millisecond)
		case "advanceCheckIn", "expirationMargin", "minimumCancellationMs", "standardDeliveryTimeMs":
			return booking.DurationWords(time.Duration(ms) * time.Millisecond)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		if x == "" {
			return "—"
		}
		if key == "role" {
			return views.RoleWord(x)
		}
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = valueWords(key, e)
		}
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, ", ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}
