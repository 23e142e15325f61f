package identity

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/outbox"
)

// EmailDomain is an e-mail domain that an organization claims, and whether it has proved the domain is
// its own. Only a verified domain gives accounts at first sign-in and matches people by e-mail.
type EmailDomain struct {
	Domain     string
	Token      string     // what the DNS record carries after VerificationPrefix
	VerifiedAt *time.Time // nil while the claim waits for its proof
	VerifiedBy string     // "DNS" or "OPERATOR"; "" while the claim waits
	CheckedAt  *time.Time // the last DNS look-up; nil if none yet
}

// VerificationPrefix starts the DNS TXT record that proves a domain: the record
// "booking-domain-verification=<token>" on the domain itself.
const VerificationPrefix = "booking-domain-verification="

// Who verified a domain.
const (
	VerifiedByDNS      = "DNS"
	VerifiedByOperator = "OPERATOR"
)

// Record returns the TXT record that proves the domain.
func (d EmailDomain) Record() string { return VerificationPrefix + d.Token }

// Verified reports whether the domain is proved.
func (d EmailDomain) Verified() bool { return d.VerifiedAt != nil }

// TXTResolver looks up the TXT records of a name. *net.Resolver is one.
type TXTResolver interface {
	LookupTXT(ctx context.Context, name string) ([]string, error)
}

// WithResolver makes the domain checks ask r instead of the system's resolver.
func WithResolver(r TXTResolver) Option { return func(s *Service) { s.resolver = r } }

// DomainCheckEvery is how often RunDomainChecks looks for claims to check; each claim is looked up in DNS
// at most once per DomainRecheckAfter.
const (
	DomainCheckEvery   = time.Hour
	DomainRecheckAfter = 24 * time.Hour
	dnsTimeout         = 5 * time.Second
	domainCheckBatch   = 100
)

// publicMailDomains are domains whose addresses anyone can get. No organization may claim them. "x.*"
// stands for x under any top-level domain (gmx.de, gmx.net, gmx.co.uk).
var publicMailDomains = []string{
	"gmail.com", "googlemail.com", "outlook.*", "hotmail.*", "live.*", "msn.com", "yahoo.*", "ymail.com",
	"rocketmail.com", "icloud.com", "me.com", "mac.com", "aol.*", "gmx.*", "web.de", "t-online.de",
	"freenet.de", "mail.com", "email.com", "proton.me", "protonmail.*", "pm.me", "tutanota.*", "tuta.io",
	"fastmail.*", "hey.com", "zoho.com", "zohomail.com", "yandex.*", "mail.ru", "qq.com", "163.com",
	"126.com", "naver.com", "orange.fr", "free.fr", "laposte.net", "libero.it", "virgilio.it", "seznam.cz",
	"wp.pl", "o2.pl", "interia.pl", "rediffmail.com", "hushmail.com", "mailinator.com", "guerrillamail.com",
}

// publicMailDomain reports whether anyone can get an address at d (lower case).
func publicMailDomain(d string) bool {
	for _, p := range publicMailDomains {
		if stem, ok := strings.CutSuffix(p, ".*"); ok {
			if strings.HasPrefix(d, stem+".") {
				return true
			}
		} else if d == p {
			return true
		}
	}
	return false
}

// domainRefused is the one answer to a domain that is public or proved by another organization: it
// never says which, nor who holds it.
func domainRefused(d string) error {
	return booking.FieldRefuse(booking.CodeInvalidRequest, "domains", "refusal.identity.domainRefused", map[string]any{"Domain": d})
}

// EmailDomains returns the e-mail domains the actor's organization claims, with their state.
// Codes: 1001 the actor is not an admin.
func (s *Service) EmailDomains(ctx context.Context, actor booking.User) ([]EmailDomain, error) {
	if actor.Role != booking.RoleAdmin {
		return nil, booking.Refuse(booking.CodeForbidden, "refusal.identity.onlyAdminsSee")
	}
	return emailDomainsOf(ctx, s.q, actor.OrganizationID)
}

func emailDomainsOf(ctx context.Context, q *queries.Queries, org uuid.UUID) ([]EmailDomain, error) {
	rows, err := q.EmailDomainsOfOrganization(ctx, org)
	if err != nil {
		return nil, fmt.Errorf("get e-mail domains: %w", err)
	}
	ds := make([]EmailDomain, len(rows))
	for i, r := range rows {
		ds[i] = emailDomainFromRow(r)
	}
	return ds, nil
}

