package web_test

import (
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	josejwt "github.com/go-jose/go-jose/v4/jwt"
	gojwt "github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// ownClaims returns the claims of a service token for Alice, valid for an hour. The key/value pairs in
// kv replace or add claims.
func ownClaims(kv ...any) map[string]any {
	now := time.Now()
	c := map[string]any{
		"iss": web.OwnIssuer, "aud": []string{web.OwnAudience}, "sub": fx.Alice.String(), "org": fx.OrgA.String(),
		"iat": now.Unix(), "nbf": now.Add(-time.Minute).Unix(), "exp": now.Add(time.Hour).Unix(), "jti": uuid.NewString(),
	}
	for i := 0; i+1 < len(kv); i += 2 {
		c[kv[i].(string)] = kv[i+1]
	}
	return c
}

// signed returns a JWT with the claims, signed with go-jose.
func signed(t testing.TB, alg jose.SignatureAlgorithm, key any, kid string, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType("JWT")
	if kid != "" {
		opts = opts.WithHeader("kid", kid)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatalf("signer: %v", err)
	}
	tok, err := josejwt.Signed(s).Claims(claims).Serialize()
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	return tok
}

// unsigned returns an unsigned JWT, with alg "none".
func unsigned(t *testing.T, claims map[string]any) string {
	t.Helper()
	enc := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return enc(map[string]string{"alg": "none", "typ": "JWT"}) + "." + enc(claims) + "."
}

// wantUnauthorized checks that a response is 401 with a problem body and a Bearer challenge.
func wantUnauthorized(t *testing.T, r reply) {
	t.Helper()
	wantProblem(t, r, http.StatusUnauthorized, booking.CodeUnauthorized, noIndex)
	if got := r.header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer ") {
		t.Errorf("WWW-Authenticate = %q, want a Bearer challenge", got)
	}
}

// withAuthorization calls statusinfo with the given Authorization header, or none if it is "".
func (tb *testBundle) withAuthorization(t *testing.T, authorization string) reply {
	t.Helper()
	var header http.Header
	if authorization != "" {
		header = http.Header{"Authorization": {authorization}}
	}
	return tb.callWith(t, uuid.Nil, http.MethodGet, statusPath("me", "MAD-R1"), nil, header)
}

func TestBearerTokens(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	serviceKey, kid := tb.serviceKey(t)
	alice := tb.User(t, fx.OrgA, fx.Alice)

	t.Run("Accepted", func(t *testing.T) {
		t.Parallel()
		now := time.Now()
		for _, tc := range []struct{ name, authorization string }{
			{"Minted", "Bearer " + tb.mint(t, alice, time.Hour)},
			{"SignedWithTheServiceKey", "Bearer " + signed(t, jose.ES256, serviceKey, kid, ownClaims())},
			{"LowerCaseScheme", "bearer " + tb.mint(t, alice, time.Hour)},
			{"LivingThe30DaysAllowed", "Bearer " + signed(t, jose.ES256, serviceKey, kid,
				ownClaims("iat", now.Unix(), "exp", now.Add(web.MaxTokenTTL).Unix()))},
		} {
			t.Run(tc.name, func(t *testing.T) {
				wantStatus(t, tb.withAuthorization(t, tc.authorization), http.StatusOK)
			})
		}
	})

	t.Run("Refused", func(t *testing.T) {
		t.Parallel()
		cases := []struct{ name, authorization string }{
			{"MissingHeader", ""},
			{"BasicScheme", "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:secret"))},
			// A valid token with the wrong scheme: only the scheme check can refuse it.
			{"ValidTokenUnderBasicScheme", "Basic " + tb.mint(t, alice, time.Hour)},
			{"ValidTokenUnderTokenScheme", "Token " + tb.mint(t, alice, time.Hour)},
			{"SchemeWithoutToken", "Bearer"},
			{"SchemeWithBlankToken", "Bearer   "},
			{"TokenWithoutScheme", tb.mint(t, alice, time.Hour)},
			{"Garbage", "Bearer not-a-jwt"},
			{"GarbageWithThreeParts", "Bearer aaa.bbb.ccc"},
		}
		for _, f := range tb.forgeries(t) {
			cases = append(cases, struct{ name, authorization string }{f.name, "Bearer " + f.token})
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				wantUnauthorized(t, tb.withAuthorization(t, tc.authorization))
			})
		}
	})

	t.Run("EveryOperationNeedsAToken", func(t *testing.T) {
		t.Parallel()
		id := uuid.NewString()
		for _, tc := range []struct{ method, path string }{
			{http.MethodGet, statusPath("me", "MAD-R1")},
			{http.MethodGet, workstations("me", days(today10))},
			{http.MethodGet, spaces(fx.Alice.String(), days(today10))},
			{http.MethodPost, bookingsPath("me")},
			{http.MethodPut, reservablesPath(id)},
		} {
			t.Run(tc.method+tc.path, func(t *testing.T) {
				wantUnauthorized(t, tb.call(t, uuid.Nil, tc.method, tc.path, nil))
			})
		}
	})
}

