package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/notify"
)

// The settings page: the optional e-mails and the private calendar feed. The clock starts at Monday
// 2026-11-23 09:00 in Madrid.

// noticeSettings reads a fixture person's notice settings the way the server keeps them, making them
// on first use.
func (pb *pageBundle) noticeSettings(t *testing.T, user uuid.UUID) notify.Settings {
	t.Helper()
	tell, err := notify.New(pb.Pool, pb.Service, notify.Config{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := tell.Settings(t.Context(), pb.mbUser(t, user))
	if err != nil {
		t.Fatalf("notice settings of %s: %v", user, err)
	}
	return st
}

// mailChoices returns the kinds of e-mail the settings page offers, and those ticked.
func mailChoices(p htmlPage) (offered, ticked []string) {
	for _, box := range p.doc.Find(`form[action="/settings/mail"] input[type=checkbox][name=on]`).EachIter() {
		kind, _ := box.Attr("value")
		offered = append(offered, kind)
		if _, on := box.Attr("checked"); on {
			ticked = append(ticked, kind)
		}
	}
	return offered, ticked
}

func TestPageSettings(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	everyone := []string{notify.OptionalConfirmation, notify.OptionalInvitation, notify.OptionalReminder}

	t.Run("ShowsTheChoicesAndTheFeed", func(t *testing.T) {
		b := pb.signedIn(t, fx.Alice)
		p := b.get("/settings")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Settings")
		offered, ticked := mailChoices(p)
		if !cmp.Equal(offered, everyone) || !cmp.Equal(ticked, everyone) {
			t.Errorf("offered %v, ticked %v: want %v, all ticked (approvals are for admins)", offered, ticked, everyone)
		}
		st := pb.noticeSettings(t, fx.Alice)
		host := strings.TrimPrefix(pb.srv.URL, "http://")
		if got, want := p.attr("#feed-url", "value"), pb.srv.URL+"/ical/"+st.FeedSecret+".ics"; got != want {
			t.Errorf("feed address = %q, want %q", got, want)
		}
		if got, want := p.attr("#feed-webcal", "href"), "webcal://"+host+"/ical/"+st.FeedSecret+".ics"; got != want {
			t.Errorf("webcal link = %q, want %q", got, want)
		}
		if _, hidden := p.doc.Find("button[data-copy]").Attr("hidden"); !hidden {
			t.Errorf("the Copy button shows without script")
		}
		for _, action := range []string{"/settings/mail", "/settings/feed"} {
			if p.count(`form[method=post][action="`+action+`"] button[type=submit]`) != 1 {
				t.Errorf("no plain form posting to %s", action)
			}
		}
		if b.get("/bookings").count(`header nav a[href="/settings"]`) != 1 {
			t.Errorf("the navigation does not link to /settings")
		}
	})

	t.Run("AdminsChooseApprovals", func(t *testing.T) {
		offered, _ := mailChoices(pb.signedIn(t, fx.Adam).get("/settings"))
		if want := append(everyone, notify.OptionalApproval); !cmp.Equal(offered, want) {
			t.Errorf("offered %v, want %v", offered, want)
		}
	})

	t.Run("SavesWithAFlash", func(t *testing.T) {
		b := pb.signedIn(t, fx.Bob)
		p := b.post("/settings/mail", url.Values{"on": {notify.OptionalConfirmation}})
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/settings" {
			t.Errorf("after saving: at %s, want /settings", p.url)
		}
		p.wantText(t, "#mail-title ~ .notice.ok", "E-mail settings saved.")
		if _, ticked := mailChoices(p); !cmp.Equal(ticked, []string{notify.OptionalConfirmation}) {
			t.Errorf("ticked %v after saving, want [confirmation]", ticked)
		}
		if got := pb.noticeSettings(t, fx.Bob).MailOff; !cmp.Equal(got, []string{notify.OptionalInvitation, notify.OptionalReminder}) {
			t.Errorf("MailOff = %v, want [invitation reminder]", got)
		}
		if b.get("/settings").count(".notice.ok") != 0 {
			t.Errorf("the flash shows a second time")
		}
	})

	t.Run("KeepsWhatThePersonCannotChoose", func(t *testing.T) {
		// Rita turned approvals off while she was an admin; as a receptionist her saves leave them off.
		rita := pb.mbUser(t, fx.Rita)
		tell, _ := notify.New(pb.Pool, pb.Service, notify.Config{})
		if err := tell.SetMailOff(t.Context(), rita, []string{notify.OptionalApproval}); err != nil {
			t.Fatal(err)
		}
		pb.signedIn(t, fx.Rita).post("/settings/mail", url.Values{"on": everyone}).wantStatus(t, http.StatusOK)
		if got := pb.noticeSettings(t, fx.Rita).MailOff; !cmp.Equal(got, []string{notify.OptionalApproval}) {
			t.Errorf("MailOff = %v, want [approval] kept", got)
		}
	})

	t.Run("RefusesWhatItDoesNotKnow", func(t *testing.T) {
		b := pb.signedIn(t, fx.Alice)
		before := pb.noticeSettings(t, fx.Alice)
		for name, form := range map[string]url.Values{
			"UnknownKind":               {"on": {notify.OptionalReminder, "cancellation"}},
			"ApprovalsAreForAdmins":     {"on": {notify.OptionalApproval}},
			"TooMany":                   {"on": strings.Fields(strings.Repeat("reminder ", 17))},
			"AKindTooLongToRepeatWhole": {"on": {strings.Repeat("x", 5000)}},
		} {
			p := b.post("/settings/mail", form)
			if p.status != http.StatusBadRequest {
				t.Errorf("%s: status %d, want 400", name, p.status)
			}
			if strings.Contains(p.body, strings.Repeat("x", 300)) {
				t.Errorf("%s: the page repeats the whole value", name)
			}
		}
		if after := pb.noticeSettings(t, fx.Alice); !cmp.Equal(after, before) {
			t.Errorf("settings changed: %+v, want %+v", after, before)
		}
	})

	t.Run("RefusesAnotherSitesForm", func(t *testing.T) {
		b := pb.signedIn(t, fx.Alice)
		before := pb.noticeSettings(t, fx.Alice)
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, pb.srv.URL+"/settings/feed", strings.NewReader(""))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		b.send(req).wantStatus(t, http.StatusForbidden)
		if after := pb.noticeSettings(t, fx.Alice); after.FeedSecret != before.FeedSecret {
			t.Errorf("a cross-site form rotated the feed")
		}
	})

	t.Run("SignedOutGoesToSignIn", func(t *testing.T) {
		res, err := pb.browser(t).noRedirects().Get(pb.srv.URL + "/settings")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther && res.StatusCode != http.StatusFound || !strings.HasPrefix(loc, "/login") {
			t.Errorf("signed out: %d to %q, want a redirect to /login", res.StatusCode, loc)
		}
	})
}

