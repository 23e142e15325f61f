package web_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// Pages speak to people in words. A refusal never shows a numeric code or a code's name. A search with a
// bad URL keeps its filters, says what is wrong beside them, and shows no results.

// codeExpr matches what a person must never see on a page: a code ("2000 - "), a code's name
// (INVALID_REQUEST), or an HTTP status text ("Bad Request").
var codeExpr = regexp.MustCompile(`\b\d{4} - |\b[A-Z]{3,}_[A-Z_]+\b|Bad Request|Not Found|Conflict|Unprocessable`)

func wantWords(t *testing.T, where, text string) {
	t.Helper()
	if m := codeExpr.FindString(text); m != "" {
		t.Errorf("%s shows %q: %q", where, m, text)
	}
}

func TestPageRefusalsInWords(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	for _, tc := range []struct {
		name, path string
		htmx       bool
		status     int
	}{
		{"ResourceBadID", "/find/resources/not-an-id", false, http.StatusBadRequest},
		{"ResourceBadIDHTMX", "/find/resources/not-an-id", true, http.StatusBadRequest},
		{"UnknownBooking", "/bookings/" + fx.Alice.String(), false, http.StatusNotFound},
		{"CancelUnknownHTMX", "/bookings/" + fx.Alice.String() + "/cancel", true, http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := http.MethodGet
			if strings.HasSuffix(tc.path, "/cancel") {
				method = http.MethodPost
			}
			p := b.do(method, tc.path, nil, tc.htmx)
			p.wantStatus(t, tc.status)
			wantWords(t, "the page", p.text("body"))
			if !tc.htmx {
				wantWords(t, "the title", p.text("title"))
			}
		})
	}
}

func TestFindBadSearchKeepsFilters(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	for _, tc := range []struct {
		name, path, want string
	}{
		{"EndBeforeStart", findPath("date", "2026-11-24", "from", "11:00", "to", "10:00"), "The end (10:00) must be after the start (11:00)."},
		{"Date", findPath("date", "2026-13-01"), `“2026-13-01” is not a date: write it as YYYY-MM-DD, e.g. 2026-11-24.`},
		{"From", findPath("from", "9am", "to", "10:00"), `“9am” is not a time: write it as HH:MM, e.g. 09:30.`},
		{"Kind", findPath("kind", "sofa"), "Choose a desk or a meeting room."},
		{"Capacity", findPath("kind", "room", "capacity", "lots"), "People: write how many people, e.g. 4."},
		{"TooManyDays", findPath("from", "10:00", "to", "11:00") + manyDays(32), "at most 31 days"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, htmx := range []bool{false, true} {
				p := b.do(http.MethodGet, tc.path, nil, htmx)
				p.wantStatus(t, http.StatusBadRequest)
				p.wantText(t, "#search-problem", tc.want)
				wantWords(t, "the page", p.text("body"))
				if n := p.doc.Find("li.result").Length(); n != 0 {
					t.Errorf("htmx %v: %d results under the problem, want none", htmx, n)
				}
				if !htmx && p.doc.Find("form#search #f-building").Length() != 1 {
					t.Errorf("the filters are missing")
				}
			}
		})
	}
	// The filters keep the values that were asked for.
	p := b.get(findPath("date", "2026-11-24", "from", "11:00", "to", "10:00", "kind", "room"))
	if got, _ := p.doc.Find("#f-from").Attr("value"); got != "11:00" {
		t.Errorf("from = %q, want 11:00", got)
	}
	if got, _ := p.doc.Find("#f-start").Attr("value"); got != "2026-11-24" {
		t.Errorf("date = %q, want 2026-11-24", got)
	}
	if _, ok := p.doc.Find(`input[name=kind][value=room]`).Attr("checked"); !ok {
		t.Errorf("kind room is not checked")
	}
}

// TestBrowserFindProblem sets an end time before the start time. The problem is explained in words beside
// the filters, and the previous results are removed.
func TestBrowserFindProblem(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(b, fx.Alice, findPath("date", "2026-11-24", "from", "10:00", "to", "11:00", "kind", "room"))
	b.waitText("#results-h", "free rooms")
	b.eval(`(function () {
		const to = document.getElementById("f-to");
		to.value = "09:00";
		to.dispatchEvent(new Event("change", {bubbles: true}));
		return true;
	})()`)
	b.waitText("#search-problem", "The end (09:00) must be after the start (10:00).")
	if n, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll("#results li.result").length`)); err != nil || n != 0 {
		t.Errorf("results under the problem = %d (%v), want none", n, err)
	}
	wantWords(t, "the page", b.text("body"))
	b.check("find-problem")

	// A bad URL keeps the filters too.
	b.open(findPath("date", "2026-11-24", "from", "9am", "to", "11:00"))
	b.waitText("#search-problem", "“9am” is not a time")
	wantWords(t, "the page", b.text("body"))
	if got := b.attrOf("#f-start", "value"); got != "2026-11-24" {
		t.Errorf("date = %q, want 2026-11-24", got)
	}
}

// eval runs a script in the page and fails the test if it throws.
func (b *tab) eval(script string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[any](script)); err != nil {
		b.t.Fatalf("evaluate: %v", err)
	}
}