func emailDomainFromRow(r queries.OrganizationEmailDomain) EmailDomain {
	d := EmailDomain{Domain: r.Domain, Token: r.VerificationToken, VerifiedAt: r.VerifiedAt, CheckedAt: r.CheckedAt}
	if r.VerifiedBy != nil {
		d.VerifiedBy = *r.VerifiedBy
	}
	return d
}

// claimDomains makes the organization's claims exactly domains: it drops the others and claims the new
// ones, each with a fresh token; a domain claimed already keeps its token and its proof.
// Codes: 2000 a public domain, or one another organization has proved (domainRefused).
func claimDomains(ctx context.Context, q *queries.Queries, org uuid.UUID, domains []string) error {
	if err := q.EmailDomainsDeleteOthers(ctx, queries.EmailDomainsDeleteOthersParams{OrganizationID: org, Keep: domains}); err != nil {
		return fmt.Errorf("delete e-mail domains: %w", err)
	}
	for _, d := range domains {
		if publicMailDomain(d) {
			return domainRefused(d)
		}
		holder, err := domainHolder(ctx, q, d)
		if err != nil {
			return err
		}
		if holder != uuid.Nil && holder != org {
			return domainRefused(d)
		}
		if err := q.EmailDomainClaim(ctx, queries.EmailDomainClaimParams{OrganizationID: org, Domain: d, VerificationToken: newDomainToken()}); err != nil {
			return fmt.Errorf("claim e-mail domain: %w", err)
		}
	}
	return nil
}

// newDomainToken returns 32 random hex digits.
func newDomainToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}

// domainHolder returns the organization that has proved the domain (lower case), or uuid.Nil.
func domainHolder(ctx context.Context, q *queries.Queries, domain string) (uuid.UUID, error) {
	orgs, err := q.EmailDomainHolder(ctx, domain)
	if err != nil {
		return uuid.Nil, fmt.Errorf("find holder of e-mail domain: %w", err)
	}
	if len(orgs) != 1 {
		return uuid.Nil, nil
	}
	return orgs[0], nil
}

// checkPersonEmail refuses an e-mail address for a person of org when another organization has proved
// the address's domain (booking.CheckEmailHolders), reading the holder through q.
// Codes: 2000.
func checkPersonEmail(ctx context.Context, q *queries.Queries, org uuid.UUID, field, email string) error {
	holders, err := q.EmailDomainHolder(ctx, booking.EmailDomainOf(email))
	if err != nil {
		return fmt.Errorf("find holder of e-mail domain: %w", err)
	}
	return booking.CheckEmailHolders(holders, org, field, email)
}

// VerifyEmailDomain looks up the TXT records of one of the actor's organization's claimed domains now, and
// marks the domain proved when one of them is the domain's Record. It returns the domain as it is then.
// Codes: 1001 the actor is not an admin; 1013 the organization does not claim the domain; 2000 no such
// record yet (the message says which record to add), or another organization proved the domain first.
func (s *Service) VerifyEmailDomain(ctx context.Context, actor booking.User, domain string) (EmailDomain, error) {
	if actor.Role != booking.RoleAdmin {
		return EmailDomain{}, booking.Refuse(booking.CodeForbidden, "refusal.identity.onlyAdminsVerify")
	}
	domain = strings.ToLower(strings.TrimSpace(domain))
	ds, err := emailDomainsOf(ctx, s.q, actor.OrganizationID)
	if err != nil {
		return EmailDomain{}, err
	}
	i := slices.IndexFunc(ds, func(d EmailDomain) bool { return d.Domain == domain })
	if i < 0 {
		return EmailDomain{}, booking.Refuse(booking.CodeObjectNotFound, "refusal.identity.domainNotAdded", map[string]any{"Domain": strconv.Quote(domain)})
	}
	d := ds[i]
	if d.Verified() {
		return d, nil
	}
	found, err := s.lookUpRecord(ctx, actor.OrganizationID, d)
	if err != nil {
		return EmailDomain{}, err
	}
	if !found {
		return EmailDomain{}, booking.Refuse(booking.CodeInvalidRequest, "refusal.identity.recordNotFound",
			map[string]any{"Record": strconv.Quote(d.Record()), "Domain": d.Domain})
	}
	return s.verifyDomain(ctx, actor.OrganizationID, d.Domain, VerifiedByDNS, booking.By(actor))
}

