// Package views holds the templ components of the pages. Components receive domain values (package
// booking) and small view structs; they never touch the database.
package views

import (
	"strings"
	"time"

	"github.com/workspacebooking/booking/web/booking"
)

// Chrome is what every page shows around its content.
type Chrome struct {
	Title string
	User  *booking.User // nil when nobody is signed in
	Dev   bool          // development mode: the banner shows
	Path  string        // the page's path, to mark the current section
	// Back is the path the language switch brings the browser back to: this page's, or for a page that
	// answers a form, the page the form was on (kit.BackTo adds the query).
	Back string
	// BaseURL is the service's public address (BASE_URL), "" when unset: the kiosk accepts the posters
	// printed with it.
	BaseURL string
}

// kiosk reports whether the page is one of the kiosk's, which offer no way into the rest of the site.
func (c Chrome) kiosk() bool { return c.section("/kiosk") }

// section tells whether the page is in the section starting at prefix.
func (c Chrome) section(prefix string) bool {
	return c.Path == prefix || strings.HasPrefix(c.Path, prefix+"/")
}

// ariaCurrent marks the link of the current section.
func (c Chrome) ariaCurrent(prefix string) string {
	if c.section(prefix) {
		return "page"
	}
	return ""
}

// isAdmin and actsForOthers tell what the signed-in person may see.
func (c Chrome) isAdmin() bool       { return c.User != nil && c.User.Role == booking.RoleAdmin }
func (c Chrome) actsForOthers() bool { return c.User != nil && c.User.Role.ActsForOthers() }

// FullName is how a person is named on the pages.
func FullName(u booking.User) string { return strings.TrimSpace(u.Name + " " + u.Surname) }

// htmxConfig is the htmx configuration of every page. Answers with a 4xx status are swapped in like any
// other, so that a refusal shows next to its form. History is not cached in the browser: the back button
// reloads the page from the server. Eval and inline styles are off.
const htmxConfig = `{"responseHandling":[{"code":"204","swap":false},{"code":"[23]..","swap":true},` +
	`{"code":"4..","swap":true,"error":false},{"code":"...","swap":false,"error":true}],` +
	`"historyCacheSize":0,"refreshOnHistoryMiss":true,"allowEval":false,"allowScriptTags":false,` +
	`"includeIndicatorStyles":false,"selfRequestsOnly":true,"scrollIntoViewOnBoost":false}`

// sameDate tells whether two times fall on the same date, each read in its own location.
func sameDate(a, b time.Time) bool {
	y1, m1, d1 := a.Date()
	y2, m2, d2 := b.Date()
	return y1 == y2 && m1 == m2 && d1 == d2
}
