package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"

	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"golang.org/x/oauth2"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// The keys of what a browser session holds.
const (
	sessionUser         = "user"           // the signed-in user's id
	sessionOrganization = "organization"   // and organization
	sessionState        = "oidc_state"     // during sign-in: the state sent to the provider
	sessionNonce        = "oidc_nonce"     // the nonce the ID token must carry
	sessionVerifier     = "oidc_verifier"  // the PKCE verifier
	sessionNext         = "oidc_next"      // where to go once signed in
	sessionLanguage     = "language"       // the language chosen before signing in
	sessionLifetime     = 12 * time.Hour   // a working day, whatever the activity
	sessionIdle         = 2 * time.Hour    // signed out after this long without a request
	signInPath          = kit.SignInPath   // the sign-in page
	callbackPath        = "/auth/callback" // where the identity provider sends people back
)

// newSessions keeps browser sessions in store: HttpOnly, SameSite=Lax cookies, Secure behind https.
func newSessions(store scs.Store, secure bool) *scs.SessionManager {
	sm := scs.New()
	if store != nil {
		sm.Store = store
	}
	sm.Lifetime, sm.IdleTimeout = sessionLifetime, sessionIdle
	sm.Cookie.Name = SessionCookie
	sm.Cookie.HttpOnly, sm.Cookie.SameSite, sm.Cookie.Secure = true, http.SameSiteLaxMode, secure
	return sm
}

// session loads the browser session around a page request and saves it before the response is written.
// Errors are answered inside, so that the session cookie is written once.
func (s *Server) session(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		c.SetRequest(r.WithContext(context.WithValue(r.Context(), echoContextKey{}, c)))
		s.Sessions.LoadAndSave(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c.SetRequest(r)
			c.Response().Writer = w
			c.Set(kit.ChosenLanguageKey, s.Sessions.GetString(r.Context(), sessionLanguage))
			if err := next(c); err != nil {
				c.Error(err)
			}
		})).ServeHTTP(c.Response().Writer, c.Request())
		return nil
	}
}

// echoContextKey carries a page request's echo.Context to sessionError.
type echoContextKey struct{}

// sessionError answers a page whose session could not be read or kept. One that could not be read goes
// to the error handler like any failure, so that a database that cannot be reached is 503; one that
// could not be kept (the answer is already being written) is cut short with the same status.
func (s *Server) sessionError(w http.ResponseWriter, r *http.Request, err error) {
	if c, ok := r.Context().Value(echoContextKey{}).(echo.Context); ok && c.Response().Writer == w {
		c.Error(err)
		return
	}
	status := http.StatusInternalServerError
	if _, st := kit.Refusal(err); st != 0 {
		status = st
	}
	s.log.ErrorContext(r.Context(), "session not saved", slog.String("path", r.URL.Path), slog.Any("error", err))
	http.Error(w, http.StatusText(status), status)
}

// sessionPerson returns the organization and id of the person the session is signed in as; ok is false
// when nobody is.
func (s *Server) sessionPerson(ctx context.Context) (org, id uuid.UUID, ok bool) {
	id, err1 := uuid.Parse(s.Sessions.GetString(ctx, sessionUser))
	org, err2 := uuid.Parse(s.Sessions.GetString(ctx, sessionOrganization))
	return org, id, err1 == nil && err2 == nil
}

// requireUser lets signed-in people through, with their user as the actor of the request, and sends
// everybody else to the sign-in page, coming back here afterwards.
func (s *Server) requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		if org, id, ok := s.sessionPerson(ctx); ok {
			u, err := s.bookings.UserByID(ctx, org, id)
			if err == nil {
				c.Set(kit.ActorKey, u)
				return next(c)
			}
			deactivated := errors.Is(err, booking.ErrDeactivated)
			if !deactivated && !errors.Is(err, booking.ErrUnknownUser) {
				return err
			}
			if deactivated {
				if err := s.Sessions.Destroy(ctx); err != nil {
					return fmt.Errorf("end session: %w", err)
				}
				if !kit.IsHTMX(c) {
					return s.deactivated(c, org)
				}
			}
		}
		to := signInURL(c.Request().URL.RequestURI())
		if kit.IsHTMX(c) {
			// Come back to the page that made the request, not to the fragment it asked for.
			if cur, err := url.Parse(c.Request().Header.Get("HX-Current-URL")); err == nil && cur.Path != "" {
				to = signInURL(cur.RequestURI())
			} else {
				to = signInPath
			}
			c.Response().Header().Set("HX-Redirect", to)
			return c.NoContent(http.StatusNoContent)
		}
		if c.Request().Method != http.MethodGet {
			to = signInPath
		}
		return c.Redirect(http.StatusSeeOther, to)
	}
}

