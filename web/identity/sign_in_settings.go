package identity

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"golang.org/x/text/unicode/norm"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// SignInSettings says how the people of an organization sign in with the identity provider. A person
// unknown to the service whose verified e-mail address is in one of Domains gets an account with
// DefaultRole at their first sign-in, once the organization has proved the domain (see EmailDomain). If
// GroupsClaim names a claim of the ID token and GroupRoles maps at least one group, every sign-in sets the
// person's role from their groups (see SignIn).
type SignInSettings struct {
	Domains []string // lower case: the domains the organization claims
	// DomainStates are the claims of Domains with their tokens and proofs. SignInSettings fills it;
	// SetSignInSettings ignores it.
	DomainStates []EmailDomain
	// Version is an entity tag of the settings as read (SignInSettings); SetSignInSettings ignores it.
	Version     string
	DefaultRole booking.Role
	// DefaultUserRule and DefaultMobileRole are given to people created at their first sign-in or by a
	// SCIM client; nil: none.
	DefaultUserRule   *uuid.UUID
	DefaultMobileRole *uuid.UUID
	// DefaultLanguage is the language code ("en", "es") given to people created at their first sign-in
	// or by a SCIM client, until they choose their own. The caller checks that the service speaks it;
	// SetSignInSettings only that it looks like a language code. "" reads as "en".
	DefaultLanguage string
	// DefaultBookingsVisibleTo is who sees the bookings of a person who made no choice of their own
	// (booking.Visibility: NOBODY, TEAM or ORGANIZATION). "" reads as TEAM.
	DefaultBookingsVisibleTo string
	GroupsClaim              string
	GroupRoles               []GroupRole
	// SCIMAnyDomain lets SCIM clients create people whose addresses are outside the verified Domains.
	SCIMAnyDomain bool
	// UserRules and MobileRoles are the organization's, to choose the defaults from, and LastClaims the
	// names of the claims of the organization's latest sign-in (never their values). SignInSettings fills
	// them; SetSignInSettings ignores them.
	UserRules, MobileRoles []Named
	LastClaims             []string
}

// Named is an object of the organization by its id and name.
type Named struct {
	ID   uuid.UUID
	Name string
}

// GroupRole gives the members of an identity provider group a role.
type GroupRole struct {
	Group string
	Role  booking.Role
}

// Limits of the sign-in settings.
const (
	MaxEmailDomains      = 20
	MaxGroupRoles        = 100
	maxDomainLength      = 253
	maxGroupLength       = 256
	maxGroupsClaimLength = 64
)

// SignInSettings returns the sign-in settings of the actor's organization, with their Version.
// Codes: 1001 the actor is not an admin.
func (s *Service) SignInSettings(ctx context.Context, actor booking.User) (SignInSettings, error) {
	if actor.Role != booking.RoleAdmin {
		return SignInSettings{}, booking.Refuse(booking.CodeForbidden, "refusal.identity.onlyAdminsSee")
	}
	return signInSettingsOf(ctx, s.q, actor.OrganizationID)
}

func signInSettingsOf(ctx context.Context, q *queries.Queries, org uuid.UUID) (SignInSettings, error) {
	o, err := q.OrganizationGet(ctx, org)
	if err != nil {
		return SignInSettings{}, fmt.Errorf("get organization: %w", err)
	}
	domains, err := emailDomainsOf(ctx, q, org)
	if err != nil {
		return SignInSettings{}, err
	}
	rows, err := q.GroupRolesOfOrganization(ctx, org)
	if err != nil {
		return SignInSettings{}, fmt.Errorf("get group roles: %w", err)
	}
	st := SignInSettings{
		DomainStates: domains, DefaultRole: booking.Role(o.DefaultRole), GroupsClaim: o.GroupsClaim,
		DefaultUserRule: o.DefaultUserRuleID, DefaultMobileRole: o.DefaultMobileRoleID, LastClaims: o.LastSignInClaims,
		SCIMAnyDomain: o.ScimAnyDomain, DefaultLanguage: o.DefaultLanguage, DefaultBookingsVisibleTo: o.BookingsVisibleTo,
	}
	rules, err := q.UserRulesExport(ctx, queries.UserRulesExportParams{OrganizationID: &org})
	if err != nil {
		return SignInSettings{}, fmt.Errorf("get user rules: %w", err)
	}
	for _, r := range rules {
		st.UserRules = append(st.UserRules, Named{ID: r.ID, Name: r.Name})
	}
	mobile, err := q.MobileRolesExport(ctx, queries.MobileRolesExportParams{OrganizationID: &org})
	if err != nil {
		return SignInSettings{}, fmt.Errorf("get mobile roles: %w", err)
	}
	for _, r := range mobile {
		st.MobileRoles = append(st.MobileRoles, Named{ID: r.ID, Name: r.Name})
	}
	for _, d := range domains {
		st.Domains = append(st.Domains, d.Domain)
	}
	for _, r := range rows {
		st.GroupRoles = append(st.GroupRoles, GroupRole{Group: r.GroupName, Role: booking.Role(r.Role)})
	}
	st.Version = st.version()
	return st, nil
}