// serviceKey returns the key that the service signs its tokens with, and its kid.
func (tb *testBundle) serviceKey(t testing.TB) (*ecdsa.PrivateKey, string) {
	t.Helper()
	keys, err := tb.Identity().SigningKeys(t.Context())
	if err != nil {
		t.Fatalf("SigningKeys: %v", err)
	}
	return keys[0].Key, keys[0].ID.String()
}

// tamper changes one claim of a signed token without signing it again.
func tamper(t *testing.T, token, claim string, value any) string {
	t.Helper()
	parts := strings.Split(token, ".")
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatalf("decode payload: %v", err)
	}
	var c map[string]any
	if err := json.Unmarshal(payload, &c); err != nil {
		t.Fatalf("unmarshal payload: %v", err)
	}
	c[claim] = value
	payload, err = json.Marshal(c)
	if err != nil {
		t.Fatalf("marshal payload: %v", err)
	}
	parts[1] = base64.RawURLEncoding.EncodeToString(payload)
	return strings.Join(parts, ".")
}

// bindBob links Bob to the provider's subject idp|bob.
func bindBob(t *testing.T, tb *testBundle) {
	t.Helper()
	bob := fx.Layout().Users[1]
	bob.OIDCSubject = ptrTo("idp|bob")
	if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{bob}}); err != nil {
		t.Fatalf("import: %v", err)
	}
}