// ApproveEmailDomain claims the domain for the organization, if it does not claim it yet, and marks it
// proved on the word of the service's operator (`booking domain approve`).
// Codes: 1013 no such organization; 2000 not a domain name, a public mail domain, or proved by another
// organization.
func (s *Service) ApproveEmailDomain(ctx context.Context, org uuid.UUID, domain string) (EmailDomain, error) {
	st, err := normalizeSignIn(SignInSettings{Domains: []string{domain}})
	if err != nil {
		return EmailDomain{}, err
	}
	if len(st.Domains) != 1 {
		return EmailDomain{}, booking.FieldRefuse(booking.CodeInvalidRequest, "domains", "refusal.identity.oneDomain")
	}
	domain = st.Domains[0]
	if publicMailDomain(domain) {
		return EmailDomain{}, domainRefused(domain)
	}
	if _, err := s.q.OrganizationGet(ctx, org); errors.Is(err, pgx.ErrNoRows) {
		return EmailDomain{}, booking.Refuse(booking.CodeObjectNotFound, "refusal.identity.noOrganization", map[string]any{"ID": org.String()})
	} else if err != nil {
		return EmailDomain{}, fmt.Errorf("get organization: %w", err)
	}
	return s.verifyDomain(ctx, org, domain, VerifiedByOperator, booking.Changer{Label: "the service's operator"})
}

// verifyDomain marks the organization's claim of domain proved, with its audit entry, and returns it. The
// operator's word claims the domain first, in the same transaction, so a refusal leaves no claim behind.
// Codes: 2000 another organization proved the domain first.
func (s *Service) verifyDomain(ctx context.Context, org uuid.UUID, domain, by string, who booking.Changer) (EmailDomain, error) {
	err := s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		if by == VerifiedByOperator {
			if err := q.EmailDomainClaim(ctx, queries.EmailDomainClaimParams{OrganizationID: org, Domain: domain, VerificationToken: newDomainToken()}); err != nil {
				return fmt.Errorf("claim e-mail domain: %w", err)
			}
		}
		n, err := q.EmailDomainVerify(ctx, queries.EmailDomainVerifyParams{
			OrganizationID: org, Domain: domain, VerifiedBy: by, Now: s.now(),
		})
		if isUniqueViolation(err) {
			return domainRefused(domain)
		}
		if err != nil {
			return fmt.Errorf("verify e-mail domain: %w", err)
		}
		if n == 0 {
			return nil // proved meanwhile
		}
		return recordChange(ctx, q, booking.Change{
			OrganizationID: org, By: who, Action: booking.AuditVerify, Object: "emailDomains", ObjectID: org,
			Before: map[string]any{"domain": domain, "verified": false},
			After:  map[string]any{"domain": domain, "verified": true, "verifiedBy": by},
		})
	})
	if err != nil {
		return EmailDomain{}, err
	}
	ds, err := emailDomainsOf(ctx, s.q, org)
	if err != nil {
		return EmailDomain{}, err
	}
	for _, d := range ds {
		if d.Domain == domain {
			return d, nil
		}
	}
	return EmailDomain{}, booking.Refuse(booking.CodeObjectNotFound, "refusal.identity.domainRemoved", map[string]any{"Domain": domain})
}

// lookUpRecord asks DNS for the domain's TXT records, notes the look-up (failed or not), and reports
// whether d's record is among them. A name that does not exist, or has no TXT record, is not an error.
// Codes: 2000 the look-up failed, in words.
func (s *Service) lookUpRecord(ctx context.Context, org uuid.UUID, d EmailDomain) (bool, error) {
	lookCtx, cancel := context.WithTimeout(ctx, dnsTimeout)
	defer cancel()
	records, lookErr := s.resolver.LookupTXT(lookCtx, d.Domain+".")
	if err := s.q.EmailDomainChecked(ctx, queries.EmailDomainCheckedParams{OrganizationID: org, Domain: d.Domain, Now: s.now()}); err != nil {
		return false, fmt.Errorf("note domain look-up: %w", err)
	}
	var dnsErr *net.DNSError
	if lookErr != nil && !(errors.As(lookErr, &dnsErr) && dnsErr.IsNotFound) {
		return false, booking.FieldRefuse(booking.CodeInvalidRequest, "domains", "refusal.identity.dnsFailed",
			map[string]any{"Domain": d.Domain, "Why": dnsFailureOf(lookErr)})
	}
	return slices.Contains(records, d.Record()), nil
}

