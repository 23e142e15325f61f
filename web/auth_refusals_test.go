package web_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	josejwt "github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// forgery is a bearer token that every operation must refuse.
type forgery struct{ name, token string }

// forgeries returns tokens that the service must refuse:
//   - alg "none", and the algorithm-confusion attack (HS256 keyed with the service's public key);
//   - other keys and algorithms, and a key embedded in the token;
//   - tokens that have expired or are not valid yet;
//   - tokens without an expiry, issue time, audience or organization, or valid for more than 30 days;
//   - tokens from another issuer or for another audience;
//   - tokens naming an unknown user, or a user with another user's organization;
//   - a token whose payload was changed after signing.
func (tb *testBundle) forgeries(t *testing.T) []forgery {
	t.Helper()
	serviceKey, kid := tb.serviceKey(t)
	pub := &serviceKey.PublicKey
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatalf("marshal public key: %v", err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	ecdhKey, err := pub.ECDH()
	if err != nil {
		t.Fatalf("ECDH: %v", err)
	}
	jwkKey, err := json.Marshal(jose.JSONWebKey{Key: pub, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"})
	if err != nil {
		t.Fatalf("marshal JWK: %v", err)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		t.Fatalf("random secret: %v", err)
	}
	other, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("generate key: %v", err)
	}
	p384, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatalf("generate key: %v", err)
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatalf("generate key: %v", err)
	}
	embedded := func() string {
		s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: other},
			(&jose.SignerOptions{EmbedJWK: true}).WithType("JWT"))
		if err != nil {
			t.Fatalf("signer: %v", err)
		}
		tok, err := josejwt.Signed(s).Claims(ownClaims()).Serialize()
		if err != nil {
			t.Fatalf("sign: %v", err)
		}
		return tok
	}
	withoutClaim := func(claim string) map[string]any {
		c := ownClaims()
		delete(c, claim)
		return c
	}
	own := func(kv ...any) string { return signed(t, jose.ES256, serviceKey, kid, ownClaims(kv...)) }
	alice, boris := tb.User(t, fx.OrgA, fx.Alice), tb.User(t, fx.OrgB, fx.Boris)
	now := time.Now()

	return []forgery{
		{"HS256KeyedWithThePublicKeyPEM", signed(t, jose.HS256, pemKey, kid, ownClaims())},
		{"HS256KeyedWithThePublicKeyDER", signed(t, jose.HS256, der, kid, ownClaims())},
		{"HS256KeyedWithThePublicKeyPoint", signed(t, jose.HS256, ecdhKey.Bytes(), kid, ownClaims())},
		{"HS256KeyedWithThePublicJWK", signed(t, jose.HS256, jwkKey, kid, ownClaims())},
		{"HS512KeyedWithThePublicKeyPEM", signed(t, jose.HS512, pemKey, kid, ownClaims())},
		{"HS256WithARandomSecret", signed(t, jose.HS256, secret, kid, ownClaims())},
		{"AlgNone", unsigned(t, ownClaims())},
		{"AlgNoneWithASignature", unsigned(t, ownClaims()) + "c2lnbmF0dXJl"},
		{"OtherES256Key", signed(t, jose.ES256, other, kid, ownClaims())},
		{"ES384", signed(t, jose.ES384, p384, kid, ownClaims())},
		{"RS256", signed(t, jose.RS256, rsaKey, kid, ownClaims())},
		{"OwnKeyEmbeddedInTheToken", embedded()},
		{"NotValidForAnHour", own("nbf", time.Now().Add(time.Hour).Unix())},
		{"NotValidForTenMinutes", own("nbf", time.Now().Add(10*time.Minute).Unix())},
		{"Expired", tb.mint(t, alice, -time.Minute)},
		{"ExpiredAnHourAgo", own("exp", time.Now().Add(-time.Hour).Unix())},
		{"ExpiredASecondAgo", own("exp", time.Now().Add(-time.Second).Unix())},
		{"WithoutExpiry", signed(t, jose.ES256, serviceKey, kid, withoutClaim("exp"))},
		// Tokens valid for more than 30 days, which could have been issued before that limit existed.
		// They are refused even when most of their lifetime has passed.
		{"LivingASecondMoreThan30Days", own("iat", now.Unix(), "exp", now.Add(web.MaxTokenTTL+time.Second).Unix())},
		{"LivingAYear", own("iat", now.Add(-360*24*time.Hour).Unix(), "exp", now.Add(5*24*time.Hour).Unix())},
		{"WithoutIssuedAt", signed(t, jose.ES256, serviceKey, kid, withoutClaim("iat"))},
		{"WithoutOrganization", signed(t, jose.ES256, serviceKey, kid, withoutClaim("org"))},
		{"OrganizationNotAUUID", own("org", "acme")},
		{"WrongIssuer", own("iss", "someone-else")},
		{"NoIssuer", own("iss", "")},
		{"IssuerInOtherCase", own("iss", "Workspace-Booking")},
		{"WrongAudience", own("aud", []string{"another-api"})},
		{"WithoutAudience", signed(t, jose.ES256, serviceKey, kid, withoutClaim("aud"))},
		{"AudienceAsAnotherService", own("aud", "workspace-booking-api-staging")},
		{"SubjectNotAUUID", own("sub", "alice")},
		{"UnknownUser", tb.mint(t, booking.User{ID: uuid.New(), OrganizationID: fx.OrgA}, time.Hour)},
		{"UserOfAnotherOrganization", tb.mint(t, booking.User{ID: fx.Alice, OrganizationID: fx.OrgB}, time.Hour)},
		{"SubjectOfBWithOrganizationA", own("sub", fx.Boris.String())},
		{"MintedForBorisInA", tb.mint(t, booking.User{ID: boris.ID, OrganizationID: fx.OrgA}, time.Hour)},
		{"TamperedPayload", tamper(t, tb.mint(t, alice, time.Hour), "sub", fx.Rita.String())},
	}
}

