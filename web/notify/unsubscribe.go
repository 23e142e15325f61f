package notify

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// ErrUnknownLink is returned for a feed or unsubscribe secret that names nobody: it was never made, or
// was rotated since.
var ErrUnknownLink = errors.New("notify: the link names nobody")

// ErrUnknownKind is returned for an unsubscribe link whose kind of e-mail is not one that can be turned
// off.
var ErrUnknownKind = errors.New("notify: not a kind of e-mail that can be turned off")

// plainSecret reports whether s looks like a secret newSecret made: 43 characters of base64url. Anything
// else is not looked up.
func plainSecret(s string) bool {
	if len(s) != secretLength {
		return false
	}
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// UnsubscribeLink returns the settings of the person whose unsubscribe link names secret and kind,
// changing nothing: the page that asks to confirm shows it.
// Errors: ErrUnknownKind, then ErrUnknownLink.
func (s *Service) UnsubscribeLink(ctx context.Context, secret, kind string) (Settings, error) {
	if !KnownMailKind(kind) {
		return Settings{}, ErrUnknownKind
	}
	if !plainSecret(secret) {
		return Settings{}, ErrUnknownLink
	}
	r, err := s.q.NoticeSettingsByUnsubscribeSecret(ctx, secret)
	if errors.Is(err, pgx.ErrNoRows) {
		return Settings{}, ErrUnknownLink
	}
	if err != nil {
		return Settings{}, fmt.Errorf("find unsubscribe secret: %w", err)
	}
	return settingsOf(r), nil
}

// Unsubscribe turns off the kind of e-mail for the person whose unsubscribe link names secret, and
// returns their settings. Turning off a kind that is off already changes nothing.
// Errors: as UnsubscribeLink.
func (s *Service) Unsubscribe(ctx context.Context, secret, kind string) (Settings, error) {
	st, err := s.UnsubscribeLink(ctx, secret, kind)
	if err != nil || st.Off(kind) {
		return st, err
	}
	r, err := s.q.NoticeSettingsMailOffAdd(ctx, queries.NoticeSettingsMailOffAddParams{UnsubscribeSecret: secret, Kind: kind})
	if errors.Is(err, pgx.ErrNoRows) {
		// Turned off meanwhile by another click: read it as it is now.
		return s.UnsubscribeLink(ctx, secret, kind)
	}
	if err != nil {
		return Settings{}, fmt.Errorf("unsubscribe: %w", err)
	}
	return settingsOf(r), nil
}