// version returns a strong entity tag of the settings as stored: the quoted hex of the first 16 bytes of
// the SHA-256 of their JSON, domain states included.
func (st SignInSettings) version() string {
	j, _ := json.Marshal(struct {
		A map[string]any
		D []EmailDomain
	}{st.audited(), st.DomainStates})
	sum := sha256.Sum256(j)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// SetSignInSettings replaces the sign-in settings of the actor's organization. Domains are stored in
// lower case, without a leading "@"; repeated domains and groups count once. A new domain waits for its
// proof (VerifyEmailDomain); a domain kept keeps its token and its proof. A change of the roles of groups
// applies at once to the members of the SCIM groups whose role it changes (mappingChangeRoles), but for
// the actor, who keeps their own role.
// Codes: 1001 the actor is not an admin; 2000 a bad domain, role, claim or group, too many of them, or a
// domain that cannot be used: a public mail domain, or one another organization proved (the message does
// not say which).
func (s *Service) SetSignInSettings(ctx context.Context, actor booking.User, st SignInSettings) error {
	return s.ReplaceSignInSettings(ctx, actor, st, "")
}

// ReplaceSignInSettings is SetSignInSettings under an If-Match: ifMatch "" writes whatever the settings
// are now; otherwise it must be their Version (or "*"), or a list of tags one of which is.
// Codes: those of SetSignInSettings; 4120 ifMatch is not the current version.
func (s *Service) ReplaceSignInSettings(ctx context.Context, actor booking.User, st SignInSettings, ifMatch string) error {
	if actor.Role != booking.RoleAdmin {
		return booking.Refuse(booking.CodeForbidden, "refusal.identity.onlyAdminsChange")
	}
	st, err := normalizeSignIn(st)
	if err != nil {
		return err
	}
	org := actor.OrganizationID
	return s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		if err := q.OrganizationAdminLock(ctx, org); err != nil {
			return fmt.Errorf("lock admin changes: %w", err)
		}
		before, err := signInSettingsOf(ctx, q, org)
		if err != nil {
			return err
		}
		if !booking.MatchesVersion(ifMatch, before.Version) {
			return booking.Refuse(booking.CodePreconditionFailed, "refusal.identity.settingsStale", map[string]any{"Tag": ifMatch})
		}
		if st.DefaultUserRule != nil && !slices.ContainsFunc(before.UserRules, func(n Named) bool { return n.ID == *st.DefaultUserRule }) {
			return booking.FieldRefuse(booking.CodeInvalidRequest, "defaultUserRuleId", "refusal.identity.noUserRule", map[string]any{"ID": st.DefaultUserRule.String()})
		}
		if st.DefaultMobileRole != nil && !slices.ContainsFunc(before.MobileRoles, func(n Named) bool { return n.ID == *st.DefaultMobileRole }) {
			return booking.FieldRefuse(booking.CodeInvalidRequest, "defaultMobileRoleId", "refusal.identity.noMobileRole", map[string]any{"ID": st.DefaultMobileRole.String()})
		}
		if err := q.OrganizationSignInSet(ctx, queries.OrganizationSignInSetParams{
			ID: org, DefaultRole: string(st.DefaultRole), GroupsClaim: st.GroupsClaim,
			DefaultUserRuleID: st.DefaultUserRule, DefaultMobileRoleID: st.DefaultMobileRole, ScimAnyDomain: st.SCIMAnyDomain,
			DefaultLanguage: st.DefaultLanguage, BookingsVisibleTo: st.DefaultBookingsVisibleTo,
		}); err != nil {
			return fmt.Errorf("set sign-in settings: %w", err)
		}
		if err := claimDomains(ctx, q, org, st.Domains); err != nil {
			return err
		}
		if err := q.GroupRolesDelete(ctx, org); err != nil {
			return fmt.Errorf("delete group roles: %w", err)
		}
		for _, g := range st.GroupRoles {
			if err := q.GroupRoleInsert(ctx, queries.GroupRoleInsertParams{OrganizationID: org, GroupName: g.Group, Role: string(g.Role)}); err != nil {
				return fmt.Errorf("add group role: %w", err)
			}
		}
		if err := s.mappingChangeRoles(ctx, q, actor, before.GroupRoles, st.GroupRoles); err != nil {
			return err
		}
		if reflect.DeepEqual(before.audited(), st.audited()) {
			return nil // nothing changed: no audit entry
		}
		return recordChange(ctx, q, booking.Change{
			OrganizationID: org, By: booking.By(actor), Action: booking.AuditUpdate, Object: "signInSettings", ObjectID: org,
			Before: before.audited(), After: st.audited(),
		})
	})
}

