package web_test

import (
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
	}{{
		"BadWebhookURL", http.MethodPost, webhooksPath, fx.Adam,
		map[string]any{"url": "ftp://example.com/hooks", "eventTypes": []string{"booking.created"}},
		"url: must start with https://", "url: debe empezar por https://",
	}, {
		"NoEventType", http.MethodPost, webhooksPath, fx.Adam,
		map[string]any{"url": "https://example.com/hooks", "eventTypes": []string{}},
		"eventTypes: choose at least one event type", "eventTypes: elige al menos un tipo de evento",
	}, {
		"MissingFromAndTo", http.MethodGet, availabilityPath("me", fx.BuildingMadrid, url.Values{}), fx.Alice, nil,
		"from and to: are required (ms since the epoch)", "from y to: son obligatorios (ms desde la época Unix)",
	}, {
		"NotAUUID", http.MethodGet, availabilityPath("me", "nope", url.Values{}), fx.Alice, nil,
		`buildingId: "nope" is not a UUID`, `buildingId: "nope" no es un UUID`,
	}, {
		"MalformedJSON", http.MethodPost, webhooksPath, fx.Adam, `{"url": }`,
		"body: malformed JSON at byte 9: invalid character '}' looking for beginning of value",
		"body: JSON mal formado en el byte 9: invalid character '}' looking for beginning of value",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			english := tb.call(t, tc.as, tc.method, tc.path, tc.body)
			spanish := tb.callWith(t, tc.as, tc.method, tc.path, tc.body, http.Header{"Accept-Language": {"es"}})
			en := wantProblem(t, english, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
			es := wantProblem(t, spanish, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
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
