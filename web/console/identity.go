package console

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// The admins' page of people from the identity provider: e-mail domains, the role of new people, the
// groups claim and its roles, and the SCIM tokens. Every handler calls one domain method, which refuses
// anyone but an admin (1001).

// Identity is GET /admin/identity.
func (s *Handlers) Identity(c echo.Context) error {
	p, err := s.adminIdentity(c)
	if err != nil {
		return err
	}
	_, p.Notice = s.PopFlash(c)
	return kit.Render(c, http.StatusOK, views.AdminIdentityPage(p))
}

// adminIdentity reads what the page shows, with the form filled from the stored settings.
func (s *Handlers) adminIdentity(c echo.Context) (views.AdminIdentity, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	st, err := s.people.SignInSettings(ctx, actor)
	if err != nil {
		return views.AdminIdentity{}, err
	}
	tokens, err := s.people.SCIMTokens(ctx, actor)
	if err != nil {
		return views.AdminIdentity{}, err
	}
	lines := make([]string, len(st.GroupRoles))
	for i, g := range st.GroupRoles {
		lines[i] = g.Group + " = " + roleWord(g.Role)
	}
	p := views.AdminIdentity{
		Chrome: s.Chrome(c, lang.T(kit.Ctx(c), "admin.identity.title")), Settings: st, Tokens: tokens,
		SCIMURL: s.PublicBase(c) + kit.SCIMPrefix, Domains: strings.Join(st.Domains, "\n"), GroupRoles: strings.Join(lines, "\n"),
	}
	p.Scopes = s.scopes
	return p, nil
}

// SaveSignInSettings is POST /admin/identity/settings (domains, defaultRole, defaultUserRule,
// defaultMobileRole, defaultLanguage, groupsClaim, groupRoles, scimAnyDomain). A refused change shows the form again as sent, with the
// reason.
func (s *Handlers) SaveSignInSettings(c echo.Context) error {
	domains, groupRoles := c.FormValue("domains"), c.FormValue("groupRoles")
	st := identity.SignInSettings{
		Domains:       strings.FieldsFunc(domains, func(r rune) bool { return r == '\n' || r == '\r' || r == ',' || r == ' ' }),
		DefaultRole:   booking.Role(c.FormValue("defaultRole")),
		GroupsClaim:   c.FormValue("groupsClaim"),
		SCIMAnyDomain: c.FormValue("scimAnyDomain") == "on",
		// A form without the field (an older page still open) keeps the language as it is.
		DefaultLanguage: c.FormValue("defaultLanguage"),
		// And who sees a person's bookings by default, likewise.
		DefaultBookingsVisibleTo: c.FormValue("defaultBookingsVisibleTo"),
	}
	ctx := kit.Ctx(c)
	var refusal string
	if st.DefaultLanguage == "" || st.DefaultBookingsVisibleTo == "" {
		now, err := s.people.SignInSettings(c.Request().Context(), kit.Actor(c))
		if err != nil {
			return err
		}
		st.DefaultLanguage = cmp.Or(st.DefaultLanguage, now.DefaultLanguage)
		st.DefaultBookingsVisibleTo = cmp.Or(st.DefaultBookingsVisibleTo, now.DefaultBookingsVisibleTo)
	}
	if !slices.Contains(lang.Codes(), st.DefaultLanguage) {
		refusal = lang.T(ctx, "admin.identity.refuseLanguage")
	}
	for _, f := range []struct {
		name, words string
		to          **uuid.UUID
	}{{"defaultUserRule", lang.T(ctx, "admin.identity.defaultUserRule"), &st.DefaultUserRule}, {"defaultMobileRole", lang.T(ctx, "admin.identity.defaultMobileRole"), &st.DefaultMobileRole}} {
		if v := c.FormValue(f.name); v != "" {
			id, err := uuid.Parse(v)
			if err != nil {
				refusal = lang.T(ctx, "admin.identity.refuseChoice", map[string]any{"Field": f.words})
				continue
			}
			*f.to = &id
		}
	}
	for _, line := range strings.Split(groupRoles, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		i := strings.LastIndex(line, "=")
		if i < 0 {
			refusal = lang.T(ctx, "admin.identity.refuseGroupRoles")
			break
		}
		st.GroupRoles = append(st.GroupRoles, identity.GroupRole{
			Group: line[:i], Role: booking.Role(strings.ToUpper(strings.TrimSpace(line[i+1:]))),
		})
	}
	err := kit.Refused(refusal)
	if refusal == "" {
		err = s.people.SetSignInSettings(c.Request().Context(), kit.Actor(c), st)
	}
	if refused, rerr := s.identityRefused(c, err, func(p *views.AdminIdentity) {
		p.Domains, p.GroupRoles = domains, groupRoles
		p.Settings.DefaultRole, p.Settings.GroupsClaim = st.DefaultRole, st.GroupsClaim
		p.Settings.DefaultUserRule, p.Settings.DefaultMobileRole = st.DefaultUserRule, st.DefaultMobileRole
		p.Settings.SCIMAnyDomain, p.Settings.DefaultLanguage = st.SCIMAnyDomain, st.DefaultLanguage
		p.Settings.DefaultBookingsVisibleTo = st.DefaultBookingsVisibleTo
	}); refused || rerr != nil {
		return rerr
	}
	s.PutFlash(c, "", lang.T(ctx, "admin.identity.settingsSaved"))
	return c.Redirect(http.StatusSeeOther, "/admin/identity")
}

