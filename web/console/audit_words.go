package console

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// auditRefs are the fields of the import format that hold ids of other objects, and the collection of
// what each names.
var auditRefs = map[string]string{
	"buildingId": "buildings", "floorId": "floors", "resourceId": "resources", "subcategoryId": "subcategories",
	"resourceRuleId": "resourceRules", "featureIds": "features", "reservableIds": "reservables", "userRule.id": "userRules",
	"mobileRole.id": "mobileRoles", "membersAdded": "users", "membersRemoved": "users", "scimGroupId": "scimGroups",
	"teamId": "teams",
}

// auditIDs lists the ids a page of the audit log names: each entry's object, and the objects its fields
// refer to.
func auditIDs(entries []booking.AuditEntry) []uuid.UUID {
	seen := map[uuid.UUID]bool{}
	var ids []uuid.UUID
	add := func(v any) {
		s, _ := v.(string)
		if id, err := uuid.Parse(s); err == nil && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, e := range entries {
		add(e.ObjectID.String())
		for _, doc := range []json.RawMessage{e.Before, e.After} {
			for k, v := range flatten(doc) {
				if _, ok := auditRefs[k]; !ok {
					continue
				}
				if list, ok := v.([]any); ok {
					for _, x := range list {
						add(x)
					}
					continue
				}
				add(v)
			}
		}
	}
	return ids
}

// auditReader writes the values of one entry in words of ctx's language: ids as names, instants in the
// zone of the object's building.
type auditReader struct {
	ctx        context.Context
	collection string
	names      map[uuid.UUID]booking.ObjectName
	loc        *time.Location
	zone       string // the zone's words after a time that is not in the page's zone: " New York time"
}

// auditRow shows one change in words. pageZone is the zone the page is read in; the times of an object
// in a building are read in the building's zone, and labelled when that is another. The words are in
// ctx's language.
func auditRow(ctx context.Context, e booking.AuditEntry, names map[uuid.UUID]booking.ObjectName, pageZone string) views.AuditRow {
	collection := string(e.Collection)
	rd := auditReader{ctx: ctx, collection: collection, names: names}
	zone := cmp.Or(names[e.ObjectID].Timezone, pageZone)
	loc, err := booking.Location(zone)
	if err != nil {
		loc, zone = time.UTC, "UTC"
	}
	rd.loc = loc
	if zone != pageZone {
		rd.zone = " " + lang.Zone(ctx, zone)
	}
	what, _ := auditObjectWords(ctx, collection)
	action, _ := auditActionWords(ctx, string(e.Action))
	r := views.AuditRow{
		When:        rd.instant(e.At),
		Who:         cmp.Or(e.ActorName, lang.T(ctx, "admin.audit.theSystem")),
		What:        what,
		Action:      action,
		HistoryHref: "/admin/audit?object=" + e.ObjectID.String(),
		Changes:     rd.changes(e.Before, e.After),
	}
	if e.ActorID == nil && e.ActorName == "" {
		r.Who = lang.T(ctx, "admin.audit.provisioning")
	}
	// The name the object had then, else the one it has now (or had when it was deleted).
	for _, doc := range []json.RawMessage{e.After, e.Before} {
		var named struct{ Name, Surname, Reason, Domain string }
		if json.Unmarshal(doc, &named) == nil && cmp.Or(named.Name, named.Reason, named.Domain) != "" {
			r.Object = strings.TrimSpace(cmp.Or(named.Name, named.Reason, named.Domain) + " " + named.Surname)
			break
		}
	}
	if r.Object == "" {
		r.Object = rd.name(e.ObjectID, collection)
	}
	r.ObjectHref = auditObjectHref(collection, e.ObjectID)
	return r
}

// instant writes an instant in the zone of the entry: "Tue 1 Dec 2026, 09:00", followed by the zone's
// words when that is not the page's.
func (rd auditReader) instant(t time.Time) string {
	t = t.In(rd.loc)
	// The zero time as now: the date always shows its year.
	return lang.T(rd.ctx, "admin.audit.instant", map[string]any{"Day": lang.Day(rd.ctx, t, time.Time{}), "Time": lang.Clock(t)}) + rd.zone
}

// name names the object with the id, of the collection ("floors"): "Annex", "Annex (deleted)", "Rule of
// Goya", "Rule without a name"; "Unknown floor" when the organization has no such object.
func (rd auditReader) name(id uuid.UUID, collection string) string {
	n, ok := rd.names[id]
	if !ok {
		what, _ := auditObjectWords(rd.ctx, collection)
		return lang.T(rd.ctx, "admin.audit.unknown", map[string]any{"What": what, "Noun": strings.ToLower(what)})
	}
	name := n.Name
	if name == "" && n.Collection == "resourceRules" {
		name = ruleOf(rd.ctx, n.UsedBy, n.UsedByCount)
	}
	if name == "" {
		what, ok := auditObjectWords(rd.ctx, n.Collection)
		if !ok {
			what, _ = auditObjectWords(rd.ctx, collection)
		}
		name = lang.T(rd.ctx, "admin.audit.withoutName", map[string]any{"What": strings.ToUpper(what[:1]) + what[1:]})
	}
	if n.Deleted {
		name = lang.T(rd.ctx, "admin.audit.deleted", map[string]any{"Name": name})
	}
	return name
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

// changes compares an object before and after a change, field by field, in words; fields that did
// not change are left out, and so are the ids every object carries.
func (rd auditReader) changes(before, after json.RawMessage) []views.FieldChange {
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
		ch := views.FieldChange{Field: fieldWords(rd.ctx, k), Before: "—", After: "—"}
		if bok {
			ch.Before = rd.value(k, bv)
		}
		if aok {
			ch.After = rd.value(k, av)
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

// fieldWords names a field of the import format in words of ctx's language: "maximumDuration" is
// "Longest booking", and others are split where their case changes: "address.city" is "Address city".
func fieldWords(ctx context.Context, key string) string {
	if w, ok := knownFieldWords(ctx, key); ok {
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

// auditEnums are the fields that hold one of a few choices.
var auditEnums = map[string]bool{"status": true, "category": true, "accessControlType": true, "type": true, "verifiedBy": true}

// enumValueWords says in words of ctx's language a choice of a field of auditEnums, as the admin forms
// say it; "" for a choice it has no words for.
func enumValueWords(ctx context.Context, key, v string) string {
	switch key + ":" + v {
	case "status:ACTIVATED":
		return views.StatusWordsIn(ctx, true)
	case "status:DEACTIVATED":
		return views.StatusWordsIn(ctx, false)
	case "category:WORKSTATION":
		return lang.T(ctx, "admin.catalogue.desks")
	case "category:SPACE":
		return lang.T(ctx, "admin.catalogue.rooms")
	case "accessControlType:ANY":
		return lang.T(ctx, "admin.audit.accessAny")
	case "accessControlType:QR":
		return lang.T(ctx, "admin.audit.accessQR")
	case "type:SERVICE_INTERNAL":
		return lang.T(ctx, "admin.audit.typeInternal")
	case "type:SERVICE_EXTERNAL":
		return lang.T(ctx, "admin.audit.typeExternal")
	case "verifiedBy:DNS":
		return lang.T(ctx, "admin.audit.verifiedByDNS")
	case "verifiedBy:OPERATOR":
		return lang.T(ctx, "admin.audit.verifiedByOperator")
	}
	return ""
}

// auditInstants are the fields that hold an instant, in milliseconds since the epoch.
var auditInstants = map[string]bool{"startDate": true, "endDate": true}

// value writes a field's value for a person: the names of the objects it refers to, instants as dates,
// times of day and durations from milliseconds, choices and languages in words, yes and no, lists joined;
// all in words of rd's language.
func (rd auditReader) value(key string, v any) string {
	ctx := rd.ctx
	switch x := v.(type) {
	case nil:
		return "—"
	case bool:
		if x {
			return lang.T(ctx, "admin.audit.yes")
		}
		return lang.T(ctx, "admin.audit.no")
	case float64:
		ms := int64(x)
		switch key {
		case "startTime", "endTime", "allDayBookingsCheckInMS":
			if key == "endTime" && (ms == 0 || ms >= msDay) {
				return "24:00"
			}
			return kit.HHMM(ms)
		case "maximumDuration", "maximumAdvance":
			if ms == 0 {
				return lang.T(ctx, "admin.audit.noLimit")
			}
			return views.DurationWords(ctx, time.Duration(ms)*time.Millisecond)
		case "advanceCheckIn", "expirationMargin", "minimumCancellationMs", "standardDeliveryTimeMs":
			return views.DurationWords(ctx, time.Duration(ms)*time.Millisecond)
		}
		if auditInstants[key] {
			return rd.instant(time.UnixMilli(ms))
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		if x == "" {
			return "—"
		}
		if collection, ok := auditRefs[key]; ok {
			if id, err := uuid.Parse(x); err == nil {
				return rd.name(id, collection)
			}
		}
		switch {
		case key == "role" || key == "defaultRole" || strings.HasPrefix(key, "groupRoles."):
			return views.RoleWord(ctx, x)
		case key == "userLanguage":
			return views.LanguageWord(ctx, x)
		case key == "defaultBookingsVisibleTo":
			return views.VisibilityWords(ctx, x)
		case key == "timezone":
			return lang.Zone(ctx, x)
		case key == "image" && strings.HasPrefix(x, "/plans/"):
			return lang.T(ctx, "admin.audit.uploadedPlan")
		}
		if auditEnums[key] {
			return cmp.Or(enumValueWords(ctx, key, x), enumWords(x))
		}
		return x
	case []any:
		if key == "keptBookingIds" || key == "releasedBookings" {
			return lang.N(ctx, "admin.audit.bookings", len(x))
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = rd.value(key, e)
		}
		if len(parts) == 0 {
			return lang.T(ctx, "admin.audit.none")
		}
		return strings.Join(parts, ", ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// enumWords writes a choice the audit log has no words for, such as OFFICE or SERVICE, as a word
// ("Office"); a value not in capitals stays as it is.
func enumWords(v string) string {
	if len(v) < 2 || strings.TrimFunc(v, func(r rune) bool { return r == '_' || unicode.IsUpper(r) }) != "" {
		return v
	}
	return v[:1] + strings.ToLower(strings.ReplaceAll(v[1:], "_", " "))
}