// pageSignIn starts the identity provider's sign-in, or shows the development sign-in, or explains that
// signing in is not set up.
func (s *Server) pageSignIn(c echo.Context) error {
	ctx, next := c.Request().Context(), kit.LocalPath(c.QueryParam("next"))
	signedOut := c.QueryParam("signed_out") != ""
	switch {
	case s.idp != nil && signedOut:
		return kit.Render(c, http.StatusOK, views.SignedOut(s.Chrome(c, lang.T(kit.Ctx(c), "signin.signedOutPageTitle"))))
	case s.idp != nil:
		d := s.idp.ready()
		if d == nil {
			return s.signInStarting(c, signInURL(next))
		}
		state, nonce, verifier := rand.Text(), rand.Text(), oauth2.GenerateVerifier()
		s.Sessions.Put(ctx, sessionState, state)
		s.Sessions.Put(ctx, sessionNonce, nonce)
		s.Sessions.Put(ctx, sessionVerifier, verifier)
		s.Sessions.Put(ctx, sessionNext, next)
		return c.Redirect(http.StatusSeeOther,
			d.oauth.AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier)))
	case s.Dev:
		people, err := s.people.DevelopmentUsers(ctx)
		if err != nil {
			return err
		}
		return kit.Render(c, http.StatusOK, views.DevSignIn(s.Chrome(c, lang.T(kit.Ctx(c), "signin.title")), people, next, signedOut))
	}
	return kit.Render(c, http.StatusServiceUnavailable, views.SignInUnavailable(s.Chrome(c, lang.T(kit.Ctx(c), "signin.unavailableTitle"))))
}

// signInStarting answers a sign-in while the identity provider has not been reached since the service
// started: 503, with a page that asks to try again in a minute, at retry.
func (s *Server) signInStarting(c echo.Context, retry string) error {
	c.Response().Header().Set("Retry-After", "60")
	return kit.Render(c, http.StatusServiceUnavailable, views.SignInStarting(s.Chrome(c, lang.T(kit.Ctx(c), "signin.startingTitle")), retry))
}

// pageDevSignIn signs in as the chosen person, in development mode only.
func (s *Server) pageDevSignIn(c echo.Context) error {
	if !s.Dev {
		return echo.ErrNotFound
	}
	id, err := uuid.Parse(c.FormValue("user"))
	if err != nil {
		return kit.Refuse("signin.choosePerson")
	}
	u, err := s.people.FindUser(c.Request().Context(), id)
	if err != nil {
		return err
	}
	if !u.Active {
		return s.deactivated(c, u.OrganizationID)
	}
	if err := s.signIn(c, u, ""); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, kit.LocalPath(c.FormValue("next")))
}