// identityWords names the sign-in settings' fields as their form does.
var identityWords = map[string]string{
	"domains": "E-mail domains", "defaultRole": "Default role", "defaultUserRuleId": "Default user rule",
	"defaultMobileRoleId": "Default mobile role", "groupsClaim": "Groups claim", "groupRoles": "Groups and roles",
	"defaultLanguage": "Language of new people", "defaultBookingsVisibleTo": "Who sees a person's bookings",
}

// identityRefused answers a refusal in words (2000) with the page again, its reason on top and fill
// applied to what the page shows; refused reports whether it did. Any other error is returned as it is.
func (s *Handlers) identityRefused(c echo.Context, err error, fill func(*views.AdminIdentity)) (refused bool, _ error) {
	if booking.ErrorCode(err) != booking.CodeInvalidRequest {
		return false, err
	}
	prob, _, err := refusal(c, err, "setting", identityWords)
	if err != nil {
		return false, err
	}
	p, rerr := s.adminIdentity(c)
	if rerr != nil {
		return true, rerr
	}
	p.Problem = prob
	if fill != nil {
		fill(&p)
	}
	return true, kit.Render(c, http.StatusBadRequest, views.AdminIdentityPage(p))
}

// VerifyDomain is POST /admin/identity/domains/{domain}/verify: it looks up the domain's DNS record
// now. A record not there yet shows the page again with what to add.
func (s *Handlers) VerifyDomain(c echo.Context) error {
	d, err := s.people.VerifyEmailDomain(c.Request().Context(), kit.Actor(c), c.Param("domain"))
	if refused, rerr := s.identityRefused(c, err, nil); refused || rerr != nil {
		return rerr
	}
	s.PutFlash(c, "", lang.T(kit.Ctx(c), "admin.identity.domainVerified", map[string]any{"Domain": d.Domain}))
	return c.Redirect(http.StatusSeeOther, "/admin/identity")
}

// CreateSCIMToken is POST /admin/identity/tokens (name). The answer shows the secret once, and is
// never stored by the browser or a proxy.
func (s *Handlers) CreateSCIMToken(c echo.Context) error {
	t, secret, err := s.people.CreateSCIMToken(c.Request().Context(), kit.Actor(c), c.FormValue("name"))
	if refused, rerr := s.identityRefused(c, err, nil); refused || rerr != nil {
		return rerr
	}
	p, err := s.adminIdentity(c)
	if err != nil {
		return err
	}
	p.NewToken = &views.NewSCIMToken{Name: t.Name, Secret: secret}
	c.Response().Header().Set("Cache-Control", "no-store")
	return kit.Render(c, http.StatusCreated, views.AdminIdentityPage(p))
}

// RevokeSCIMToken is POST /admin/identity/tokens/{tokenId}/revoke.
func (s *Handlers) RevokeSCIMToken(c echo.Context) error {
	id, err := uuid.Parse(c.Param("tokenId"))
	if err != nil {
		return booking.Refuse(booking.CodeObjectNotFound, "refusal.console.noSCIMToken", map[string]any{"ID": c.Param("tokenId")})
	}
	if err := s.people.RevokeSCIMToken(c.Request().Context(), kit.Actor(c), id); err != nil {
		return err
	}
	s.PutFlash(c, "", lang.T(kit.Ctx(c), "admin.identity.tokenRevoked"))
	return c.Redirect(http.StatusSeeOther, "/admin/identity")
}

// roleWord is a role as the form's text writes it.
func roleWord(r booking.Role) string {
	return strings.ToUpper(string(r[:1])) + strings.ToLower(string(r[1:]))
}
