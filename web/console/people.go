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

// The people page of the admin console: search the organization's people, add someone, set a person's
// role and language, deactivate and reactivate. People are the `users` collection of the admin domain.

// MaxPeopleShown is how many people the people page lists at once; a search finds the others.
const MaxPeopleShown = 100

// maxPeopleQuery bounds the people search, in characters.
const maxPeopleQuery = 100

// personWords names the fields of a person as their form does.
var personWords = map[string]string{
	"name": "First name", "surname": "Last name", "email": "E-mail", "role": "Role", "userLanguage": "Language",
}

// fold makes text comparable whatever its case.
func fold(s string) string { return strings.ToLower(s) }

// personRow shows a person in their row.
func personRow(u layout.LayoutUser, etag string, actor booking.User) views.PersonRow {
	r := views.PersonRow{
		PersonForm: views.PersonForm{Name: u.Name, Surname: u.Surname, Email: u.Email, Role: cmp.Or(u.Role, string(booking.RoleEmployee)), Language: u.UserLanguage},
		ID:         u.ID, ETag: etag, Active: personActive(u), Self: u.ID == actor.ID.String(),
	}
	if u.OIDCSubject != nil {
		r.Subject = *u.OIDCSubject
	}
	return r
}

// bindings returns when the sign-in of each person was last bound, by id, from the audit log's newest
// layout.MaxAuditEntries changes of people (of the person only, when only is set). A binding older than
// those, or made by an import, has no time here.
func (s *Handlers) bindings(ctx context.Context, actor booking.User, only *uuid.UUID) (map[string]time.Time, error) {
	es, err := s.layout.Audit(ctx, actor, booking.AuditFilter{Collection: string(layout.Users), ObjectID: only, Limit: layout.MaxAuditEntries})
	if err != nil {
		return nil, err
	}
	out := map[string]time.Time{}
	for _, e := range es { // newest first
		if _, seen := out[e.ObjectID.String()]; !seen && e.Action == booking.AuditBind {
			out[e.ObjectID.String()] = e.At
		}
	}
	return out, nil
}

// boundWords says when a binding was made, in ctx's language: "on Mon 23 Nov 2026 at 09:00 UTC".
func boundWords(ctx context.Context, at time.Time) string {
	if at.IsZero() {
		return ""
	}
	at = at.UTC()
	// The zero time as now: the date always shows its year.
	return lang.T(ctx, "admin.people.boundOn", map[string]any{"Day": lang.Day(ctx, at, time.Time{}), "Time": lang.Clock(at)})
}

// adminPeople reads the people page for the search query.
func (s *Handlers) adminPeople(c echo.Context, query string) (views.AdminPeople, error) {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	users, etags, err := listValues[layout.LayoutUser](ctx, s, actor, layout.Users)
	if err != nil {
		return views.AdminPeople{}, err
	}
	p := views.AdminPeople{Chrome: s.Chrome(c, lang.T(ctx, "admin.people.title")), Query: query}
	q := fold(strings.TrimSpace(query))
	for i, u := range users {
		if q != "" && !strings.Contains(fold(u.Name+" "+u.Surname+" "+u.Email), q) {
			continue
		}
		p.People = append(p.People, personRow(u, etags[i], actor))
	}
	slices.SortFunc(p.People, func(a, b views.PersonRow) int {
		return cmp.Or(booking.CompareNames(a.Name+" "+a.Surname, b.Name+" "+b.Surname), cmp.Compare(a.ID, b.ID))
	})
	p.Total = len(p.People)
	if len(p.People) > MaxPeopleShown {
		p.People = p.People[:MaxPeopleShown]
	}
	bound, err := s.bindings(ctx, actor, nil)
	if err != nil {
		return views.AdminPeople{}, err
	}
	for i := range p.People {
		if p.People[i].Subject != "" {
			p.People[i].BoundAt = boundWords(ctx, bound[p.People[i].ID])
		}
	}
	return p, nil
}

// People is GET /admin/people[?q=]: the people whose name or e-mail contains q. With htmx (the
// search as the admin types) only the list is answered.
func (s *Handlers) People(c echo.Context) error {
	query := c.QueryParam("q")
	if utf8.RuneCountInString(query) > maxPeopleQuery {
		return kit.FieldRefuse("search", "admin.people.searchTooLong", map[string]any{"Max": maxPeopleQuery})
	}
	p, err := s.adminPeople(c, query)
	if err != nil {
		return err
	}
	if kit.IsHTMX(c) {
		return kit.Render(c, http.StatusOK, views.PeopleList(p))
	}
	if id, msg := s.savedFlash(c); !confirmPerson(&p, id, msg) {
		p.Notice = msg
	}
	return kit.Render(c, http.StatusOK, views.AdminPeoplePage(p))
}

// confirmPerson puts the confirmation msg in the row of the person id, and reports whether the page
// lists them.
func confirmPerson(p *views.AdminPeople, id, msg string) bool {
	for i := range p.People {
		if id != "" && p.People[i].ID == id {
			p.People[i].Saved = msg
			return true
		}
	}
	return false
}

