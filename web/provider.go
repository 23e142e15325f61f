package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// ProviderConfig names the identity provider (OpenID Connect) that people sign in with, and whose tokens
// the API accepts.
type ProviderConfig struct {
	Issuer       string
	ClientID     string
	ClientSecret string
	// Audience is the `aud` the provider's tokens carry for the API; empty: ClientID.
	Audience string
	// BaseURL is the service's own address; the provider sends people back to BaseURL/auth/callback.
	BaseURL string
	// Scopes are asked for at sign-in; empty: DefaultScopes. They must include "openid".
	Scopes []string
	// Introspection lets the API accept access tokens that are not JWTs, by asking the provider's
	// introspection endpoint (RFC 7662) with the client id and secret.
	Introspection bool
}

// DefaultScopes are the scopes asked for when OIDC_SCOPES is not set.
var DefaultScopes = []string{oidc.ScopeOpenID, "profile", "email"}

// Bounds of OIDC_SCOPES.
const (
	maxScopes      = 20
	maxScopeLength = 100
)

// ParseScopes reads a space-separated list of scopes, as OIDC_SCOPES holds it. It refuses a list
// without "openid", more than maxScopes scopes, and a scope that is too long or holds a character
// RFC 6749 does not allow (section 3.3).
func ParseScopes(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return DefaultScopes, nil
	}
	scopes := strings.Fields(s)
	if len(scopes) > maxScopes {
		return nil, fmt.Errorf("OIDC_SCOPES: at most %d scopes, not %d", maxScopes, len(scopes))
	}
	openid := false
	for _, sc := range scopes {
		if len(sc) > maxScopeLength {
			return nil, fmt.Errorf("OIDC_SCOPES: the scope %.20q… is longer than %d characters", sc, maxScopeLength)
		}
		for _, r := range sc {
			if r < 0x21 || r == '"' || r == '\\' || r > 0x7e {
				return nil, fmt.Errorf("OIDC_SCOPES: the scope %q holds a character a scope may not hold", sc)
			}
		}
		openid = openid || sc == oidc.ScopeOpenID
	}
	if !openid {
		return nil, fmt.Errorf("OIDC_SCOPES: %q lacks \"openid\", without which the provider sends no ID token", s)
	}
	return scopes, nil
}

// Provider is the identity provider. The service starts without it: Run discovers it in the background,
// trying again until it answers, and until then sign-in pages say that sign-in is starting and the
// provider's tokens are refused with 503. The service's own tokens work meanwhile.
type Provider struct {
	cfg        ProviderConfig
	log        *slog.Logger
	client     *http.Client
	discovered atomic.Pointer[discovered]
	tries      atomic.Int64 // discoveries tried so far
}

// discovered is what discovery learnt of the provider.
type discovered struct {
	issuer        string // the provider's own spelling of its issuer
	provider      *oidc.Provider
	oauth         oauth2.Config
	idTokens      *oidc.IDTokenVerifier // ID tokens at sign-in: audience ClientID
	apiTokens     *oidc.IDTokenVerifier // bearer tokens of the API: audience Audience
	introspection string                // the introspection endpoint; "" when the provider has none
}

// providerTimeout bounds every request to the provider.
const providerTimeout = 10 * time.Second