// pageAuthCallback finishes the identity provider's sign-in: it checks state, exchanges the code with the
// PKCE verifier, verifies the ID token and its nonce, and finds the person by subject, then by verified
// e-mail, or creates them (identity.Service.SignIn).
func (s *Server) pageAuthCallback(c echo.Context) error {
	if s.idp == nil {
		return echo.ErrNotFound
	}
	d := s.idp.ready()
	if d == nil {
		return s.signInStarting(c, signInPath)
	}
	ctx := c.Request().Context()
	state := s.Sessions.PopString(ctx, sessionState)
	nonce := s.Sessions.PopString(ctx, sessionNonce)
	verifier := s.Sessions.PopString(ctx, sessionVerifier)
	next := kit.LocalPath(s.Sessions.PopString(ctx, sessionNext))
	// fail logs why a sign-in failed, in English, and tells the person in their language (words).
	fail := func(reason, words string, err error) error {
		s.log.WarnContext(ctx, "sign-in failed", slog.String("reason", reason), slog.Any("error", err))
		return kit.Render(c, http.StatusBadRequest, views.SignInFailed(s.Chrome(c, lang.T(kit.Ctx(c), "signin.failedTitle")), words))
	}
	lc := kit.Ctx(c)
	if e := c.QueryParam("error"); e != "" {
		// The provider's words go to the log only: anyone can send a link with error_description.
		s.log.WarnContext(ctx, "identity provider error", slog.String("error", kit.ClipText(e)),
			slog.String("description", kit.ClipText(c.QueryParam("error_description"))))
		return kit.Render(c, http.StatusBadRequest, views.SignInFailed(s.Chrome(c, lang.T(lc, "signin.failedTitle")), providerError(lc, e)))
	}
	if state == "" || c.QueryParam("state") != state {
		return fail("This sign-in link has expired or was not started here.", lang.T(lc, "signin.failExpired"), nil)
	}
	tok, err := d.oauth.Exchange(oidc.ClientContext(ctx, s.idp.client), c.QueryParam("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		return fail("The identity provider did not accept the sign-in code.", lang.T(lc, "signin.failCode"), err)
	}
	raw, _ := tok.Extra("id_token").(string)
	idTok, err := d.idTokens.Verify(ctx, raw)
	if err != nil {
		return fail("The identity provider's answer could not be verified.", lang.T(lc, "signin.failVerify"), err)
	}
	if idTok.Nonce != nonce {
		return fail("The identity provider's answer was not meant for this sign-in.", lang.T(lc, "signin.failNonce"), nil)
	}
	var claims map[string]any
	if err := idTok.Claims(&claims); err != nil {
		return fail("The identity provider's answer could not be read.", lang.T(lc, "signin.failClaims"), err)
	}
	_, hasEmail := claims["email"]
	_, hasVerified := claims["email_verified"]
	if (!hasEmail || !hasVerified) && d.provider.UserInfoEndpoint() != "" {
		// Some providers name the person's e-mail address, or say that it is verified, only at the
		// userinfo endpoint (Okta leaves email_verified out of the ID token).
		// Without an address in the ID token, the answer is needed; with one, it only adds what it can.
		info, err := s.idp.userInfo(ctx, d, tok, idTok.Subject)
		switch {
		case err != nil && !hasEmail:
			return fail("The identity provider's answer about you could not be read.", lang.T(lc, "signin.failUserinfo"), err)
		case err != nil:
			s.log.WarnContext(ctx, "userinfo not used: the address of the ID token counts as unverified", slog.Any("error", err))
		default:
			mergeUserinfo(claims, info)
		}
	}
	id := identityOf(idTok.Subject, claims)
	u, err := s.people.SignIn(ctx, id)
	var refusal *booking.Error
	switch {
	case errors.Is(err, booking.ErrDeactivated):
		s.logRefusedSignIn(c, "deactivated", id, slog.String("user", u.ID.String()))
		return s.deactivated(c, u.OrganizationID)
	case errors.As(err, &refusal) && refusal.Code == booking.CodeUnauthorized:
		s.logRefusedSignIn(c, refusal.Reason, id)
		return kit.Render(c, http.StatusForbidden, views.UnknownPerson(s.Chrome(c, lang.T(lc, "signin.unknownPageTitle")), id.Email, refusal.In(lc)))
	case err != nil:
		return err
	}
	if err := s.signIn(c, u, tok.AccessToken); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, next)
}

// signIn starts a new session (a new token, against session fixation) for the user. The identity
// provider's access token is kept as the user's (KeepUserAccessToken), never in the session; one too long
// to keep is dropped, and the sign-in goes on.
func (s *Server) signIn(c echo.Context, u booking.User, accessToken string) error {
	ctx := c.Request().Context()
	if err := s.Sessions.RenewToken(ctx); err != nil {
		return fmt.Errorf("renew session: %w", err)
	}
	s.Sessions.Put(ctx, sessionUser, u.ID.String())
	s.Sessions.Put(ctx, sessionOrganization, u.OrganizationID.String())
	err := s.bookings.KeepUserAccessToken(ctx, u, accessToken)
	if booking.ErrorCode(err) == booking.CodeInvalidRequest {
		s.log.WarnContext(ctx, "the identity provider's access token is too long to keep", slog.Int("bytes", len(accessToken)))
		return nil
	}
	return err
}

// pageSignOut ends the session, under a new token, and shows the sign-in page.
func (s *Server) pageSignOut(c echo.Context) error {
	ctx := c.Request().Context()
	if err := s.Sessions.Clear(ctx); err != nil {
		return fmt.Errorf("clear session: %w", err)
	}
	if err := s.Sessions.RenewToken(ctx); err != nil {
		return fmt.Errorf("renew session: %w", err)
	}
	return c.Redirect(http.StatusSeeOther, signInPath+"?signed_out=1")
}