// dnsFailure says why a look-up failed, without the resolver's address: a phrase (lang.Phrase) of a
// refusal's data, in the reader's words.
type dnsFailure string

// Why a look-up failed, in English.
const (
	dnsTimedOut dnsFailure = "no answer in time"
	dnsRefused  dnsFailure = "the name server refused the question"
)

func (f dnsFailure) In(ctx context.Context) string {
	if f == dnsTimedOut {
		return lang.T(ctx, "refusal.identity.dnsTimeout")
	}
	return lang.T(ctx, "refusal.identity.dnsRefused")
}

// dnsFailureOf says why the look-up failed with err.
func dnsFailureOf(err error) dnsFailure {
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr) && dnsErr.IsTimeout:
		return dnsTimedOut
	case errors.Is(err, context.DeadlineExceeded):
		return dnsTimedOut
	}
	return dnsRefused
}

// CheckEmailDomains looks up, in DNS, the claims of every organization that wait for their proof and
// were not looked up in the last DomainRecheckAfter, and marks proved those whose record is there. It
// returns how many it proved.
func (s *Service) CheckEmailDomains(ctx context.Context) (int, error) {
	rows, err := s.q.EmailDomainsUnverified(ctx, queries.EmailDomainsUnverifiedParams{
		CheckedBefore: s.now().Add(-DomainRecheckAfter), MaxRows: domainCheckBatch,
	})
	if err != nil {
		return 0, fmt.Errorf("list unverified domains: %w", err)
	}
	proved := 0
	for _, r := range rows {
		d := emailDomainFromRow(r)
		found, err := s.lookUpRecord(ctx, r.OrganizationID, d)
		if booking.ErrorCode(err) == booking.CodeInvalidRequest {
			continue // the look-up failed and is noted: the next round moves on, and tries it again tomorrow
		}
		if err != nil {
			return proved, err
		}
		if !found {
			continue
		}
		_, err = s.verifyDomain(ctx, r.OrganizationID, d.Domain, VerifiedByDNS, booking.Changer{Label: "daily DNS check"})
		if booking.ErrorCode(err) == booking.CodeInvalidRequest || booking.ErrorCode(err) == booking.CodeObjectNotFound {
			continue // proved by another organization first, or removed meanwhile
		}
		if err != nil {
			return proved, err
		}
		proved++
	}
	return proved, nil
}

// RunDomainChecks runs CheckEmailDomains every DomainCheckEvery until ctx ends, starting a minute from
// now. Failures are logged and tried again at the next round.
func (s *Service) RunDomainChecks(ctx context.Context, log *slog.Logger) {
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n, err := s.CheckEmailDomains(ctx)
		if err != nil && ctx.Err() == nil {
			log.Error("check e-mail domains", "err", err)
		} else if n > 0 {
			log.Info("e-mail domains verified by DNS", "count", n)
		}
		t.Reset(DomainCheckEvery)
	}
}

// keepAnAdmin refuses, with 4017, a change that leaves the organization with no active admin. It takes
// the organization's admin lock first, so that two admins demoting each other at once cannot both pass:
// the second counts after the first has committed. Call it after the change, in its transaction.
func keepAnAdmin(ctx context.Context, q *queries.Queries, org uuid.UUID) error {
	if err := q.OrganizationAdminLock(ctx, org); err != nil {
		return fmt.Errorf("lock admin changes: %w", err)
	}
	n, err := q.UsersActiveAdminCount(ctx, org)
	if err != nil {
		return fmt.Errorf("count admins: %w", err)
	}
	return booking.CheckActiveAdmins(n)
}

// isActiveAdmin reports whether the row is an active admin.
func isActiveAdmin(r queries.User) bool { return r.Role == string(booking.RoleAdmin) && r.Active }
