package web_test

import (
	"crypto"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	josejwt "github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// nbfLeeway is how far in the future a token's nbf may be for go-oidc's verifier to still accept it
// (oidc/verify.go, v3).
const nbfLeeway = 5 * time.Minute

// FuzzAuthenticate passes any string to Tokens.Authenticate. It must never panic. It may accept only a
// token signed with one of the service's keys whose claims name a user of the service; everything else
// gets code 1000. The test checks signatures itself, with go-jose, independently of the service.
func FuzzAuthenticate(f *testing.F) {
	b := setup(f)
	key, kid := b.serviceKey(f)
	// Every key the service accepts, not only the newest one, which it signs with.
	keys, err := b.Identity().SigningKeys(f.Context())
	if err != nil {
		f.Fatalf("SigningKeys: %v", err)
	}
	pubs := make([]crypto.PublicKey, len(keys))
	for i, k := range keys {
		pubs[i] = k.Key.Public()
	}

	der, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		f.Fatalf("marshal public key: %v", err)
	}
	sign := func(alg jose.SignatureAlgorithm, k any, claims map[string]any) string {
		return signed(f, alg, k, kid, claims)
	}
	withoutNBF := ownClaims()
	delete(withoutNBF, "nbf")
	minted := func(u booking.User, ttl time.Duration) string { return b.mint(f, u, ttl) }
	alice, boris := b.User(f, fx.OrgA, fx.Alice), b.User(f, fx.OrgB, fx.Boris)
	valid := minted(alice, time.Hour)
	for _, s := range []string{
		valid, minted(boris, time.Hour), minted(alice, -time.Minute),
		minted(booking.User{ID: fx.Alice, OrganizationID: fx.OrgB}, time.Hour),
		sign(jose.ES256, key, ownClaims("aud", []string{"another-api"})),
		sign(jose.ES256, key, ownClaims("nbf", time.Now().Add(time.Hour).Unix())),
		// A token whose nbf is within go-oidc's leeway, and one without nbf: both are accepted.
		sign(jose.ES256, key, ownClaims("nbf", time.Now().Add(nbfLeeway-time.Minute).Unix())), sign(jose.ES256, key, withoutNBF),
		sign(jose.ES256, key, ownClaims("org", "")),
		sign(jose.HS256, der, ownClaims()),
		sign(jose.HS256, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), ownClaims()),
		strings.TrimSuffix(valid, valid[strings.LastIndex(valid, ".")+1:]),
		valid + "x", valid[:len(valid)-1], "x" + valid, strings.Replace(valid, ".", "..", 1),
		"eyJhbGciOiJub25lIn0.eyJpc3MiOiJ3b3Jrc3BhY2UtYm9va2luZyJ9.", "a.b.c", "..", "", "not-a-jwt",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		before := time.Now()
		u, err := b.tokens.Authenticate(t.Context(), raw)
		if err != nil {
			var de *booking.Error
			if !errors.As(err, &de) || de.Code != booking.CodeUnauthorized || de.Message == "" {
				t.Fatalf("Authenticate(%q) = %v (%T), want a 1000", raw, err, err)
			}
			return
		}
		// The token was accepted, so it must be an ES256 JWT signed with a service key, with the service's
		// issuer and audience. It must not have expired when the call began, must already be valid (within
		// go-oidc's nbf leeway), and must name this exact user.
		jws, err := jose.ParseSignedCompact(raw, []jose.SignatureAlgorithm{jose.ES256})
		if err != nil {
			t.Fatalf("Authenticate accepted %q, which is no ES256 JWS: %v", raw, err)
		}
		var payload []byte
		for _, pub := range pubs {
			if payload, err = jws.Verify(pub); err == nil {
				break
			}
		}
		if err != nil {
			t.Fatalf("Authenticate accepted %q, which no service key signed: %v", raw, err)
		}
		var c struct {
			josejwt.Claims
			Org string `json:"org"`
		}
		if err := json.Unmarshal(payload, &c); err != nil {
			t.Fatalf("Authenticate accepted %q, whose payload is not claims: %v", raw, err)
		}
		switch {
		case c.Issuer != web.OwnIssuer, !slices.Contains([]string(c.Audience), web.OwnAudience):
			t.Fatalf("Authenticate accepted %q of issuer %q and audience %q", raw, c.Issuer, c.Audience)
		case c.Expiry == nil:
			t.Fatalf("Authenticate accepted %q, which never expires", raw)
		case c.Expiry.Time().Before(before.Truncate(time.Second)):
			t.Fatalf("Authenticate accepted %q, expired at %v, before the call (%v)", raw, c.Expiry.Time(), before)
		case c.NotBefore != nil && c.NotBefore.Time().After(time.Now().Add(nbfLeeway)):
			t.Fatalf("Authenticate accepted %q, not valid before %v", raw, c.NotBefore.Time())
		case uuid.MustParse(c.Subject) != u.ID || uuid.MustParse(c.Org) != u.OrganizationID:
			t.Fatalf("Authenticate accepted %q for %s of %s, but it names %s of %s", raw, u.ID, u.OrganizationID, c.Subject, c.Org)
		case u.ID == uuid.Nil:
			t.Fatalf("Authenticate accepted %q for nobody", raw)
		}
	})
}
