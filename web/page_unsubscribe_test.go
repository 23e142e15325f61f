package web_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/notify"
)

// One-click unsubscribe (RFC 8058): the link's secret is the credential, with no session. Opening the
// link changes nothing; a POST of List-Unsubscribe=One-Click does.

// unsubscribePost posts the body to an unsubscribe link without a session, as a mail client does from
// elsewhere (it sends no Sec-Fetch-Site, or says cross-site).
func unsubscribePost(t *testing.T, pb *pageBundle, path, body string, crossSite bool) htmlPage {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, pb.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if crossSite {
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Origin", "https://mail.example.net")
	}
	return pb.browser(t).send(req)
}

func TestUnsubscribe(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	st := pb.noticeSettings(t, fx.Alice)
	link := notify.UnsubscribePath(st.UnsubscribeSecret, notify.OptionalReminder)
	mailOff := func() []string { return pb.noticeSettings(t, fx.Alice).MailOff }

	t.Run("OpeningTheLinkOnlyAsks", func(t *testing.T) {
		for range 3 { // a mail scanner may open it more than once
			p := pb.browser(t).get(link)
			p.wantStatus(t, http.StatusOK)
			p.wantText(t, "main", "Stop these e-mails?", "check-in reminders")
			if p.attr(`form[method=post]`, "action") != link || p.attr(`input[name=List-Unsubscribe]`, "value") != "One-Click" {
				t.Errorf("the page's form posts to %q with %q", p.attr(`form[method=post]`, "action"), p.attr(`input[name=List-Unsubscribe]`, "value"))
			}
		}
		if got := mailOff(); len(got) != 0 {
			t.Errorf("MailOff = %v after opening the link, want nothing off", got)
		}
	})

	t.Run("OneClickWithoutASession", func(t *testing.T) {
		for range 2 { // twice changes nothing more
			p := unsubscribePost(t, pb, link, "List-Unsubscribe=One-Click", true)
			p.wantStatus(t, http.StatusOK)
			p.wantText(t, "main", "You are unsubscribed", "check-in reminders")
		}
		if got := mailOff(); !cmp.Equal(got, []string{notify.OptionalReminder}) {
			t.Errorf("MailOff = %v, want [reminder]", got)
		}
		// The page's own button sends the same body.
		pb.browser(t).post(notify.UnsubscribePath(st.UnsubscribeSecret, notify.OptionalInvitation), url.Values{"List-Unsubscribe": {"One-Click"}}).
			wantStatus(t, http.StatusOK)
		if got := mailOff(); !cmp.Equal(got, []string{notify.OptionalInvitation, notify.OptionalReminder}) {
			t.Errorf("MailOff = %v, want [invitation reminder]", got)
		}
	})

	t.Run("RefusalsChangeNothing", func(t *testing.T) {
		before := mailOff()
		guess := strings.Repeat("A", 43)
		for name, c := range map[string]struct {
			path, body string
			status     int
			words      string
		}{
			"NoOneClickBody":  {notify.UnsubscribePath(st.UnsubscribeSecret, notify.OptionalConfirmation), "", http.StatusBadRequest, "List-Unsubscribe=One-Click"},
			"UnknownSecret":   {notify.UnsubscribePath(guess, notify.OptionalConfirmation), "List-Unsubscribe=One-Click", http.StatusNotFound, "not valid"},
			"FeedSecret":      {notify.UnsubscribePath(st.FeedSecret, notify.OptionalConfirmation), "List-Unsubscribe=One-Click", http.StatusNotFound, "not valid"},
			"UnknownKind":     {notify.UnsubscribePath(st.UnsubscribeSecret, "cancellation"), "List-Unsubscribe=One-Click", http.StatusNotFound, "cannot be turned off"},
			"MalformedSecret": {"/mail/unsubscribe/%27%20OR%201=1/reminder", "List-Unsubscribe=One-Click", http.StatusNotFound, "not valid"},
		} {
			p := unsubscribePost(t, pb, c.path, c.body, false)
			if p.status != c.status || !strings.Contains(p.text("main"), c.words) {
				t.Errorf("%s: %d %q, want %d saying %q", name, p.status, p.text("main"), c.status, c.words)
			}
			if get := pb.browser(t).get(c.path); c.status == http.StatusNotFound && get.status != http.StatusNotFound {
				t.Errorf("%s: opening the link answers %d, want 404", name, get.status)
			}
		}
		if got := mailOff(); !cmp.Equal(got, before) {
			t.Errorf("MailOff = %v after refusals, want %v", got, before)
		}
	})
}

// TestSecretsStayOutOfTheLog checks that the request log never shows a feed's or an unsubscribe link's
// secret, whatever the answer.
func TestSecretsStayOutOfTheLog(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	pb := setupPages(t, func(d *web.Deps) { d.Logger = slog.New(slog.NewJSONHandler(&logs, nil)) })
	st := pb.noticeSettings(t, fx.Alice)
	guess := strings.Repeat("B", 43)
	feed := func(secret string) string { return pb.srv.URL + "/ical/" + secret + ".ics" }
	feedGet(t, feed(st.FeedSecret), nil)
	feedGet(t, feed(guess), nil)
	pb.browser(t).get(notify.UnsubscribePath(st.UnsubscribeSecret, notify.OptionalReminder)).wantStatus(t, http.StatusOK)
	unsubscribePost(t, pb, notify.UnsubscribePath(st.UnsubscribeSecret, notify.OptionalReminder), "List-Unsubscribe=One-Click", false).
		wantStatus(t, http.StatusOK)
	unsubscribePost(t, pb, notify.UnsubscribePath(guess, "nonsense"), "", false)
	var paths []string
	for _, l := range logs.lines(t) {
		if l["msg"] == "request" {
			paths = append(paths, fmt.Sprint(l["path"]))
		}
	}
	want := []string{"/ical/…", "/ical/…", "/mail/unsubscribe/…/reminder", "/mail/unsubscribe/…/reminder", "/mail/unsubscribe/…/nonsense"}
	if !slices.Equal(paths, want) {
		t.Errorf("logged paths %q, want %q", paths, want)
	}
	for _, secret := range []string{st.FeedSecret, st.UnsubscribeSecret, guess} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log shows the secret %s", secret)
		}
	}
}
