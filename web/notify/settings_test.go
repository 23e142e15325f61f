package notify_test

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/notify"
)

// testBundle is a notify service on a fresh database with the fixture.
type testBundle struct {
	*fx.Bundle
	svc          *notify.Service
	alice, boris booking.User
}

func setup(t *testing.T, baseURL string) *testBundle {
	t.Helper()
	b := fx.Setup(t)
	svc, err := notify.New(b.Pool, b.Service, notify.Config{BaseURL: baseURL})
	if err != nil {
		t.Fatal(err)
	}
	return &testBundle{Bundle: b, svc: svc, alice: b.User(t, fx.OrgA, fx.Alice), boris: b.User(t, fx.OrgB, fx.Boris)}
}

// settings reads u's settings and fails the test on an error.
func (tb *testBundle) settings(t *testing.T, u booking.User) notify.Settings {
	t.Helper()
	st, err := tb.svc.Settings(t.Context(), u)
	if err != nil {
		t.Fatalf("Settings: %v", err)
	}
	return st
}

func TestSettings(t *testing.T) {
	t.Parallel()

	t.Run("MadeOnFirstUseWithTwoSecrets", func(t *testing.T) {
		t.Parallel()
		tb := setup(t, "https://book.example.org")
		st := tb.settings(t, tb.alice)
		for name, s := range map[string]string{"feed": st.FeedSecret, "unsubscribe": st.UnsubscribeSecret} {
			raw, err := base64.RawURLEncoding.DecodeString(s)
			if err != nil || len(raw) != 32 {
				t.Errorf("%s secret %q: %d bytes (%v), want 32 of base64url", name, s, len(raw), err)
			}
		}
		if st.FeedSecret == st.UnsubscribeSecret {
			t.Errorf("the two secrets are the same")
		}
		if again := tb.settings(t, tb.alice); !cmp.Equal(again, st) {
			t.Errorf("read again: %+v, want %+v", again, st)
		}
		if other := tb.settings(t, tb.boris); other.FeedSecret == st.FeedSecret || other.OrganizationID != fx.OrgB {
			t.Errorf("Boris's settings %+v share Alice's secret or are not in B", other)
		}
	})

	t.Run("SetMailOff", func(t *testing.T) {
		t.Parallel()
		tb := setup(t, "")
		ctx := t.Context()
		if err := tb.svc.SetMailOff(ctx, tb.alice, []string{notify.OptionalReminder, notify.OptionalConfirmation, notify.OptionalReminder}); err != nil {
			t.Fatal(err)
		}
		want := []string{notify.OptionalConfirmation, notify.OptionalReminder}
		if got := tb.settings(t, tb.alice).MailOff; !cmp.Equal(got, want) {
			t.Errorf("MailOff = %v, want %v", got, want)
		}
		for name, kinds := range map[string][]string{
			"UnknownKind": {notify.OptionalInvitation, "cancellation"},
			"TooMany":     strings.Fields(strings.Repeat("reminder ", 17)),
		} {
			err := tb.svc.SetMailOff(ctx, tb.alice, kinds)
			var e *booking.Error
			if !errors.As(err, &e) || e.Code != booking.CodeInvalidRequest || e.Field != "mailOff" {
				t.Errorf("%s: err = %v, want 2000 on mailOff", name, err)
			}
		}
		if got := tb.settings(t, tb.alice).MailOff; !cmp.Equal(got, want) {
			t.Errorf("after refusals MailOff = %v, want %v unchanged", got, want)
		}
		if err := tb.svc.SetMailOff(ctx, tb.alice, nil); err != nil || len(tb.settings(t, tb.alice).MailOff) != 0 {
			t.Errorf("turning every kind on: %v, MailOff %v", err, tb.settings(t, tb.alice).MailOff)
		}
	})

	t.Run("RotateFeedKeepsTheRest", func(t *testing.T) {
		t.Parallel()
		tb := setup(t, "")
		before := tb.settings(t, tb.alice)
		after, err := tb.svc.RotateFeed(t.Context(), tb.alice)
		if err != nil {
			t.Fatal(err)
		}
		if after.FeedSecret == before.FeedSecret || after.UnsubscribeSecret != before.UnsubscribeSecret {
			t.Errorf("rotated: feed %q → %q, unsubscribe %q → %q; want a new feed secret only",
				before.FeedSecret, after.FeedSecret, before.UnsubscribeSecret, after.UnsubscribeSecret)
		}
		if _, err := tb.svc.PersonalFeed(t.Context(), before.FeedSecret); !errors.Is(err, notify.ErrUnknownLink) {
			t.Errorf("old feed secret: %v, want ErrUnknownLink", err)
		}
	})
}

