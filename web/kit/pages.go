package kit

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"
	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/lang"
)

// What the pages and the console share: rendering, the page chrome, the flash, a refusal in words, and
// the safe local path to go back to.

// PageErrorTitle names what went wrong in words of ctx's language, never with a code: pages are read by
// people.
func PageErrorTitle(ctx context.Context, p Problem) string {
	switch {
	case p.Status == http.StatusBadRequest:
		return lang.T(ctx, "error.checkRequest")
	case p.Status == http.StatusUnauthorized:
		return lang.T(ctx, "error.signIn")
	case p.Status == http.StatusForbidden:
		return lang.T(ctx, "error.notAllowed")
	case p.Status == http.StatusNotFound && p.Code == 0:
		return lang.T(ctx, "error.pageNotFound")
	case p.Status == http.StatusNotFound:
		return lang.T(ctx, "error.notFound")
	case p.Status == http.StatusMethodNotAllowed:
		return lang.T(ctx, "error.notPossibleHere")
	case p.Status == http.StatusTooManyRequests:
		return lang.T(ctx, "error.tooManyRequests")
	case p.Status >= 500:
		return lang.T(ctx, "error.somethingWrong")
	}
	return lang.T(ctx, "error.notPossible")
}

// PageErrorMessage is what a person reads when a page fails: the domain's message as a sentence (in
// the domain's words), with the few technical ones said in plain words of ctx's language.
func PageErrorMessage(ctx context.Context, p Problem) string {
	switch {
	case p.Status == http.StatusNotFound && p.Code == 0:
		return lang.T(ctx, "error.noPage")
	case p.Status == http.StatusMethodNotAllowed:
		return lang.T(ctx, "error.methodNotAllowed")
	case p.Status >= 500:
		return lang.T(ctx, "error.ourSide")
	case strings.HasSuffix(p.Detail, lang.T(ctx, "refusal.request.notUUID", map[string]any{"Value": ""})):
		// ParseUUID's refusal, as ctx's language writes it: " is not a UUID".
		return lang.T(ctx, "error.badAddress")
	case p.Detail != "":
		return ToSentence(p.Detail)
	}
	return lang.T(ctx, "error.couldNotBeDone")
}

// ToSentence makes a domain message ("check-in closed at 09:15") a sentence for a page: a capital first
// letter and one full stop at the end.
func ToSentence(msg string) string {
	msg = strings.TrimSuffix(strings.TrimSpace(msg), ".")
	if msg == "" {
		return msg
	}
	r, n := utf8.DecodeRuneInString(msg) // the first letter, whatever its script
	return string(unicode.ToUpper(r)) + msg[n:] + "."
}

// FormRefusal is what was wrong with a form, in words, and the HTTP status to answer it with.
type FormRefusal struct {
	Status int
	Text   string
}

func (r *FormRefusal) Error() string { return r.Text }

// RefuseForm returns a FormRefusal with status 400 and the formatted text.
func RefuseForm(format string, args ...any) error {
	return &FormRefusal{Status: http.StatusBadRequest, Text: fmt.Sprintf(format, args...)}
}

// HHMM writes an offset from midnight as HH:MM; the end of the day is 00:00, as a time field shows it.
func HHMM(ms int64) string {
	m := (ms / int64(time.Minute/time.Millisecond)) % (24 * 60)
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}

// MaxUploadBody bounds an upload request of the console: the image and the multipart envelope.
const MaxUploadBody = 6 << 20

// SignInPath is the sign-in page.
const SignInPath = "/login"

// LocalPath returns next when it is a clean absolute path of this site, and "/" otherwise (no open
// redirects). It refuses a path that does not start with a single "/", and one holding a backslash or a
// control character, as written or once percent-decoded: browsers skip tabs and newlines and read "\" as
// "/", so "/<TAB>/evil.example" would lead to another site.
func LocalPath(next string) string {
	decoded, err := url.PathUnescape(next)
	if err != nil || !cleanPath(next) || !cleanPath(decoded) || strings.HasPrefix(next, SignInPath) {
		return "/"
	}
	return next
}

// cleanPath reports whether p starts with one "/" and holds no backslash and no control character.
func cleanPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsRune(p, '\\') {
		return false
	}
	return !strings.ContainsFunc(p, unicode.IsControl)
}

// Env is what every page handler needs beside the domain: the sessions (for the flash), development
// mode and the service's own address.
type Env struct {
	Sessions *scs.SessionManager
	Dev      bool   // development mode: shown on every page
	BaseURL  string // BASE_URL without its trailing slash; "" when not set
}

