package console

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

// The closures page of the admin console: the organization's closures, and a form that closes a building
// on given days or takes a floor or a resource out of service for a while. Closures are the `closures`
// collection of the admin domain; before saving one, the page asks the domain which bookings it would
// cover and lets the admin cancel or keep them.

// maxClosuresShown is how many closures the page lists at once, earliest first.
const maxClosuresShown = 500

// maxCoveredShown is how many of the bookings inside a closure the page names.
const maxCoveredShown = 50

// closureWords names the fields of a closure as the form does.
var closureWords = map[string]string{
	"buildingId": "What", "floorId": "What", "resourceId": "What", "startDate": "From", "endDate": "Until",
	"reason": "Reason", "overlapping": "Bookings inside",
}

// closureTarget is something a closure can close: a building, a floor or a resource.
type closureTarget struct {
	kind     string // "building", "floor", "resource"
	id       string
	label    string // "Building Madrid", "Floor 1 (Madrid)", "Goya (Madrid, Floor 1)"
	timezone string // its building's
}

// closureTargets reads the organization's buildings, floors and resources, by the value of the "What"
// select ("floor:<id>"), named in ctx's language.
func (s *Handlers) closureTargets(ctx context.Context, actor booking.User) (map[string]closureTarget, []views.ClosureTargetGroup, error) {
	buildings, err := list[layout.LayoutBuilding](ctx, s, actor, layout.Buildings)
	if err != nil {
		return nil, nil, err
	}
	floors, err := list[layout.LayoutFloor](ctx, s, actor, layout.Floors)
	if err != nil {
		return nil, nil, err
	}
	resources, err := list[layout.LayoutResource](ctx, s, actor, layout.Resources)
	if err != nil {
		return nil, nil, err
	}
	targets := map[string]closureTarget{}
	groups := []views.ClosureTargetGroup{{Label: lang.T(ctx, "admin.closures.groupBuildings")}, {Label: lang.T(ctx, "admin.closures.groupFloors")}, {Label: lang.T(ctx, "admin.closures.groupResources")}}
	add := func(group int, t closureTarget) {
		key := t.kind + ":" + t.id
		targets[key] = t
		groups[group].Options = append(groups[group].Options, views.AdminOption{Value: key, Label: t.label})
	}
	type place struct{ name, timezone string }
	inBuilding, onFloor := map[string]place{}, map[string]place{}
	for _, b := range buildings {
		inBuilding[b.V.ID] = place{b.V.Name, b.V.Timezone}
		add(0, closureTarget{"building", b.V.ID, lang.T(ctx, "admin.closures.building", map[string]any{"Name": b.V.Name}), b.V.Timezone})
	}
	for _, f := range floors {
		b := inBuilding[f.V.BuildingID]
		onFloor[f.V.ID] = place{b.name + ", " + f.V.Name, b.timezone}
		add(1, closureTarget{"floor", f.V.ID, f.V.Name + " (" + b.name + ")", b.timezone})
	}
	for _, r := range resources {
		f := onFloor[r.V.FloorID]
		add(2, closureTarget{"resource", r.V.ID, r.V.Name + " (" + f.name + ")", f.timezone})
	}
	for i := range groups {
		slices.SortFunc(groups[i].Options, func(a, b views.AdminOption) int {
			return cmp.Or(booking.CompareNames(a.Label, b.Label), strings.Compare(a.Value, b.Value))
		})
	}
	return targets, groups, nil
}