// TestOIDCBearer checks how the API accepts the identity provider's ID tokens, with mockoidc as the
// provider.
func TestOIDCBearer(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	cfg := discoveredProvider(t, web.ProviderConfig{Issuer: m.Issuer(), ClientID: m.ClientID})
	otherKey, err := mockoidc.RandomKeypair(2048)
	if err != nil {
		t.Fatalf("keypair: %v", err)
	}

	// idToken returns an ID token from the provider, valid for an hour. The key/value pairs in kv replace
	// or add claims; a nil value removes the claim.
	idToken := func(t *testing.T, kp *mockoidc.Keypair, kv ...any) string {
		t.Helper()
		now := time.Now()
		c := gojwt.MapClaims{
			"iss": m.Issuer(), "aud": m.ClientID, "sub": "idp|" + uuid.NewString(), "email": "alice@acme.test",
			"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(c, kv[i].(string))
				continue
			}
			c[kv[i].(string)] = kv[i+1]
		}
		tok, err := kp.SignJWT(c)
		if err != nil {
			t.Fatalf("SignJWT: %v", err)
		}
		return tok
	}
	// bookAs books Goya with the token and returns the response.
	bookAs := func(t *testing.T, tb *testBundle, token string) reply {
		t.Helper()
		return tb.callWith(t, uuid.Nil, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))},
			http.Header{"Authorization": {"Bearer " + token}})
	}

	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, tb *testBundle) // changes the fixture before the call
		token   func(t *testing.T) string
		want    uuid.UUID // the booking's creator; uuid.Nil means refused with 401
	}{
		{name: "VerifiedEmailNamesAlice", token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "email_verified", true)
		}, want: fx.Alice},
		{name: "EmailInOtherCase", token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "email", "Alice@ACME.test", "email_verified", true)
		}, want: fx.Alice},
		// Entra ID sends no email_verified; xms_edov true says the domain owner verified the address.
		{name: "DomainOwnerVerifiedEmail", token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "xms_edov", true)
		}, want: fx.Alice},
		{name: "EmailVerifiedFalseWinsOverDomainOwner", token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "email_verified", false, "xms_edov", true)
		}},
		// An e-mail address that the provider does not mark as verified identifies nobody.
		{name: "EmailWithoutEmailVerified", token: func(t *testing.T) string { return idToken(t, m.Keypair) }},
		{name: "EmailVerifiedNotABoolean", token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "email_verified", "true")
		}},
		// A user already linked to a subject cannot be reached through another subject with their address,
		// whether the address is verified or not.
		{name: "ForgedSubjectWithBoundUsersEmail", prepare: bindBob, token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "sub", "idp|mallory", "email", "bob@acme.test")
		}},
		{name: "OtherSubjectWithBoundUsersVerifiedEmail", prepare: bindBob, token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "sub", "idp|mallory", "email", "bob@acme.test", "email_verified", true)
		}},
		// An account of another organization with the address, planted before A proved acme.test, is never
		// matched: only A, which proved the domain, is looked in.
		{name: "VerifiedEmailAlsoInAnotherOrganization", prepare: func(t *testing.T, tb *testBundle) {
			tb.exec(t, `INSERT INTO users (organization_id, id, name, email) VALUES ($1, $2, 'Twin', 'alice@acme.test')`, fx.OrgB, uuid.New())
		}, token: func(t *testing.T) string { return idToken(t, m.Keypair, "email_verified", true) }, want: fx.Alice},
		{name: "SubjectNamesBob", prepare: func(t *testing.T, tb *testBundle) {
			bob := fx.Layout().Users[1]
			bob.OIDCSubject = ptrTo("idp|bob")
			if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{bob}}); err != nil {
				t.Fatalf("import: %v", err)
			}
		}, token: func(t *testing.T) string {
			// The subject takes precedence over the e-mail address.
			return idToken(t, m.Keypair, "sub", "idp|bob", "email", "alice@acme.test")
		}, want: fx.Bob},
		{name: "AudienceInAList", token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "aud", []string{"another-client", m.ClientID}, "email_verified", true)
		}, want: fx.Alice},
		{name: "UnknownSubjectAndEmail", token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "email", "mallory@example.com")
		}},
		{name: "EmailNotVerified", token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "email_verified", false)
		}},
		{name: "EmailVerified", token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "email_verified", true)
		}, want: fx.Alice},
		{name: "UnknownSubjectNoEmail", token: func(t *testing.T) string { return idToken(t, m.Keypair, "email", nil) }},
		{name: "Expired", token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "iat", time.Now().Add(-2*time.Hour).Unix(), "exp", time.Now().Add(-time.Hour).Unix())
		}},
		{name: "SignedByAnotherKey", token: func(t *testing.T) string { return idToken(t, otherKey) }},
		{name: "WrongAudience", token: func(t *testing.T) string { return idToken(t, m.Keypair, "aud", "another-client") }},
		{name: "WrongIssuer", token: func(t *testing.T) string { return idToken(t, m.Keypair, "iss", m.Issuer()+"/other") }},
		{name: "ProviderTokenWithServiceIssuer", token: func(t *testing.T) string {
			return idToken(t, m.Keypair, "iss", web.OwnIssuer, "aud", web.OwnAudience, "sub", fx.Alice.String(), "org", fx.OrgA.String())
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setupOIDC(t, cfg)
			if tc.prepare != nil {
				tc.prepare(t, tb)
			}
			r := bookAs(t, tb, tc.token(t))
			if tc.want == uuid.Nil {
				wantUnauthorized(t, r)
				tb.wantRows(t, "bookings", 0)
				return
			}
			b := created(t, r, 1)[0]
			wantValue(t, "creator.id", b["creator"].(map[string]any)["id"], tc.want.String())
			wantValue(t, "organizer.id", b["organizer"].(map[string]any)["id"], tc.want.String())
		})
	}

	t.Run("VerifiedEmailBindsTheSubject", func(t *testing.T) {
		t.Parallel()
		tb := setupOIDC(t, cfg)
		first := idToken(t, m.Keypair, "sub", "idp|alice", "email_verified", true)
		wantValue(t, "creator.id", created(t, bookAs(t, tb, first), 1)[0]["creator"].(map[string]any)["id"], fx.Alice.String())
		var subject string
		if err := tb.Pool.QueryRow(t.Context(), `SELECT oidc_subject FROM users WHERE id = $1`, fx.Alice).Scan(&subject); err != nil {
			t.Fatal(err)
		}
		if subject != "idp|alice" {
			t.Errorf("Alice's oidc_subject = %q, want idp|alice", subject)
		}
		// From now on, her address identifies her only when it comes with that subject.
		wantUnauthorized(t, tb.callWith(t, uuid.Nil, http.MethodGet, statusPath("me", "MAD-R1"), nil,
			http.Header{"Authorization": {"Bearer " + idToken(t, m.Keypair, "sub", "idp|other", "email_verified", true)}}))
		later := idToken(t, m.Keypair, "sub", "idp|alice", "email", nil)
		wantStatus(t, tb.callWith(t, uuid.Nil, http.MethodGet, statusPath("me", "MAD-R1"), nil,
			http.Header{"Authorization": {"Bearer " + later}}), http.StatusOK)
	})

	t.Run("ServiceTokensStillAccepted", func(t *testing.T) {
		t.Parallel()
		tb := setupOIDC(t, cfg)
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-R1"), nil), http.StatusOK)
	})
}
