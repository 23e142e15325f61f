package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// The sign-in settings in the Admin API: the e-mail domains with their proofs, the role of new people, the
// groups claim and the roles of groups. The same domain methods serve the page /admin/identity.

// identityDTO is the sign-in settings as GET /api/v1/admin/identity answers them and PUT takes them. PUT
// reads only the domain names of Domains; their states are the service's. PUT keeps the default user rule
// and mobile role, scimAnyDomain and defaultLanguage when their fields are left out, and clears the first
// two with null. defaultLanguage must be a language the service speaks ("en", "es"). LastSignInClaims is
// the service's: PUT ignores it.
type identityDTO struct {
	Domains           []emailDomainDTO `json:"domains"`
	DefaultRole       booking.Role     `json:"defaultRole"`
	DefaultUserRuleID optionalID       `json:"defaultUserRuleId"`
	DefaultMobileRole optionalID       `json:"defaultMobileRoleId"`
	GroupsClaim       string           `json:"groupsClaim"`
	GroupRoles        []groupRoleDTO   `json:"groupRoles"`
	SCIMAnyDomain     *bool            `json:"scimAnyDomain"`
	DefaultLanguage   *string          `json:"defaultLanguage"`
	DefaultVisibility *string          `json:"defaultBookingsVisibleTo"`
	LastSignInClaims  []string         `json:"lastSignInClaims"`
}

// optionalID is an id that may be null, and remembers whether it was given at all.
type optionalID struct {
	Given bool
	ID    *uuid.UUID
}

func (o optionalID) MarshalJSON() ([]byte, error) { return json.Marshal(o.ID) }

func (o *optionalID) UnmarshalJSON(b []byte) error {
	o.Given = true
	return json.Unmarshal(b, &o.ID)
}

// emailDomainDTO is one claimed e-mail domain. VerificationRecord is the DNS TXT record that proves it.
type emailDomainDTO struct {
	Domain             string `json:"domain"`
	Verified           bool   `json:"verified"`
	VerifiedBy         string `json:"verifiedBy,omitempty"`
	VerifiedAt         *int64 `json:"verifiedAt,omitempty"`
	CheckedAt          *int64 `json:"checkedAt,omitempty"`
	VerificationRecord string `json:"verificationRecord,omitempty"`
}

type groupRoleDTO struct {
	Group string       `json:"group"`
	Role  booking.Role `json:"role"`
}

func toEmailDomainDTO(d identity.EmailDomain) emailDomainDTO {
	dto := emailDomainDTO{Domain: d.Domain, Verified: d.Verified(), VerifiedBy: d.VerifiedBy}
	if d.VerifiedAt != nil {
		dto.VerifiedAt = new(millis(*d.VerifiedAt))
	}
	if d.CheckedAt != nil {
		dto.CheckedAt = new(millis(*d.CheckedAt))
	}
	if !d.Verified() {
		dto.VerificationRecord = d.Record()
	}
	return dto
}

func toIdentityDTO(st identity.SignInSettings) identityDTO {
	dto := identityDTO{
		DefaultRole: st.DefaultRole, GroupsClaim: st.GroupsClaim, Domains: []emailDomainDTO{}, GroupRoles: []groupRoleDTO{},
		DefaultUserRuleID: optionalID{ID: st.DefaultUserRule}, DefaultMobileRole: optionalID{ID: st.DefaultMobileRole},
		LastSignInClaims: append([]string{}, st.LastClaims...), SCIMAnyDomain: &st.SCIMAnyDomain,
		DefaultLanguage: &st.DefaultLanguage, DefaultVisibility: &st.DefaultBookingsVisibleTo,
	}
	for _, d := range st.DomainStates {
		dto.Domains = append(dto.Domains, toEmailDomainDTO(d))
	}
	for _, g := range st.GroupRoles {
		dto.GroupRoles = append(dto.GroupRoles, groupRoleDTO{Group: g.Group, Role: g.Role})
	}
	return dto
}