// adminClosures reads the closures page, with the form f.
func (s *Handlers) adminClosures(c echo.Context, f views.ClosureForm) (views.AdminClosures, error) {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	targets, groups, err := s.closureTargets(ctx, actor)
	if err != nil {
		return views.AdminClosures{}, err
	}
	closures, err := list[layout.LayoutClosure](ctx, s, actor, layout.Closures)
	if err != nil {
		return views.AdminClosures{}, err
	}
	if f.ID == "" {
		f.ID = uuid.NewString()
	}
	p := views.AdminClosures{Chrome: s.Chrome(c, lang.T(ctx, "admin.closures.title")), Targets: groups, Form: f}
	now := s.bookings.Now()
	slices.SortFunc(closures, func(a, b object[layout.LayoutClosure]) int {
		return cmp.Or(cmp.Compare(a.V.StartDate, b.V.StartDate), strings.Compare(a.V.ID, b.V.ID))
	})
	for _, o := range closures {
		cl := o.V
		if !time.UnixMilli(cl.EndDate).After(now) {
			p.Ended++
			continue
		}
		if len(p.Closures) == maxClosuresShown {
			p.Unshown++
			continue
		}
		t := targets[closureTargetKey(cl)]
		iv := booking.Interval{Start: time.UnixMilli(cl.StartDate), End: time.UnixMilli(cl.EndDate)}
		p.Closures = append(p.Closures, views.ClosureRow{
			ID: cl.ID, ETag: o.ETag, What: t.label, When: booking.ClosureSpanOf(iv, t.timezone, now).In(ctx), Reason: cl.Reason,
			Kept: len(cl.KeptBookingIDs),
		})
	}
	return p, nil
}

// closureTargetKey is the value of the "What" select for what the closure closes.
func closureTargetKey(c layout.LayoutClosure) string {
	switch {
	case c.ResourceID != "":
		return "resource:" + c.ResourceID
	case c.FloorID != "":
		return "floor:" + c.FloorID
	}
	return "building:" + c.BuildingID
}

// Closures is GET /admin/closures.
func (s *Handlers) Closures(c echo.Context) error {
	p, err := s.adminClosures(c, views.ClosureForm{})
	if err != nil {
		return err
	}
	id, msg := s.savedFlash(c)
	p.Notice = msg
	for i := range p.Closures {
		if id != "" && p.Closures[i].ID == id {
			p.Closures[i].Saved, p.Notice = msg, ""
		}
	}
	return kit.Render(c, http.StatusOK, views.AdminClosuresPage(p))
}

// readClosureForm reads the closure form: what was typed, for the form to show again, and the closure it
// describes. A building closes on whole days (the last one included), a floor or a resource from–until;
// both in the building's time zone. A refusal is in ctx's language.
func readClosureForm(ctx context.Context, form url.Values, targets map[string]closureTarget, org uuid.UUID) (views.ClosureForm, layout.LayoutClosure, error) {
	f := views.ClosureForm{
		ID: textField(form, "id"), Target: textField(form, "target"), FromDate: textField(form, "fromDate"), ToDate: textField(form, "toDate"),
		From: textField(form, "from"), Until: textField(form, "until"), Reason: textField(form, "reason"),
	}
	var cl layout.LayoutClosure
	id, err := uuid.Parse(f.ID)
	if err != nil || len(f.ID) != 36 {
		f.ID = uuid.NewString()
		id = uuid.MustParse(f.ID)
	}
	t, ok := targets[f.Target]
	if !ok {
		f.Target = ""
		return f, cl, kit.RefuseForm("%s", lang.T(ctx, "admin.closures.refuseWhat"))
	}
	loc, err := booking.Location(t.timezone)
	if err != nil {
		loc = time.UTC
	}
	var start, end time.Time
	if t.kind == "building" {
		first, err1 := time.ParseInLocation(time.DateOnly, f.FromDate, loc)
		last, err2 := time.ParseInLocation(time.DateOnly, f.ToDate, loc)
		if err1 != nil || err2 != nil {
			return f, cl, kit.RefuseForm("%s", lang.T(ctx, "admin.closures.refuseDays"))
		}
		if last.Before(first) {
			return f, cl, kit.RefuseForm("%s", lang.T(ctx, "admin.closures.refuseLastDay"))
		}
		start, end = first, time.Date(last.Year(), last.Month(), last.Day()+1, 0, 0, 0, 0, loc)
	} else {
		var err1, err2 error
		start, err1 = parseLocalDateTime(f.From, loc)
		end, err2 = parseLocalDateTime(f.Until, loc)
		if err1 != nil || err2 != nil {
			return f, cl, kit.RefuseForm("%s", lang.T(ctx, "admin.closures.refuseTimes"))
		}
		if !end.After(start) {
			return f, cl, kit.RefuseForm("%s", lang.T(ctx, "admin.closures.refuseUntil"))
		}
	}
	switch n := utf8.RuneCountInString(f.Reason); {
	case n == 0:
		return f, cl, kit.RefuseForm("%s", lang.T(ctx, "admin.closures.refuseReason"))
	case n > booking.MaxClosureReason:
		return f, cl, kit.RefuseForm("%s", lang.T(ctx, "admin.closures.refuseReasonLength", map[string]any{"Max": booking.MaxClosureReason}))
	}
	cl = layout.LayoutClosure{ID: id.String(), OrganizationID: org.String(), StartDate: start.UnixMilli(), EndDate: end.UnixMilli(), Reason: f.Reason}
	switch t.kind {
	case "building":
		cl.BuildingID = t.id
	case "floor":
		cl.FloorID = t.id
	default:
		cl.ResourceID = t.id
	}
	return f, cl, nil
}