// NewProvider checks cfg; it does not reach the provider (see Discover and Run).
func NewProvider(cfg ProviderConfig, log *slog.Logger) (*Provider, error) {
	if cfg.Issuer == "" {
		return nil, errors.New("the identity provider needs an issuer (OIDC_ISSUER)")
	}
	if cfg.ClientID == "" {
		return nil, errors.New("OIDC_ISSUER is set: set OIDC_CLIENT_ID too")
	}
	if cfg.Audience == "" {
		cfg.Audience = cfg.ClientID
	}
	if len(cfg.Scopes) == 0 {
		cfg.Scopes = DefaultScopes
	}
	if cfg.Introspection && cfg.ClientSecret == "" {
		return nil, errors.New("OIDC_INTROSPECTION is on: set OIDC_CLIENT_SECRET too (introspection signs in with the client id and secret)")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Provider{cfg: cfg, log: log, client: &http.Client{Timeout: providerTimeout}}, nil
}

// Scopes are the scopes asked for at sign-in.
func (p *Provider) Scopes() []string { return p.cfg.Scopes }

// Ready reports whether the provider has been discovered, so that people can sign in.
func (p *Provider) Ready() bool { return p.discovered.Load() != nil }

// Issuer is the issuer as configured.
func (p *Provider) Issuer() string { return p.cfg.Issuer }

// sameIssuer reports whether two spellings of an issuer name the same one: they may differ by a
// trailing slash.
func sameIssuer(a, b string) bool {
	return a != "" && strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// Discover reads the provider's discovery document once. It accepts a provider whose issuer differs from
// the configured one only by a trailing slash, and then uses the provider's own spelling (tokens carry
// it). It refuses a provider of another issuer.
func (p *Provider) Discover(ctx context.Context) error {
	p.tries.Add(1)
	ctx = oidc.ClientContext(ctx, p.client)
	op, err := oidc.NewProvider(ctx, p.cfg.Issuer)
	var mismatch *oidc.IssuerMismatchError
	if errors.As(err, &mismatch) && sameIssuer(mismatch.Discovered, p.cfg.Issuer) {
		p.log.Info("the identity provider spells its issuer differently from OIDC_ISSUER: using the provider's spelling",
			slog.String("provider", mismatch.Discovered), slog.String("OIDC_ISSUER", p.cfg.Issuer))
		// The same discovery document: the trailing slash is dropped before /.well-known is added.
		op, err = oidc.NewProvider(ctx, mismatch.Discovered)
	}
	if err != nil {
		return fmt.Errorf("identity provider %s: %w", p.cfg.Issuer, err)
	}
	var meta struct {
		Issuer        string `json:"issuer"`
		Introspection string `json:"introspection_endpoint"`
	}
	if err := op.Claims(&meta); err != nil {
		return fmt.Errorf("identity provider %s: discovery document: %w", p.cfg.Issuer, err)
	}
	if p.cfg.Introspection && meta.Introspection == "" {
		p.log.Error("OIDC_INTROSPECTION is on, but the identity provider publishes no introspection endpoint: " +
			"access tokens that are not JWTs are refused")
	}
	d := &discovered{
		issuer:   meta.Issuer,
		provider: op,
		oauth: oauth2.Config{
			ClientID: p.cfg.ClientID, ClientSecret: p.cfg.ClientSecret, Endpoint: op.Endpoint(),
			RedirectURL: strings.TrimSuffix(p.cfg.BaseURL, "/") + callbackPath,
			Scopes:      p.cfg.Scopes,
		},
		idTokens:      op.Verifier(&oidc.Config{ClientID: p.cfg.ClientID}),
		apiTokens:     op.Verifier(&oidc.Config{ClientID: p.cfg.Audience}),
		introspection: meta.Introspection,
	}
	p.discovered.Store(d)
	p.log.Info("identity provider ready", slog.String("issuer", d.issuer), slog.Bool("userinfo", op.UserInfoEndpoint() != ""),
		slog.Bool("introspection", d.introspection != ""), slog.String("scopes", strings.Join(p.cfg.Scopes, " ")))
	return nil
}

// Retry delays of Run: the first try again comes after retryFirst, each later one after twice the last,
// at most retryMax.
const (
	retryFirst = time.Second
	retryMax   = 30 * time.Second
)

// Run discovers the provider, trying again with growing delays until it succeeds or ctx ends.
func (p *Provider) Run(ctx context.Context) {
	wait := retryFirst
	for {
		err := p.Discover(ctx)
		if err == nil || ctx.Err() != nil {
			return
		}
		p.log.Warn("the identity provider cannot be reached yet: sign-in waits for it", slog.Any("error", err),
			slog.Duration("next_try_in", wait))
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, retryMax)
	}
}

// ready returns what discovery learnt, or nil before it succeeded.
func (p *Provider) ready() *discovered { return p.discovered.Load() }

// maxProviderAnswer bounds what the service reads of an introspection or userinfo answer.
const maxProviderAnswer = 64 << 10

// introspection is what the provider said of an access token that is not a JWT.
type introspection struct {
	subject string
	expiry  time.Time
}

// Refusals of introspect that are about the token, not the provider.
var (
	errNotActive = errors.New("the identity provider says this token is not active")
	errNoSubject = errors.New("the identity provider names no subject for this token")
)

// introspect asks the provider's introspection endpoint (RFC 7662) about an access token, signing in
// with the client id and secret (RFC 6749 section 2.3.1). It refuses a token the provider does not call
// active and one without a subject.
func (p *Provider) introspect(ctx context.Context, d *discovered, raw string) (introspection, error) {
	form := url.Values{"token": {raw}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.introspection, strings.NewReader(form.Encode()))
	if err != nil {
		return introspection{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(p.cfg.ClientID), url.QueryEscape(p.cfg.ClientSecret))
	res, err := p.client.Do(req)
	if err != nil {
		return introspection{}, fmt.Errorf("introspection: %w", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxProviderAnswer))
	if err != nil {
		return introspection{}, fmt.Errorf("introspection: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return introspection{}, fmt.Errorf("introspection: the provider answered %s", res.Status)
	}
	var a struct {
		Active  bool   `json:"active"`
		Subject string `json:"sub"`
		Expiry  int64  `json:"exp"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return introspection{}, fmt.Errorf("introspection: the answer is not the JSON of RFC 7662: %w", err)
	}
	if !a.Active {
		return introspection{}, errNotActive
	}
	if a.Subject == "" {
		return introspection{}, errNoSubject
	}
	in := introspection{subject: a.Subject}
	if a.Expiry > 0 {
		in.expiry = time.Unix(a.Expiry, 0)
	}
	return in, nil
}

// userInfo asks the provider's userinfo endpoint about the person the access token was issued to, and
// returns its claims. It refuses an answer about another subject than the ID token's (OpenID Connect
// Core, section 5.3.2).
func (p *Provider) userInfo(ctx context.Context, d *discovered, tok *oauth2.Token, subject string) (map[string]any, error) {
	if d.provider.UserInfoEndpoint() == "" {
		return nil, errors.New("the identity provider has no userinfo endpoint")
	}
	info, err := d.provider.UserInfo(oidc.ClientContext(ctx, p.client), oauth2.StaticTokenSource(tok))
	if err != nil {
		return nil, fmt.Errorf("userinfo: %w", err)
	}
	if info.Subject != subject {
		return nil, errors.New("userinfo: the answer is about another subject than the ID token")
	}
	var claims map[string]any
	if err := info.Claims(&claims); err != nil {
		return nil, fmt.Errorf("userinfo: %w", err)
	}
	return claims, nil
}