// AdminIdentity is GET /api/v1/admin/identity: the sign-in settings, with their ETag.
func (s *Handlers) AdminIdentity(c echo.Context) error {
	st, err := s.people.SignInSettings(c.Request().Context(), kit.Actor(c))
	if err != nil {
		return err
	}
	return identityAnswer(c, st)
}

// AdminPutIdentity is PUT /api/v1/admin/identity: replaces the sign-in settings, under If-Match when it
// is sent, and answers them as they are then.
func (s *Handlers) AdminPutIdentity(c echo.Context) error {
	actor := kit.Actor(c) // an admin now: currentAdmin read them again before the body
	body, err := kit.ReadBody(c)
	if err != nil {
		return err
	}
	var dto identityDTO
	if err := kit.DecodeJSON(body, "", &dto); err != nil {
		return err
	}
	if len(dto.Domains) > identity.MaxEmailDomains || len(dto.GroupRoles) > identity.MaxGroupRoles {
		return kit.Refuse("refusal.identity.tooManyDomainsOrGroups", map[string]any{"Domains": identity.MaxEmailDomains, "Groups": identity.MaxGroupRoles})
	}
	ctx := c.Request().Context()
	st := identity.SignInSettings{DefaultRole: dto.DefaultRole, GroupsClaim: dto.GroupsClaim}
	if dto.DefaultLanguage != nil && !slices.Contains(lang.Codes(), *dto.DefaultLanguage) {
		return kit.FieldRefuse("defaultLanguage", "refusal.identity.languageNotSpoken", map[string]any{"Codes": strings.Join(lang.Codes(), ", ")})
	}
	if !dto.DefaultUserRuleID.Given || !dto.DefaultMobileRole.Given || dto.SCIMAnyDomain == nil || dto.DefaultLanguage == nil || dto.DefaultVisibility == nil {
		now, err := s.people.SignInSettings(ctx, actor)
		if err != nil {
			return err
		}
		st.DefaultUserRule, st.DefaultMobileRole, st.SCIMAnyDomain = now.DefaultUserRule, now.DefaultMobileRole, now.SCIMAnyDomain
		st.DefaultLanguage, st.DefaultBookingsVisibleTo = now.DefaultLanguage, now.DefaultBookingsVisibleTo
	}
	if dto.DefaultVisibility != nil {
		st.DefaultBookingsVisibleTo = *dto.DefaultVisibility
	}
	if dto.DefaultLanguage != nil {
		st.DefaultLanguage = *dto.DefaultLanguage
	}
	if dto.SCIMAnyDomain != nil {
		st.SCIMAnyDomain = *dto.SCIMAnyDomain
	}
	if dto.DefaultUserRuleID.Given {
		st.DefaultUserRule = dto.DefaultUserRuleID.ID
	}
	if dto.DefaultMobileRole.Given {
		st.DefaultMobileRole = dto.DefaultMobileRole.ID
	}
	for i, d := range dto.Domains {
		if d.Domain == "" {
			return kit.FieldRefuse(fmt.Sprintf("domains[%d].domain", i), "refusal.request.required")
		}
		st.Domains = append(st.Domains, d.Domain)
	}
	for _, g := range dto.GroupRoles {
		st.GroupRoles = append(st.GroupRoles, identity.GroupRole{Group: g.Group, Role: g.Role})
	}
	if err := s.people.ReplaceSignInSettings(ctx, actor, st, ifMatch(c)); err != nil {
		return err
	}
	st, err = s.people.SignInSettings(ctx, actor)
	if err != nil {
		return err
	}
	return identityAnswer(c, st)
}

// AdminVerifyDomain is POST /api/v1/admin/identity/domains/{domain}/verify: looks up the domain's DNS
// record now and answers the domain, proved; 400 2000 says which record is missing.
func (s *Handlers) AdminVerifyDomain(c echo.Context) error {
	d, err := s.people.VerifyEmailDomain(c.Request().Context(), kit.Actor(c), c.Param("domain"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toEmailDomainDTO(d))
}

func identityAnswer(c echo.Context, st identity.SignInSettings) error {
	c.Response().Header().Set("ETag", st.Version)
	return c.JSON(http.StatusOK, toIdentityDTO(st))
}
