package console

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"
)

// How the forms of the office settings confirm a save, beside the object they saved.
//
// With htmx, a form that changed an object answers with that object, which replaces the form, with the
// confirmation in it. A form that added an object answers with its whole section: the list with the new
// object in its place and the confirmation in it, and the add form empty again; the answer replaces the
// section (swapSection). The page's script then moves the focus to the confirmation.
//
// Without JavaScript, a form answers 303 to its page with ?saved=<id> at the object's anchor
// (redirectSaved); the page shows the confirmation, kept once in the session, beside that object
// (savedFlash).

// swapSection makes an htmx answer replace the element that selector names, rather than the form that
// was sent.
func swapSection(c echo.Context, selector string) {
	h := c.Response().Header()
	h.Set("HX-Retarget", selector)
	h.Set("HX-Reswap", "outerHTML")
}

// redirectSaved keeps the confirmation message for the next page and sends the browser to page, with
// query and saved=id, at the anchor of the object.
func (s *Handlers) redirectSaved(c echo.Context, page string, query url.Values, id, anchor, message string) error {
	s.PutFlash(c, "", message)
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	q.Set("saved", id)
	return c.Redirect(http.StatusSeeOther, page+"?"+q.Encode()+"#"+anchor)
}

// savedFlash returns the confirmation the previous form left for this page, and the id of the object it
// is about ("" when it is about none). The message is "" when the form left nothing.
func (s *Handlers) savedFlash(c echo.Context) (id, message string) {
	message = s.adminFlash(c)
	if message == "" {
		return "", ""
	}
	return c.QueryParam("saved"), message
}