// parseLocalDateTime reads a datetime-local value ("2026-11-25T10:00", seconds optional) in loc.
func parseLocalDateTime(v string, loc *time.Location) (time.Time, error) {
	t, err := time.ParseInLocation("2006-01-02T15:04", v, loc)
	if err != nil {
		t, err = time.ParseInLocation("2006-01-02T15:04:05", v, loc)
	}
	return t, err
}

// closureSpec is the domain's view of a closure of the form.
func closureSpec(cl layout.LayoutClosure) booking.ClosureSpec {
	parse := func(s string) *uuid.UUID {
		if s == "" {
			return nil
		}
		id := uuid.MustParse(s)
		return &id
	}
	return booking.ClosureSpec{Closure: booking.Closure{
		ID: uuid.MustParse(cl.ID), BuildingID: parse(cl.BuildingID), FloorID: parse(cl.FloorID), ResourceID: parse(cl.ResourceID),
		Start: time.UnixMilli(cl.StartDate), End: time.UnixMilli(cl.EndDate), Reason: cl.Reason,
	}}
}

// withCovered puts into f, in words, who booked what and when, of the first bookings a closure would
// cover, and how many there are (ClosureOverlaps lists at most booking.MaxKeptBookings), in ctx's language.
func withCovered(ctx context.Context, f views.ClosureForm, bs []booking.Booking, now time.Time) views.ClosureForm {
	f.CoveredCount, f.CoveredAtLeast = len(bs), len(bs) >= booking.MaxKeptBookings
	f.Covered = make([]views.CoveredBooking, 0, min(len(bs), maxCoveredShown))
	for _, b := range bs[:min(len(bs), maxCoveredShown)] {
		f.Covered = append(f.Covered, views.CoveredBooking{
			Who: booking.FullName(b.Organizer), What: b.Resource.Name,
			When: booking.SpanOf(booking.Interval{Start: b.Start, End: b.End}, b.Resource.Floor.Building.Timezone, now).In(ctx),
		})
	}
	return f
}