// readPersonForm reads a person's form: what was typed, for the form to show again. A refusal is in
// ctx's language.
func readPersonForm(ctx context.Context, form url.Values) (views.PersonForm, error) {
	f := views.PersonForm{
		Name: textField(form, "name"), Surname: textField(form, "surname"),
		Email: textField(form, "email"), Role: form.Get("role"), Language: form.Get("language"),
	}
	switch {
	case f.Name == "":
		return f, kit.RefuseForm("%s", lang.T(ctx, "admin.people.refuseName"))
	case len(f.Name) > maxNameLength || len(f.Surname) > maxNameLength:
		return f, kit.RefuseForm("%s", lang.T(ctx, "admin.people.refuseNameLength", map[string]any{"Max": maxNameLength}))
	case f.Email == "" || len(f.Email) > 254:
		return f, kit.RefuseForm("%s", lang.T(ctx, "admin.people.refuseEmail"))
	case !slices.Contains(views.PersonRoles, f.Role):
		return f, kit.RefuseForm("%s", lang.T(ctx, "admin.people.refuseRole"))
	case len(f.Language) > 16:
		return f, kit.RefuseForm("%s", lang.T(ctx, "admin.people.refuseLanguage"))
	}
	return f, nil
}

// AddPerson is POST /admin/people: adds a person. A refusal is shown in the form, which keeps
// what was typed; with htmx only the form is answered. The person added is shown searched for by their
// e-mail, with the confirmation in their row.
func (s *Handlers) AddPerson(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return kit.Refuse("admin.common.formUnreadable", map[string]any{"Error": err})
	}
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	f, err := readPersonForm(ctx, form)
	id := uuid.New()
	if err == nil {
		u := layout.LayoutUser{ID: id.String(), OrganizationID: actor.OrganizationID.String(), Name: f.Name,
			Surname: f.Surname, Email: f.Email, Role: f.Role, UserLanguage: f.Language}
		_, _, err = putValue(ctx, s, actor, layout.Users, id, u, "")
	}
	if err != nil {
		prob, code, perr := refusal(c, err, "person", personWords)
		if perr != nil {
			return perr
		}
		f.Problem = prob
		if kit.IsHTMX(c) {
			return kit.Render(c, code, views.AddPersonView(f))
		}
		p, perr := s.adminPeople(c, "")
		if perr != nil {
			return perr
		}
		p.New = f
		return kit.Render(c, code, views.AdminPeoplePage(p))
	}
	msg := lang.T(ctx, "admin.people.added", map[string]any{"Name": strings.TrimSpace(f.Name + " " + f.Surname),
		"Role": strings.ToLower(views.RoleWord(ctx, f.Role)), "Email": f.Email})
	search := url.Values{"q": {f.Email}}
	if !kit.IsHTMX(c) {
		return s.redirectSaved(c, "/admin/people", search, id.String(), "person-"+id.String(), msg)
	}
	p, err := s.adminPeople(c, f.Email)
	if err != nil {
		return err
	}
	confirmPerson(&p, id.String(), msg)
	swapSection(c, "#people-section")
	c.Response().Header().Set("HX-Push-Url", "/admin/people?"+search.Encode())
	return kit.Render(c, http.StatusOK, views.PeopleSection(p))
}

// SavePerson is POST /admin/people/{userId}: changes a person's name, e-mail, role and language.
// With htmx only the person's row is answered.
func (s *Handlers) SavePerson(c echo.Context) error {
	id, err := pathID(c, "userId")
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return kit.Refuse("admin.common.formUnreadable", map[string]any{"Error": err})
	}
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	cur, etag, err := getValue[layout.LayoutUser](ctx, s, actor, layout.Users, id)
	if err != nil {
		return err
	}
	f, err := readPersonForm(ctx, form)
	ifMatch := form.Get("etag")
	if err == nil {
		u := cur
		u.Name, u.Surname, u.Email, u.Role, u.UserLanguage = f.Name, f.Surname, f.Email, f.Role, f.Language
		var saved layout.LayoutUser
		if saved, etag, err = putValue(ctx, s, actor, layout.Users, id, u, ifMatch); err == nil {
			r := personRow(saved, etag, actor)
			r.Saved = lang.T(ctx, "admin.people.saved", map[string]any{"Name": strings.TrimSpace(r.Name + " " + r.Surname),
				"Role": views.RoleWord(ctx, r.Role), "Language": views.LanguageWord(ctx, r.Language)})
			return s.answerPersonRow(c, http.StatusOK, r)
		}
	}
	prob, code, perr := refusal(c, err, "person", personWords)
	if perr != nil {
		return perr
	}
	r := personRow(cur, etag, actor)
	if code == http.StatusPreconditionFailed {
		if cur, etag, err = getValue[layout.LayoutUser](ctx, s, actor, layout.Users, id); err != nil {
			return err
		}
		r = personRow(cur, etag, actor)
	} else {
		r.PersonForm = f
	}
	r.Problem, r.Open = prob, true
	return s.answerPersonRow(c, code, r)
}