func TestMailOff(t *testing.T) {
	t.Parallel()
	tb := setup(t, "https://book.example.org/")
	ctx := t.Context()
	if err := tb.svc.SetMailOff(ctx, tb.alice, []string{notify.OptionalInvitation}); err != nil {
		t.Fatal(err)
	}
	// Bob has no settings yet: he gets them. Boris is of another organization and nobody is unknown.
	got, err := tb.svc.MailOff(ctx, fx.OrgA, []uuid.UUID{fx.Alice, fx.Bob, fx.Boris, uuid.New(), fx.Alice})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("MailOff = %d people, want Alice and Bob", len(got))
	}
	if !got[fx.Alice].Off(notify.OptionalInvitation) || got[fx.Bob].Off(notify.OptionalInvitation) || got[fx.Bob].UnsubscribeSecret == "" {
		t.Errorf("Alice %+v, Bob %+v: want Alice's invitations off, Bob's on with a secret", got[fx.Alice], got[fx.Bob])
	}
	wantURL := "https://book.example.org/mail/unsubscribe/" + got[fx.Bob].UnsubscribeSecret + "/reminder"
	if u := tb.svc.UnsubscribeURL(got[fx.Bob], notify.OptionalReminder); u != wantURL {
		t.Errorf("UnsubscribeURL = %q, want %q", u, wantURL)
	}
	if _, err := tb.svc.MailOff(ctx, fx.OrgA, make([]uuid.UUID, 1001)); booking.ErrorCode(err) != booking.CodeInvalidRequest {
		t.Errorf("1001 ids: %v, want 2000", err)
	}
}

func TestUnsubscribe(t *testing.T) {
	t.Parallel()
	tb := setup(t, "")
	ctx := t.Context()
	st := tb.settings(t, tb.alice)
	for range 2 { // the second time changes nothing
		got, err := tb.svc.Unsubscribe(ctx, st.UnsubscribeSecret, notify.OptionalReminder)
		if err != nil || !cmp.Equal(got.MailOff, []string{notify.OptionalReminder}) {
			t.Errorf("Unsubscribe: MailOff %v (%v), want [reminder]", got.MailOff, err)
		}
	}
	for name, c := range map[string]struct {
		secret, kind string
		want         error
	}{
		"UnknownKind":       {st.UnsubscribeSecret, "cancellation", notify.ErrUnknownKind},
		"UnknownSecret":     {strings.Repeat("A", 43), notify.OptionalReminder, notify.ErrUnknownLink},
		"FeedSecretIsNot":   {st.FeedSecret, notify.OptionalReminder, notify.ErrUnknownLink},
		"MalformedSecret":   {"x' OR '1'='1", notify.OptionalReminder, notify.ErrUnknownLink},
		"SecretTooLong":     {st.UnsubscribeSecret + "A", notify.OptionalReminder, notify.ErrUnknownLink},
		"KindCheckedFirst":  {"nonsense", "nonsense", notify.ErrUnknownKind},
		"EmptyIsNotASecret": {"", notify.OptionalReminder, notify.ErrUnknownLink},
	} {
		if _, err := tb.svc.Unsubscribe(ctx, c.secret, c.kind); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	if got := tb.settings(t, tb.alice).MailOff; !cmp.Equal(got, []string{notify.OptionalReminder}) {
		t.Errorf("MailOff = %v after refusals, want [reminder]", got)
	}
}

func TestBookingUID(t *testing.T) {
	t.Parallel()
	id := uuid.MustParse("01890000-0000-7000-8000-000000000001")
	b := fx.Setup(t)
	for base, want := range map[string]string{
		"https://book.example.org":      id.String() + "@book.example.org",
		"http://127.0.0.1:8080/":        id.String() + "@127.0.0.1",
		"":                              id.String() + "@workspace-booking",
		"https://Book.Example.org:8443": id.String() + "@Book.Example.org",
	} {
		svc, err := notify.New(b.Pool, b.Service, notify.Config{BaseURL: base})
		if err != nil {
			t.Fatal(err)
		}
		if got := svc.BookingUID(id); got != want {
			t.Errorf("BaseURL %q: BookingUID = %q, want %q", base, got, want)
		}
	}
}

func TestPersonalFeedGoesWithTheAccount(t *testing.T) {
	t.Parallel()
	tb := setup(t, "")
	st := tb.settings(t, tb.alice)
	if _, err := tb.svc.PersonalFeed(t.Context(), st.FeedSecret); err != nil {
		t.Fatalf("PersonalFeed: %v", err)
	}
	if _, err := tb.Pool.Exec(t.Context(), `UPDATE users SET active = false, deactivated_at = now() WHERE id = $1`, fx.Alice); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.svc.PersonalFeed(t.Context(), st.FeedSecret); !errors.Is(err, notify.ErrUnknownLink) {
		t.Errorf("a deactivated person's feed: %v, want ErrUnknownLink", err)
	}
}
