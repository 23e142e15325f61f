package notify

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// What each person chose about being told: the optional e-mails they turned off, and the secrets of
// their calendar feed and of their unsubscribe links (table notice_settings).

// MailKinds returns the optional kinds of e-mail (the Optional constants) in the order the settings page
// lists them.
func MailKinds() []string {
	return []string{OptionalConfirmation, OptionalInvitation, OptionalReminder, OptionalApproval}
}

// KnownMailKind reports whether kind is one of MailKinds.
func KnownMailKind(kind string) bool { return slices.Contains(MailKinds(), kind) }

// Settings is what one person chose. FeedSecret names their private calendar feed and
// UnsubscribeSecret their unsubscribe links; each is 32 random bytes, base64url, and unique. MailOff
// holds known kinds only, each once, in the order of MailKinds.
type Settings struct {
	OrganizationID    uuid.UUID
	UserID            uuid.UUID
	FeedSecret        string
	UnsubscribeSecret string
	MailOff           []string
	UpdatedAt         time.Time
}

// Off reports whether the person turned off e-mails of the kind.
func (st Settings) Off(kind string) bool { return slices.Contains(st.MailOff, kind) }

// settingsOf turns a row into Settings.
func settingsOf(r queries.NoticeSetting) Settings {
	// The database allows known kinds only; the order and any repeat are made right here.
	off := slices.DeleteFunc(MailKinds(), func(k string) bool { return !slices.Contains(r.MailOff, k) })
	return Settings{
		OrganizationID: r.OrganizationID, UserID: r.UserID, FeedSecret: r.FeedSecret,
		UnsubscribeSecret: r.UnsubscribeSecret, MailOff: off, UpdatedAt: r.UpdatedAt,
	}
}

// secretLength is the length of every secret newSecret makes (32 bytes in base64url without padding);
// a longer or shorter one names nothing.
const secretLength = 43

// Settings returns u's settings, making them with two new secrets the first time.
func (s *Service) Settings(ctx context.Context, u booking.User) (Settings, error) {
	r, err := s.q.NoticeSettingsGet(ctx, queries.NoticeSettingsGetParams{OrganizationID: u.OrganizationID, UserID: u.ID})
	if errors.Is(err, pgx.ErrNoRows) {
		all, err := s.MailOff(ctx, u.OrganizationID, []uuid.UUID{u.ID})
		if err != nil {
			return Settings{}, err
		}
		st, ok := all[u.ID]
		if !ok {
			return Settings{}, fmt.Errorf("make notice settings: no user %s in organization %s", u.ID, u.OrganizationID)
		}
		return st, nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("get notice settings: %w", err)
	}
	return settingsOf(r), nil
}

// maxMailKindsGiven bounds the kinds one change may name, repeats included.
const maxMailKindsGiven = 16

// SetMailOff turns off exactly the given optional kinds of e-mail for u, and turns the others on.
// Codes: 2000 an unknown kind, or more than 16 given (field mailOff); nothing changes then.
func (s *Service) SetMailOff(ctx context.Context, u booking.User, kinds []string) error {
	off, err := mailOffList(kinds)
	if err != nil {
		return err
	}
	if _, err := s.Settings(ctx, u); err != nil {
		return err
	}
	return s.setMailOff(ctx, u, off)
}

// MailKindsFor returns the optional kinds of e-mail u can choose, in the order of MailKinds: e-mails
// about bookings that wait for approval go to admins only.
func MailKindsFor(u booking.User) []string {
	return slices.DeleteFunc(MailKinds(), func(k string) bool {
		return k == OptionalApproval && u.Role != booking.RoleAdmin
	})
}

// ChooseMail turns on exactly the kinds in on of those u can choose (MailKindsFor), and turns the other
// ones off. A kind u cannot choose keeps its setting.
// Codes: 2000 a kind u cannot choose, or more than 16 given (field on); nothing changes then.
func (s *Service) ChooseMail(ctx context.Context, u booking.User, on []string) error {
	if len(on) > maxMailKindsGiven {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "on", "refusal.webhooks.tooManyMailKinds", map[string]any{"Max": maxMailKindsGiven})
	}
	choosable := MailKindsFor(u)
	for _, k := range on {
		if !slices.Contains(choosable, k) {
			return booking.FieldRefuse(booking.CodeInvalidRequest, "on", "refusal.webhooks.mailKindNotChoosable", map[string]any{"Kind": strconv.Quote(clip(k))})
		}
	}
	st, err := s.Settings(ctx, u)
	if err != nil {
		return err
	}
	off := slices.DeleteFunc(MailKinds(), func(k string) bool {
		if slices.Contains(choosable, k) {
			return slices.Contains(on, k)
		}
		return !st.Off(k)
	})
	return s.setMailOff(ctx, u, off)
}