// TestPageSettingsRotate checks that a new feed address makes the old one 404 at once.
func TestPageSettingsRotate(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	old := b.get("/settings").attr("#feed-url", "value")
	if got := feedGet(t, old, nil); got.status != http.StatusOK {
		t.Fatalf("the feed answers %d before the rotation, want 200", got.status)
	}
	p := b.post("/settings/feed", url.Values{})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "#feed-title ~ .notice.ok", "new address", "The old one no longer works")
	current := p.attr("#feed-url", "value")
	if current == old || current == "" {
		t.Fatalf("the address after rotation is %q, before %q", current, old)
	}
	if got := feedGet(t, old, nil); got.status != http.StatusNotFound {
		t.Errorf("the old address answers %d, want 404", got.status)
	}
	if got := feedGet(t, current, nil); got.status != http.StatusOK {
		t.Errorf("the new address answers %d, want 200", got.status)
	}
}

// TestPageSettingsWithoutBaseURL checks that without BASE_URL the feed's address uses the host the page
// was asked for.
func TestPageSettingsWithoutBaseURL(t *testing.T) {
	t.Parallel()
	pb := setupPages(t, func(d *web.Deps) { d.BaseURL = "" })
	p := signInAs(t, pb.browserAt(t, "booking.acme.test:8443"), fx.Alice).get("/settings")
	p.wantStatus(t, http.StatusOK)
	if got := p.attr("#feed-webcal", "href"); !strings.HasPrefix(got, "webcal://booking.acme.test:8443/ical/") {
		t.Errorf("webcal link = %q, want one on the request's host", got)
	}
}
