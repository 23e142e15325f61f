package web_test

import (
	"cmp"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestAPIRefusalLanguage checks that an API refusal writes its detail in the language the client's
// Accept-Language asks for, Spanish here, and in English without one, with Content-Language saying
// which; its status, code, name, title and field are the same both times.
func TestAPIRefusalLanguage(t *testing.T) {
	t.Parallel()
	tb := setup(t, withWorkingNotify(t))
	for _, tc := range []struct {
		name, method, path string
		as                 uuid.UUID
		body               any
		english, spanish   string
		status             int // 400 when not given
		code               booking.Code
		token              string // instead of a signed-in person's
	}{{
		"BadWebhookURL", http.MethodPost, webhooksPath, fx.Adam,
		map[string]any{"url": "ftp://example.com/hooks", "eventTypes": []string{"booking.created"}},
		"url: must start with https://", "url: debe empezar por https://", 0, 0, "",
	}, {
		"NoEventType", http.MethodPost, webhooksPath, fx.Adam,
		map[string]any{"url": "https://example.com/hooks", "eventTypes": []string{}},
		"eventTypes: choose at least one event type", "eventTypes: elige al menos un tipo de evento", 0, 0, "",
	}, {
		"MissingFromAndTo", http.MethodGet, availabilityPath("me", fx.BuildingMadrid, url.Values{}), fx.Alice, nil,
		"from and to: are required (ms since the epoch)", "from y to: son obligatorios (ms desde la época Unix)", 0, 0, "",
	}, {
		"NotAUUID", http.MethodGet, availabilityPath("me", "nope", url.Values{}), fx.Alice, nil,
		`buildingId: "nope" is not a UUID`, `buildingId: "nope" no es un UUID`, 0, 0, "",
	}, {
		"MalformedJSON", http.MethodPost, webhooksPath, fx.Adam, `{"url": }`,
		"body: malformed JSON at byte 9: invalid character '}' looking for beginning of value",
		"body: JSON mal formado en el byte 9: invalid character '}' looking for beginning of value", 0, 0, "",
	}, {
		"NoToken", http.MethodGet, api + "/buildings", uuid.Nil, nil,
		"a valid bearer token is required", "se necesita un token de portador válido",
		http.StatusUnauthorized, booking.CodeUnauthorized, "",
	}, {
		"NotAToken", http.MethodGet, api + "/buildings", uuid.Nil, nil,
		"a valid bearer token is required", "se necesita un token de portador válido",
		http.StatusUnauthorized, booking.CodeUnauthorized, "Bearer not-a-token",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			status, code := cmp.Or(tc.status, http.StatusBadRequest), cmp.Or(tc.code, booking.CodeInvalidRequest)
			header := http.Header{}
			if tc.token != "" {
				header.Set("Authorization", tc.token)
			}
			english := tb.callWith(t, tc.as, tc.method, tc.path, tc.body, header)
			header.Set("Accept-Language", "es")
			spanish := tb.callWith(t, tc.as, tc.method, tc.path, tc.body, header)
			en := wantProblem(t, english, status, code, noIndex)
			es := wantProblem(t, spanish, status, code, noIndex)
			if en["detail"] != tc.english || english.header.Get("Content-Language") != "en" {
				t.Errorf("without Accept-Language: detail %q, Content-Language %q; want %q, en",
					en["detail"], english.header.Get("Content-Language"), tc.english)
			}
			if es["detail"] != tc.spanish || spanish.header.Get("Content-Language") != "es" {
				t.Errorf("Accept-Language es: detail %q, Content-Language %q; want %q, es",
					es["detail"], spanish.header.Get("Content-Language"), tc.spanish)
			}
			for _, key := range []string{"status", "code", "name", "title", "field"} {
				if en[key] != es[key] {
					t.Errorf("%s: %v in English, %v in Spanish; want the same", key, en[key], es[key])
				}
			}
		})
	}
}