// setMailOff writes the kinds u turned off, known and each once, to u's settings, which exist.
func (s *Service) setMailOff(ctx context.Context, u booking.User, off []string) error {
	_, err := s.q.NoticeSettingsSetMailOff(ctx, queries.NoticeSettingsSetMailOffParams{
		OrganizationID: u.OrganizationID, UserID: u.ID, MailOff: off,
	})
	if err != nil {
		return fmt.Errorf("set mail off: %w", err)
	}
	return nil
}

// mailOffList checks kinds and returns them each once, in the order of MailKinds.
// Codes: 2000.
func mailOffList(kinds []string) ([]string, error) {
	if len(kinds) > maxMailKindsGiven {
		return nil, booking.FieldRefuse(booking.CodeInvalidRequest, "mailOff", "refusal.webhooks.tooManyMailKinds", map[string]any{"Max": maxMailKindsGiven})
	}
	for _, k := range kinds {
		if !KnownMailKind(k) {
			return nil, booking.FieldRefuse(booking.CodeInvalidRequest, "mailOff", "refusal.webhooks.mailKindUnknown",
				map[string]any{"Kind": strconv.Quote(clip(k)), "Kinds": fmt.Sprint(MailKinds())})
		}
	}
	return slices.DeleteFunc(MailKinds(), func(k string) bool { return !slices.Contains(kinds, k) }), nil
}

// RotateFeed gives u's calendar feed a new secret, and returns the settings with it. The feed's old
// address names nothing from then on.
func (s *Service) RotateFeed(ctx context.Context, u booking.User) (Settings, error) {
	if _, err := s.Settings(ctx, u); err != nil {
		return Settings{}, err
	}
	r, err := s.q.NoticeSettingsSetFeedSecret(ctx, queries.NoticeSettingsSetFeedSecretParams{
		OrganizationID: u.OrganizationID, UserID: u.ID, FeedSecret: newSecret(),
	})
	if err != nil {
		return Settings{}, fmt.Errorf("rotate feed secret: %w", err)
	}
	return settingsOf(r), nil
}

// maxMailOffUsers bounds the people one MailOff call reads: the attendees of a booking and its organizer
// and creator, with room to spare.
const maxMailOffUsers = 1000

// MailOff returns the settings of the given people of the organization, keyed by user id, making them
// for those who have none yet (so that each has an unsubscribe secret). Ids that name nobody of the
// organization are left out of the map.
// Codes: 2000 more than 1000 ids.
func (s *Service) MailOff(ctx context.Context, org uuid.UUID, userIDs []uuid.UUID) (map[uuid.UUID]Settings, error) {
	if len(userIDs) > maxMailOffUsers {
		return nil, booking.Refuse(booking.CodeInvalidRequest, "refusal.webhooks.tooManyPeople", map[string]any{"Max": maxMailOffUsers})
	}
	out := make(map[uuid.UUID]Settings, len(userIDs))
	if len(userIDs) == 0 {
		return out, nil
	}
	ids := slices.Clone(userIDs)
	slices.SortFunc(ids, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
	ids = slices.Compact(ids)
	feed, unsub := make([]string, len(ids)), make([]string, len(ids))
	for i := range ids {
		feed[i], unsub[i] = newSecret(), newSecret()
	}
	if err := s.q.NoticeSettingsCreateMany(ctx, queries.NoticeSettingsCreateManyParams{
		OrganizationID: org, UserIds: ids, FeedSecrets: feed, UnsubscribeSecrets: unsub,
	}); err != nil {
		return nil, fmt.Errorf("make notice settings: %w", err)
	}
	rows, err := s.q.NoticeSettingsOfUsers(ctx, queries.NoticeSettingsOfUsersParams{OrganizationID: org, UserIds: ids})
	if err != nil {
		return nil, fmt.Errorf("get notice settings: %w", err)
	}
	for _, r := range rows {
		out[r.UserID] = settingsOf(r)
	}
	return out, nil
}

// UnsubscribeURL returns the one-click unsubscribe link of kind for the person of st:
// {BaseURL}/mail/unsubscribe/{secret}/{kind}; "" when BaseURL is not set, since a link needs it, or when
// st has no secret (a person MailOff did not know).
func (s *Service) UnsubscribeURL(st Settings, kind string) string {
	if s.cfg.BaseURL == "" || st.UnsubscribeSecret == "" {
		return ""
	}
	return strings.TrimSuffix(s.cfg.BaseURL, "/") + UnsubscribePath(st.UnsubscribeSecret, kind)
}

// UnsubscribePath is the path of an unsubscribe link.
func UnsubscribePath(secret, kind string) string {
	return "/mail/unsubscribe/" + url.PathEscape(secret) + "/" + url.PathEscape(kind)
}

// FeedPath is the path of a person's calendar feed.
func FeedPath(st Settings) string { return "/ical/" + url.PathEscape(st.FeedSecret) + ".ics" }
