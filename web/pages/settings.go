package pages

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/notify"
)

// A person's own settings: which optional e-mails they get, and their private calendar feed. The forms
// post without htmx and come back to the page with a notice.

// settingsPath is the settings page.
const settingsPath = "/settings"

// The flash titles of the settings page's forms.
const (
	flashMail = "mail"
	flashFeed = "feed"

	flashVisibility = "visibility"
)

// Settings is GET /settings: the optional e-mails and the calendar feed of the signed-in person. Their
// settings are made the first time.
func (s *Handlers) Settings(c echo.Context) error {
	actor := kit.Actor(c)
	st, err := s.notify.Settings(c.Request().Context(), actor)
	if err != nil {
		return err
	}
	p := views.SettingsPage{Chrome: s.Chrome(c, lang.T(kit.Ctx(c), "settings.title"))}
	// The flash's title says which form it is about, so that it shows beside that form.
	switch section, words := s.PopFlash(c); section {
	case flashFeed:
		p.FeedNotice = words
	case flashVisibility:
		p.VisibilityNotice = words
	default:
		p.MailNotice = words
	}
	for _, kind := range notify.MailKindsFor(actor) {
		p.Mails = append(p.Mails, views.MailChoice{Kind: kind, On: !st.Off(kind)})
	}
	own, def, err := s.bookings.BookingsVisibleTo(c.Request().Context(), actor)
	if err != nil {
		return err
	}
	if own != nil {
		p.VisibleTo = string(*own)
	}
	p.DefaultVisibleTo = string(def)
	p.FeedURL = s.PublicBase(c) + notify.FeedPath(st)
	p.WebcalURL = webcal(p.FeedURL)
	return kit.Render(c, http.StatusOK, views.SettingsPageView(p))
}

// webcal returns an http(s) address with the webcal scheme, which calendar apps open as a subscription.
func webcal(address string) string {
	_, rest, _ := strings.Cut(address, "://")
	return "webcal://" + rest
}

// SaveMailSettings is POST /settings/mail: the optional e-mails ticked in "on" are sent, the others are
// not. A kind the person cannot choose (approvals, for everyone but admins) keeps its setting.
func (s *Handlers) SaveMailSettings(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return kit.Refuse("settings.formUnreadable", map[string]any{"Error": err})
	}
	if err := s.notify.ChooseMail(c.Request().Context(), kit.Actor(c), form["on"]); err != nil {
		return err
	}
	s.PutFlash(c, flashMail, lang.T(kit.Ctx(c), "settings.mailSaved"))
	return c.Redirect(http.StatusSeeOther, settingsPath+"#mail-title")
}

// RotateFeed is POST /settings/feed: the calendar feed gets a new address, and the old one stops working.
func (s *Handlers) RotateFeed(c echo.Context) error {
	if _, err := s.notify.RotateFeed(c.Request().Context(), kit.Actor(c)); err != nil {
		return err
	}
	s.PutFlash(c, flashFeed, lang.T(kit.Ctx(c), "settings.feedRotated"))
	return c.Redirect(http.StatusSeeOther, settingsPath+"#feed-title")
}

// SaveVisibility is POST /settings/visibility: who may see the person's bookings in My week and Who's
// in (visibleTo NOBODY, TEAM or ORGANIZATION; empty for the organization's default).
func (s *Handlers) SaveVisibility(c echo.Context) error {
	ctx := kit.Ctx(c)
	var v *booking.Visibility
	if raw := c.FormValue("visibleTo"); raw != "" {
		x, err := booking.ParseVisibility("visibleTo", raw)
		if err != nil {
			return err
		}
		v = &x
	}
	if err := s.bookings.SetBookingsVisibleTo(ctx, kit.Actor(c), v); err != nil {
		return err
	}
	s.PutFlash(c, flashVisibility, lang.T(ctx, "settings.visibilitySaved"))
	return c.Redirect(http.StatusSeeOther, settingsPath+"#visibility-title")
}
