package web

import (
	"context"
	"fmt"

	"github.com/alexedwards/scs/v2"
	"github.com/google/uuid"
)

// SessionCookie is the name of the browser session's cookie.
const SessionCookie = "booking_session"

// StartSession writes a signed-in browser session for a user straight into store, as signing in would,
// and returns its token: the value of the SessionCookie cookie. It lets load tests open the pages as
// many people without an identity provider. No route calls it: nobody can start a session over HTTP
// this way. It checks nothing about the user; a user who does not exist or is deactivated is sent to
// the sign-in page by the first request, as after any sign-in.
func StartSession(ctx context.Context, store scs.Store, organization, user uuid.UUID) (string, error) {
	sm := newSessions(store, false)
	ctx, err := sm.Load(ctx, "")
	if err != nil {
		return "", fmt.Errorf("start a session: %w", err)
	}
	sm.Put(ctx, sessionUser, user.String())
	sm.Put(ctx, sessionOrganization, organization.String())
	token, _, err := sm.Commit(ctx)
	if err != nil {
		return "", fmt.Errorf("save the session: %w", err)
	}
	return token, nil
}