// answerPersonRow answers a person's form: the row alone for htmx; otherwise the page searched for the
// person, with the row's outcome, or after a success a redirect to it, which shows the confirmation in
// the row.
func (s *Handlers) answerPersonRow(c echo.Context, status int, r views.PersonRow) error {
	if id, err := uuid.Parse(r.ID); err == nil && r.Subject != "" {
		bound, err := s.bindings(c.Request().Context(), kit.Actor(c), &id)
		if err != nil {
			return err
		}
		r.BoundAt = boundWords(kit.Ctx(c), bound[r.ID])
	}
	if kit.IsHTMX(c) {
		return kit.Render(c, status, views.PersonRowView(r))
	}
	if status == http.StatusOK {
		return s.redirectSaved(c, "/admin/people", url.Values{"q": {r.Email}}, r.ID, "person-"+r.ID, r.Saved)
	}
	p, err := s.adminPeople(c, r.Email)
	if err != nil {
		return err
	}
	for i := range p.People {
		if p.People[i].ID == r.ID {
			p.People[i] = r
		}
	}
	return kit.Render(c, status, views.AdminPeoplePage(p))
}

// PersonActive is POST /admin/people/{userId}/active (active=true|false): deactivates a person,
// who then cannot sign in, or lets them sign in again.
func (s *Handlers) PersonActive(c echo.Context) error {
	id, err := pathID(c, "userId")
	if err != nil {
		return err
	}
	var active bool
	switch c.FormValue("active") {
	case "true":
		active = true
	case "false":
	default:
		return kit.FieldRefuse("active", "admin.common.chooseTrueOrFalse")
	}
	ctx, actor := c.Request().Context(), kit.Actor(c)
	// Another organization's person is unknown here, whatever the domain would answer.
	if _, _, err := getValue[layout.LayoutUser](ctx, s, actor, layout.Users, id); err != nil {
		return err
	}
	if err := s.setPersonActive(ctx, actor, id, active); err != nil {
		prob, code, perr := refusal(c, err, "person", personWords)
		if perr != nil {
			return perr
		}
		cur, etag, gerr := getValue[layout.LayoutUser](ctx, s, actor, layout.Users, id)
		if gerr != nil {
			return gerr
		}
		r := personRow(cur, etag, actor)
		r.Problem, r.Open = prob, true
		return s.answerPersonRow(c, code, r)
	}
	cur, etag, err := getValue[layout.LayoutUser](ctx, s, actor, layout.Users, id)
	if err != nil {
		return err
	}
	r := personRow(cur, etag, actor)
	r.Saved = lang.T(kit.Ctx(c), "admin.people.reactivated")
	if !active {
		r.Saved = lang.T(kit.Ctx(c), "admin.people.deactivated")
	}
	return s.answerPersonRow(c, http.StatusOK, r)
}

// setPersonActive deactivates or reactivates a person through the domain.
func (s *Handlers) setPersonActive(ctx context.Context, actor booking.User, id uuid.UUID, active bool) error {
	return s.people.SetUserActive(ctx, actor, id, active)
}

// personActive reports whether a person may sign in: a person without the field is active.
func personActive(u layout.LayoutUser) bool { return u.Active == nil || *u.Active }

// UnlinkPerson is POST /admin/people/{userId}/unlink (etag): unbinds the person's account from
// the identity provider's subject, so that their next sign-in binds it again. It is written to the audit
// log as a change of the person. A stale etag is refused with 412 and changes nothing.
func (s *Handlers) UnlinkPerson(c echo.Context) error {
	id, err := pathID(c, "userId")
	if err != nil {
		return err
	}
	ctx, actor := c.Request().Context(), kit.Actor(c)
	cur, etag, err := getValue[layout.LayoutUser](ctx, s, actor, layout.Users, id)
	if err != nil {
		return err
	}
	u := cur
	u.OIDCSubject = new(string)
	saved, newTag, err := putValue(ctx, s, actor, layout.Users, id, u, c.FormValue("etag"))
	if err != nil {
		prob, code, perr := refusal(c, err, "person", personWords)
		if perr != nil {
			return perr
		}
		if cur, etag, err = getValue[layout.LayoutUser](ctx, s, actor, layout.Users, id); err != nil {
			return err
		}
		r := personRow(cur, etag, actor)
		r.Problem, r.Open = prob, true
		return s.answerPersonRow(c, code, r)
	}
	r := personRow(saved, newTag, actor)
	r.Saved = lang.T(kit.Ctx(c), "admin.people.unlinked", map[string]any{"Name": strings.TrimSpace(r.Name + " " + r.Surname)})
	return s.answerPersonRow(c, http.StatusOK, r)
}