// SaveClosure is POST /admin/closures: saves a new closure. When bookings fall inside it, and
// the form does not say what to do with them (overlapping CANCEL or KEEP), the page lists them and asks.
// Refusals are shown next to the form, which keeps what was typed.
func (s *Handlers) SaveClosure(c echo.Context) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	targets, _, err := s.closureTargets(ctx, actor)
	if err != nil {
		return err
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	f, cl, err := readClosureForm(ctx, form, targets, actor.OrganizationID)
	overlapping := booking.OverlapChoice(c.FormValue("overlapping"))
	if err == nil && overlapping != booking.OverlapAsk && overlapping != booking.OverlapCancel && overlapping != booking.OverlapKeep {
		err = kit.RefuseForm("%s", lang.T(ctx, "admin.closures.refuseOverlapping"))
	}
	if err == nil && overlapping == booking.OverlapAsk {
		var covered []booking.Booking
		if covered, err = s.bookings.ClosureOverlaps(ctx, actor, closureSpec(cl)); err == nil && len(covered) > 0 {
			return s.answerClosureForm(c, http.StatusOK, withCovered(ctx, f, covered, s.bookings.Now()))
		}
	}
	if err == nil {
		cl.Overlapping = string(overlapping)
		_, _, err = putValue(ctx, s, actor, layout.Closures, uuid.MustParse(cl.ID), cl, "")
	}
	if de, _ := kit.Refusal(err); de != nil && de.Code == booking.CodeClosureCoversBookings {
		// Someone booked inside the closure after the form was sent: show the bookings and ask again.
		covered, oerr := s.bookings.ClosureOverlaps(ctx, actor, closureSpec(cl))
		if oerr != nil {
			return oerr
		}
		f = withCovered(ctx, f, covered, s.bookings.Now())
		f.Meanwhile = true
		if len(covered) == 0 {
			f.Problem = &views.AdminProblem{Title: lang.T(ctx, "admin.common.notSaved"), Message: lang.T(ctx, "admin.closures.changedMeanwhile")}
		}
		return s.answerClosureForm(c, http.StatusConflict, f)
	}
	if err != nil {
		prob, code, perr := refusal(c, err, "closure", closureWords)
		if perr != nil {
			return perr
		}
		f.Problem = prob
		return s.answerClosureForm(c, code, f)
	}
	t := targets[f.Target]
	iv := booking.Interval{Start: time.UnixMilli(cl.StartDate), End: time.UnixMilli(cl.EndDate)}
	saved := map[string]any{"What": t.label, "When": booking.ClosureSpanOf(iv, t.timezone, s.bookings.Now()), "Reason": cl.Reason}
	msg := lang.T(ctx, "admin.closures.saved", saved)
	switch overlapping {
	case booking.OverlapCancel:
		msg = lang.T(ctx, "admin.closures.savedCancelled", saved)
	case booking.OverlapKeep:
		msg = lang.T(ctx, "admin.closures.savedKept", saved)
	}
	return s.redirectSaved(c, "/admin/closures", nil, cl.ID, "closure-"+cl.ID, msg)
}

// answerClosureForm shows the closures page with the form as sent, and what saving it found.
func (s *Handlers) answerClosureForm(c echo.Context, status int, f views.ClosureForm) error {
	p, err := s.adminClosures(c, f)
	if err != nil {
		return err
	}
	return kit.Render(c, status, views.AdminClosuresPage(p))
}

// DeleteClosure is POST /admin/closures/{closureId}/delete: deletes a closure, if it is still the
// version the page showed. Another organization's closure is unknown (404).
func (s *Handlers) DeleteClosure(c echo.Context) error {
	id, err := pathID(c, "closureId")
	if err != nil {
		return err
	}
	ctx, actor := c.Request().Context(), kit.Actor(c)
	etag := c.FormValue("etag")
	if len(etag) > 100 {
		return kit.FieldRefuse("etag", "admin.closures.etagTooLong")
	}
	cl, _, err := getValue[layout.LayoutClosure](ctx, s, actor, layout.Closures, id)
	if err != nil {
		return err
	}
	if err := s.layout.Delete(ctx, actor, layout.Closures, id, etag); err != nil {
		prob, _, err := refusal(c, err, "closure", closureWords)
		if err != nil {
			return err
		}
		s.PutFlash(c, prob.Title+".", lang.T(kit.Ctx(c), "admin.closures.notDeleted"))
		return c.Redirect(http.StatusSeeOther, "/admin/closures")
	}
	s.PutFlash(c, "", lang.T(kit.Ctx(c), "admin.closures.deleted", map[string]any{"Reason": cl.Reason}))
	return c.Redirect(http.StatusSeeOther, "/admin/closures")
}
