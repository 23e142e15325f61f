package console

import (
	"cmp"
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
)

// auditRefs are the fields of the import format that hold ids of other objects, and what each names.
var auditRefs = map[string]string{
	"buildingId": "building", "floorId": "floor", "resourceId": "desk or room", "subcategoryId": "kind of space",
	"resourceRuleId": "rule", "featureIds": "feature", "reservableIds": "service", "userRule.id": "user rule",
	"mobileRole.id": "mobile role",
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

// auditReader writes the values of one entry in words: ids as names, instants in the zone of the
// object's building.
type auditReader struct {
	collection string
	names      map[uuid.UUID]booking.ObjectName
	loc        *time.Location
	zone       string // the zone's words after a time that is not in the page's zone: " New York time"
}

// auditRow shows one change in words. pageZone is the zone the page is read in; the times of an object
// in a building are read in the building's zone, and labelled when that is another.
func auditRow(e booking.AuditEntry, names map[uuid.UUID]booking.ObjectName, pageZone string) views.AuditRow {
	collection := string(e.Collection)
	rd := auditReader{collection: collection, names: names}
	zone := cmp.Or(names[e.ObjectID].Timezone, pageZone)
	loc, err := booking.Location(zone)
	if err != nil {
		loc, zone = time.UTC, "UTC"
	}
	rd.loc = loc
	if zone != pageZone {
		rd.zone = " " + views.ZoneLabel(zone)
	}
	r := views.AuditRow{
		When:        e.At.In(loc).Format("Mon 2 Jan 2006, 15:04") + rd.zone,
		Who:         cmp.Or(e.ActorName, "The system"),
		What:        cmp.Or(auditObjectWords[collection], collection),
		Action:      cmp.Or(auditActionWords[string(e.Action)], string(e.Action)),
		HistoryHref: "/admin/audit?object=" + e.ObjectID.String(),
		Changes:     rd.changes(e.Before, e.After),
	}
	if e.ActorID == nil && e.ActorName == "" {
		r.Who = "Provisioning or the system"
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
		r.Object = rd.name(e.ObjectID, strings.ToLower(r.What))
	}
	r.ObjectHref = auditObjectHref(collection, e.ObjectID)
	return r
}

// name names the object with the id, of the kind noun ("floor"): "Annex", "Annex (deleted)", "Rule of
// Goya", "Rule without a name"; "Unknown floor" when the organization has no such object.
func (rd auditReader) name(id uuid.UUID, noun string) string {
	n, ok := rd.names[id]
	if !ok {
		return "Unknown " + noun
	}
	name := n.Name
	if name == "" && n.Collection == "resourceRules" {
		name = ruleOf(n.UsedBy, n.UsedByCount)
	}
	if name == "" {
		what := cmp.Or(auditObjectWords[n.Collection], noun)
		name = strings.ToUpper(what[:1]) + what[1:] + " without a name"
	}
	if n.Deleted {
		name += " (deleted)"
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
		ch := views.FieldChange{Field: fieldWords(k), Before: "—", After: "—"}
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
	"additionalServicesActive": "Additional services", "accessControlType": "Access control",
	"category": "People book", "visible": "Visible to people booking", "hideBookings": "Hide who booked them",
	"startDate": "From", "endDate": "Until", "keptBookingIds": "Bookings kept", "releasedBookings": "Bookings released",
	"resourceId": "Desk or room", "timezone": "Time zone", "oidcSubject": "Identity provider's subject",
	"verifiedBy": "Verified by", "defaultRole": "Role of new people", "userRule.id": "User rule",
	"mobileRole.id": "Mobile role",
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

// auditEnums say in words the values of fields that hold one of a few choices, as the admin forms say them.
var auditEnums = map[string]map[string]string{
	"status":            {"ACTIVATED": views.StatusWords(true), "DEACTIVATED": views.StatusWords(false)},
	"category":          {"WORKSTATION": "Desks", "SPACE": "Rooms"},
	"accessControlType": {"ANY": "Any", "QR": "QR code"},
	"type":              {"SERVICE_INTERNAL": "Internal", "SERVICE_EXTERNAL": "External"},
	"verifiedBy":        {"DNS": "a DNS record", "OPERATOR": "the operator"},
}

// auditInstants are the fields that hold an instant, in milliseconds since the epoch.
var auditInstants = map[string]bool{"startDate": true, "endDate": true}

// value writes a field's value for a person: the names of the objects it refers to, instants as dates,
// times of day and durations from milliseconds, choices and languages in words, yes and no, lists joined.
func (rd auditReader) value(key string, v any) string {
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
			if key == "endTime" && (ms == 0 || ms >= msDay) {
				return "24:00"
			}
			return kit.HHMM(ms)
		case "maximumDuration", "maximumAdvance":
			if ms == 0 {
				return "no limit"
			}
			return booking.DurationWords(time.Duration(ms) * time.Millisecond)
		case "advanceCheckIn", "expirationMargin", "minimumCancellationMs", "standardDeliveryTimeMs":
			return booking.DurationWords(time.Duration(ms) * time.Millisecond)
		}
		if auditInstants[key] {
			return time.UnixMilli(ms).In(rd.loc).Format("Mon 2 Jan 2006, 15:04") + rd.zone
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		if x == "" {
			return "—"
		}
		if noun, ok := auditRefs[key]; ok {
			if id, err := uuid.Parse(x); err == nil {
				return rd.name(id, noun)
			}
		}
		switch {
		case key == "role" || key == "defaultRole" || strings.HasPrefix(key, "groupRoles."):
			return views.RoleWord(x)
		case key == "userLanguage":
			return views.LanguageWord(x)
		case key == "timezone":
			return views.ZoneLabel(x)
		case key == "image" && strings.HasPrefix(x, "/plans/"):
			return "an uploaded plan"
		}
		if words, ok := auditEnums[key]; ok {
			return cmp.Or(words[x], enumWords(x))
		}
		return x
	case []any:
		if key == "keptBookingIds" || key == "releasedBookings" {
			if len(x) == 1 {
				return "1 booking"
			}
			return strconv.Itoa(len(x)) + " bookings"
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = rd.value(key, e)
		}
		if len(parts) == 0 {
			return "none"
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