// TestForgedTokensWriteNothing sends each forgery to the operations that write. Each call gets 401 with
// code 1000 and a Bearer challenge, and nothing changes. TestBearerTokens sends them to an operation that
// reads.
func TestForgedTokensWriteNothing(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	forgeries := tb.forgeries(t)

	// Alice's booking, which the forged calls try to change.
	target := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
	before := snapshot(t, tb.Bundle, fx.OrgA)
	beforeB := snapshot(t, tb.Bundle, fx.OrgB)

	for _, tc := range forgeries {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range []struct{ method, path string }{
				{http.MethodPost, bookingsPath("me")},
				{http.MethodPatch, api + "/bookings/" + target},
				{http.MethodDelete, api + "/bookings/" + target},
				{http.MethodPut, reservablesPath(target)},
			} {
				var body any
				switch w.method {
				case http.MethodPost:
					body = []any{spaceBooking(fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0))}
				case http.MethodPatch:
					body = map[string]any{"endDate": fx.At(1, 11, 30).UnixMilli()}
				case http.MethodPut:
					body = map[string]any{"bookingId": target, "reservableBookingList": []any{map[string]any{"reservableId": fx.ReservableCoffee.String()}}}
				}
				wantUnauthorized(t, tb.callWith(t, uuid.Nil, w.method, w.path, body, http.Header{"Authorization": {"Bearer " + tc.token}}))
			}
			if changed := changedTables(before, snapshot(t, tb.Bundle, fx.OrgA)); len(changed) > 0 {
				t.Fatalf("the forged token changed %v", changed)
			}
			if changed := changedTables(beforeB, snapshot(t, tb.Bundle, fx.OrgB)); len(changed) > 0 {
				t.Fatalf("the forged token changed B's %v", changed)
			}
		})
	}
}