// Render writes a templ component as an HTML response with the status, in the request's language
// (Language), which Content-Language names.
func Render(c echo.Context, status int, t templ.Component) error {
	buf := templ.GetBuffer()
	defer templ.ReleaseBuffer(buf)
	tag := Language(c)
	c.Response().Header().Set("Content-Language", lang.Code(tag))
	if err := t.Render(lang.With(c.Request().Context(), tag), buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// Ctx returns the request's context in the request's language (Language), for the words a handler
// writes itself, such as a flash: lang.T(kit.Ctx(c), "bookings.cancelled").
func Ctx(c echo.Context) context.Context { return lang.With(c.Request().Context(), Language(c)) }

// ChosenLanguageKey is the echo.Context key of the language chosen with the pages' switch before
// signing in (kept in the session).
const ChosenLanguageKey = "chosen_language"

// Language is the language a page answers in: the signed-in person's own (userLanguage), else the one
// chosen with the switch before signing in, else the first the browser asks for that the service
// speaks, else English.
func Language(c echo.Context) language.Tag {
	own, _ := c.Get(ChosenLanguageKey).(string)
	if u, ok := SignedIn(c); ok {
		own = u.UserLanguage
	}
	return lang.Choose(own, c.Request().Header.Get("Accept-Language"))
}

// IsHTMX reports whether htmx made the request to swap part of a page. It is false for a request that
// wants the whole page: a first visit, a reload, or the back button restoring history.
func IsHTMX(c echo.Context) bool {
	h := c.Request().Header
	return h.Get("HX-Request") == "true" && h.Get("HX-History-Restore-Request") != "true"
}

// Chrome is what every page shows around its content: the title, who is signed in, development mode.
func (e *Env) Chrome(c echo.Context, title string) views.Chrome {
	ch := views.Chrome{Title: title, Dev: e.Dev, Path: c.Request().URL.Path, Back: back(c.Request()), BaseURL: e.BaseURL}
	if u, ok := SignedIn(c); ok {
		ch.User = &u
	}
	return ch
}

// back is the path of the page a request shows again on a GET: its own, or for a form posted without
// htmx, the page the form was on (its Referer), else the start page. It holds no query: a page never
// writes back what its address carried (a sign-in callback's code, say). BackTo adds it from the Referer.
func back(r *http.Request) string {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return r.URL.Path
	}
	if ref := sameSiteReferer(r); ref != nil {
		return LocalPath(ref.Path)
	}
	return "/"
}

// BackTo is where a form that leaves its page (the language switch) sends the browser back to: the
// local path next, with the query the page had when the Referer names that same page of this site.
func BackTo(r *http.Request, next string) string {
	to := LocalPath(next)
	if ref := sameSiteReferer(r); ref != nil && ref.RawQuery != "" && ref.Path == to {
		return LocalPath(ref.RequestURI())
	}
	return to
}

// sameSiteReferer returns the request's Referer when it is a page of this site; nil otherwise.
func sameSiteReferer(r *http.Request) *url.URL {
	ref, err := url.Parse(r.Referer())
	if err != nil || ref.Host != r.Host {
		return nil
	}
	return ref
}

// The session keys of the flash: what a form posted without htmx did. It is kept across the redirect
// that follows the form, and the next page shows it once.
const (
	sessionFlashTitle = "flash_title"
	sessionFlash      = "flash"
)

// PutFlash keeps what a form did for the page the browser is sent to next: a title (may be empty) and a
// message.
func (e *Env) PutFlash(c echo.Context, title, message string) {
	ctx := c.Request().Context()
	e.Sessions.Put(ctx, sessionFlashTitle, title)
	e.Sessions.Put(ctx, sessionFlash, message)
}

// PopFlash returns and forgets what the previous form left for this page. The message is empty when it
// left nothing.
func (e *Env) PopFlash(c echo.Context) (title, message string) {
	ctx := c.Request().Context()
	return e.Sessions.PopString(ctx, sessionFlashTitle), e.Sessions.PopString(ctx, sessionFlash)
}

// PublicBase is the service's public address: BASE_URL, or else the request's own scheme and host.
func (e *Env) PublicBase(c echo.Context) string {
	if e.BaseURL != "" {
		return e.BaseURL
	}
	return c.Scheme() + "://" + c.Request().Host
}