// mergeUserinfo completes the claims of an ID token with those of the userinfo answer: the ID token's
// own claims stay. The answer's email_verified is taken only for the ID token's address (or for its own
// when the ID token has none), so that it never vouches for another address.
func mergeUserinfo(claims, info map[string]any) {
	idEmail, _ := claims["email"].(string)
	infoEmail, _ := info["email"].(string)
	if idEmail != "" && !strings.EqualFold(idEmail, infoEmail) {
		delete(info, "email_verified")
	}
	for k, v := range info {
		if _, ok := claims[k]; !ok {
			claims[k] = v
		}
	}
}

// identityOf reads what the claims of an ID token, completed at the userinfo endpoint, say about the
// person signing in (see emailVerified for the address).
func identityOf(subject string, claims map[string]any) identity.Identity {
	text := func(name string) string { v, _ := claims[name].(string); return v }
	return identity.Identity{
		Subject: subject, Email: text("email"), EmailVerified: emailVerified(claims),
		Name: text("name"), GivenName: text("given_name"), FamilyName: text("family_name"), Claims: claims,
	}
}

// emailVerified reports whether the provider vouches for the address of the claims: email_verified is
// true (the JSON boolean, not "true"), or, when the provider sends no email_verified, Entra ID's
// xms_edov (the address's domain owner verified it) is true.
func emailVerified(claims map[string]any) bool {
	if v, ok := claims["email_verified"]; ok {
		return v == true
	}
	return claims["xms_edov"] == true
}

// logRefusedSignIn logs a sign-in refused with 403 and its reason. The subject and the e-mail address
// appear only as hashes (see pseudonym), so that the log can tell one person's tries from another's
// without holding who they are.
func (s *Server) logRefusedSignIn(c echo.Context, reason string, id identity.Identity, more ...slog.Attr) {
	if reason == "" {
		reason = "unknown-person"
	}
	attrs := append([]slog.Attr{
		slog.String("reason", reason),
		slog.String("subject_hash", pseudonym(id.Subject)),
		slog.String("email_hash", pseudonym(strings.ToLower(id.Email))),
		slog.Bool("email_verified", id.EmailVerified),
	}, more...)
	s.log.LogAttrs(c.Request().Context(), slog.LevelWarn, "sign-in refused", attrs...)
}

// pseudonym is the first 12 hex digits of the SHA-256 of v, or "" for "".
func pseudonym(v string) string {
	if v == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(v))
	return fmt.Sprintf("%x", sum[:6])
}

// deactivated answers a deactivated person's sign-in or page with a page that says whom to ask.
func (s *Server) deactivated(c echo.Context, org uuid.UUID) error {
	contacts, err := s.people.AccountContacts(c.Request().Context(), org)
	if err != nil {
		return err
	}
	return kit.Render(c, http.StatusForbidden, views.Deactivated(s.Chrome(c, lang.T(kit.Ctx(c), "signin.deactivatedPageTitle")), contacts))
}

// providerError returns a fixed sentence, in ctx's language, for a provider's error code of RFC 6749
// (section 4.1.2.1); any other code gets one generic sentence, so the page never shows what the link
// carried.
func providerError(ctx context.Context, code string) string {
	switch code {
	case "access_denied":
		return lang.T(ctx, "signin.providerAccessDenied")
	case "invalid_request":
		return lang.T(ctx, "signin.providerInvalidRequest")
	case "unauthorized_client":
		return lang.T(ctx, "signin.providerUnauthorizedClient")
	case "unsupported_response_type":
		return lang.T(ctx, "signin.providerUnsupportedResponseType")
	case "invalid_scope":
		return lang.T(ctx, "signin.providerInvalidScope")
	case "server_error":
		return lang.T(ctx, "signin.providerServerError")
	case "temporarily_unavailable":
		return lang.T(ctx, "signin.providerTemporarilyUnavailable")
	}
	return lang.T(ctx, "signin.providerOther")
}

// requireAdmin refuses the page to anyone but an admin of the organization, with the 403 page.
func (s *Server) requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if kit.Actor(c).Role != booking.RoleAdmin {
			return booking.Errorf(booking.CodeForbidden, "%s", lang.T(kit.Ctx(c), "error.adminOnly"))
		}
		return next(c)
	}
}