// audited returns the settings as the audit log keeps them.
func (st SignInSettings) audited() map[string]any {
	groups := map[string]string{}
	for _, g := range st.GroupRoles {
		groups[g.Group] = string(g.Role)
	}
	a := map[string]any{"domains": st.Domains, "defaultRole": st.DefaultRole, "groupsClaim": st.GroupsClaim, "groupRoles": groups,
		"defaultLanguage": st.DefaultLanguage, "defaultBookingsVisibleTo": st.DefaultBookingsVisibleTo}
	if st.DefaultUserRule != nil {
		a["defaultUserRuleId"] = st.DefaultUserRule.String()
	}
	if st.DefaultMobileRole != nil {
		a["defaultMobileRoleId"] = st.DefaultMobileRole.String()
	}
	if st.SCIMAnyDomain {
		a["scimAnyDomain"] = true
	}
	return a
}

// normalizeSignIn checks the settings and returns them with domains in lower case, sorted and counted
// once, and groups counted once.
// Codes: 2000 naming the bad field.
// languageCode is what a language code looks like, as the database checks it too.
var languageCode = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$`)

func normalizeSignIn(st SignInSettings) (SignInSettings, error) {
	if st.DefaultRole == "" {
		st.DefaultRole = booking.RoleEmployee
	}
	if _, ok := roleRank[st.DefaultRole]; !ok {
		return st, booking.FieldRefuse(booking.CodeInvalidRequest, "defaultRole", "refusal.identity.badRole")
	}
	if st.DefaultLanguage == "" {
		st.DefaultLanguage = "en"
	}
	if !languageCode.MatchString(st.DefaultLanguage) {
		return st, booking.FieldRefuse(booking.CodeInvalidRequest, "defaultLanguage", "refusal.identity.badLanguageCode")
	}
	if st.DefaultBookingsVisibleTo == "" {
		st.DefaultBookingsVisibleTo = string(booking.VisibleToTeam)
	}
	if _, err := booking.ParseVisibility("defaultBookingsVisibleTo", st.DefaultBookingsVisibleTo); err != nil {
		return st, err
	}
	st.GroupsClaim = strings.TrimSpace(st.GroupsClaim)
	if len(st.GroupsClaim) > maxGroupsClaimLength || strings.ContainsFunc(st.GroupsClaim, notClaimRune) {
		return st, booking.FieldRefuse(booking.CodeInvalidRequest, "groupsClaim", "refusal.identity.badGroupsClaim", map[string]any{"Max": maxGroupsClaimLength})
	}
	var domains []string
	for _, d := range st.Domains {
		d = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(d)), "@")
		if d == "" || slices.Contains(domains, d) {
			continue
		}
		if !validDomain(d) {
			return st, booking.FieldRefuse(booking.CodeInvalidRequest, "domains", "refusal.identity.notDomain", map[string]any{"Domain": strconv.Quote(d)})
		}
		domains = append(domains, d)
	}
	if len(domains) > MaxEmailDomains {
		return st, booking.FieldRefuse(booking.CodeInvalidRequest, "domains", "refusal.identity.atMost", map[string]any{"Max": MaxEmailDomains})
	}
	slices.Sort(domains)
	st.Domains = domains
	var groups []GroupRole
	for _, g := range st.GroupRoles {
		g.Group = strings.TrimSpace(g.Group)
		if g.Group == "" {
			return st, booking.FieldRefuse(booking.CodeInvalidRequest, "groupRoles", "refusal.identity.groupNameRequired")
		}
		if len(g.Group) > maxGroupLength {
			return st, booking.FieldRefuse(booking.CodeInvalidRequest, "groupRoles", "refusal.identity.groupNameTooLong", map[string]any{"Max": maxGroupLength})
		}
		if _, ok := roleRank[g.Role]; !ok {
			return st, booking.FieldRefuse(booking.CodeInvalidRequest, "groupRoles", "refusal.identity.badGroupRole", map[string]any{"Group": g.Group})
		}
		if slices.ContainsFunc(groups, func(o GroupRole) bool { return sameGroup(o.Group, g.Group) }) {
			return st, booking.FieldRefuse(booking.CodeInvalidRequest, "groupRoles", "refusal.identity.groupTwice", map[string]any{"Group": g.Group})
		}
		groups = append(groups, g)
	}
	if len(groups) > MaxGroupRoles {
		return st, booking.FieldRefuse(booking.CodeInvalidRequest, "groupRoles", "refusal.identity.atMost", map[string]any{"Max": MaxGroupRoles})
	}
	st.GroupRoles = groups
	return st, nil
}

// sameGroup reports whether two group names are the same: ASCII letters match in any case, and an accent
// written apart matches the accented letter (both names are compared in Unicode's composed form, NFC).
// Other letters match only themselves, so look-alikes such as "ſ" (long s) or "K" (the Kelvin sign) never
// stand for "s" or "k": the case is folded before NFC, so the "K" that NFC makes of the Kelvin sign stays
// upper case.
func sameGroup(a, b string) bool {
	return norm.NFC.String(foldASCII(a)) == norm.NFC.String(foldASCII(b))
}

func foldASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// notClaimRune reports whether r may not appear in the name of a claim.
func notClaimRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.:/", r))
}

// validDomain reports whether d is a lower-case domain name of at least two labels.
func validDomain(d string) bool {
	labels := strings.Split(d, ".")
	if len(d) > maxDomainLength || len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}
