package console

import (
	"context"
	"net/http"
	"net/url"

	"github.com/a-h/templ"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

// The pages of the office's physical layout: buildings, floors, the plan editor and the desks and
// rooms. They read and write through layout.Service, in the import format, the same code path as the
// admin API and `booking import`. Every form carries the version (ETag) it was opened with: a form
// saved after someone else changed the object shows the current version instead of overwriting it.

// adminPtr returns a pointer to a copy of v.
func adminPtr[T any](v T) *T { return &v }

// orTrue reads an optional switch of the import format, which is on when left out.
func orTrue(b *bool) bool { return b == nil || *b }

// isActive reads a status of the import format, which is ACTIVATED when left out.
func isActive(status string) bool { return status == "" || status == booking.Activated }

// savedWords confirms a building, floor or resource form in ctx's language: "Saved." for a changed
// object; for a new one, what the form's added says ("Added." and what to do next).
func savedWords(ctx context.Context, isNew bool, name string, added func(ctx context.Context, name string) string) string {
	if !isNew {
		return lang.T(ctx, "admin.common.savedUpToDate", map[string]any{"Name": name})
	}
	return added(ctx, name)
}

// adminFlash returns what the previous form left for this page, as one sentence.
func (s *Handlers) adminFlash(c echo.Context) string {
	title, msg := s.PopFlash(c)
	if title != "" && msg != "" {
		return title + " " + msg
	}
	return title + msg
}

// objectForm is how the console shows and saves one kind of object of the layout on a page of its own:
// a building, a floor, a desk or room. Each kind has a page of one object (show) and a form that adds
// one or changes one (save). Every kind goes through the same steps:
//   - show reads the object of the path's id (404 for none) and renders its page with the flash;
//   - save reads the current object (a change keeps what the form does not show), lets read fill in the
//     posted form, and saves it if its version is still the form's. A success goes to the object's page
//     with a confirmation; a refusal shows the form again as posted with the words beside it, or, when
//     someone else saved the object meanwhile, the current version.
type objectForm[T any, P any] struct {
	coll  layout.Collection
	param string // the path parameter of the object's id
	noun  string // the object in English words, for the English stale refusal: "building"
	href  string // its page, before the id: "/admin/buildings/"
	// added confirms that the object name was added, and says what to do next, in ctx's language.
	added func(ctx context.Context, name string) string
	// read fills v with the posted form for the object id; isNew is true for an object being added.
	read func(s *Handlers, c echo.Context, form url.Values, v *T, id uuid.UUID, isNew bool) error
	name func(v T) string
	// page reads the page of a saved object; posted builds the page of a form sent back as posted.
	page   func(s *Handlers, c echo.Context, id uuid.UUID) (P, error)
	posted func(s *Handlers, c echo.Context, o object[T], isNew bool) (P, error)
	// view is the page's component; heading names the object on it, for the page's title; notices
	// puts the flash and the refusal (either may be empty) on the page. A refused form's page is
	// titled with title instead, in ctx's language.
	view    func(views.Chrome, P) templ.Component
	heading func(P) string
	notices func(p *P, flash string, prob *views.AdminProblem)
	title   func(ctx context.Context) string
}

// render answers the page with the status, the flash and the refusal.
func (f objectForm[T, P]) render(s *Handlers, c echo.Context, status int, p P, flash string, prob *views.AdminProblem) error {
	title := f.heading(p)
	if prob != nil {
		title = f.title(kit.Ctx(c))
	}
	f.notices(&p, flash, prob)
	return kit.Render(c, status, f.view(s.Chrome(c, title), p))
}

// show answers the page of the object the path names.
func (f objectForm[T, P]) show(s *Handlers, c echo.Context) error {
	id, err := pathID(c, f.param)
	if err != nil {
		return err
	}
	p, err := f.page(s, c, id)
	if err != nil {
		return err
	}
	return f.render(s, c, http.StatusOK, p, s.adminFlash(c), nil)
}

// save adds the object (no id in the path) or changes the one the path names.
func (f objectForm[T, P]) save(s *Handlers, c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	id, isNew := uuid.New(), c.Param(f.param) == ""
	var v T
	if !isNew {
		if id, err = pathID(c, f.param); err != nil {
			return err
		}
		cur, err := get[T](ctx, s, actor, f.coll, id)
		if err != nil {
			return err
		}
		v = cur.V // keeps what the form does not show
	}
	etag := form.Get("etag")
	err = f.read(s, c, form, &v, id, isNew)
	if err == nil {
		_, err = put(ctx, s, actor, f.coll, id, v, etag)
	}
	if err == nil {
		s.PutFlash(c, "", savedWords(kit.Ctx(c), isNew, f.name(v), f.added))
		return c.Redirect(http.StatusSeeOther, f.href+id.String())
	}
	prob, code, err := refusal(c, err, f.noun, nil)
	if err != nil {
		return err
	}
	var p P
	if prob.Stale {
		p, err = f.page(s, c, id)
	} else {
		p, err = f.posted(s, c, object[T]{V: v, ETag: etag}, isNew)
	}
	if err != nil {
		return err
	}
	return f.render(s, c, code, p, "", prob)
}
