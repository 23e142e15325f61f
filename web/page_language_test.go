package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// getIn fetches a page as a browser that asks for the languages of an Accept-Language header.
func (b *browser) getIn(path, acceptLanguage string) htmlPage {
	b.t.Helper()
	req, err := http.NewRequestWithContext(b.t.Context(), http.MethodGet, b.base+path, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	if acceptLanguage != "" {
		req.Header.Set("Accept-Language", acceptLanguage)
	}
	return b.send(req)
}

// A page speaks the signed-in person's language (their userLanguage), else the first language the
// browser asks for that the service speaks, else English; <html lang> and Content-Language say which.
func TestPageLanguage(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	for _, c := range []struct{ name, accept, want, skip string }{
		{"NoHeader", "", "en", "Skip to content"},
		{"Spanish", "es-ES,es;q=0.9,en;q=0.8", "es", "Saltar al contenido"},
		{"SpanishOfMexico", "es-MX", "es", "Saltar al contenido"},
		{"FrenchThenSpanish", "fr-FR, es;q=0.5", "es", "Saltar al contenido"},
		{"OnlyFrench", "fr", "en", "Skip to content"},
		{"Garbage", ";;q=x", "en", "Skip to content"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := pb.browser(t).getIn("/login", c.accept)
			p.wantStatus(t, http.StatusOK)
			if got := p.attr("html", "lang"); got != c.want {
				t.Errorf("<html lang=%q>, want %q", got, c.want)
			}
			if got := p.header.Get("Content-Language"); got != c.want {
				t.Errorf("Content-Language: %q, want %q", got, c.want)
			}
			p.wantText(t, "a.skip", c.skip)
		})
	}

	t.Run("PersonsOwnLanguageFirst", func(t *testing.T) {
		if _, err := pb.Pool.Exec(t.Context(), `UPDATE users SET user_language = 'es' WHERE id = $1`, fx.Alice); err != nil {
			t.Fatal(err)
		}
		b := pb.signedIn(t, fx.Alice)
		p := b.getIn("/bookings", "en-GB,en")
		if got := p.attr("html", "lang"); got != "es" {
			t.Errorf("<html lang=%q> for a person whose language is es, want es", got)
		}
		p.wantText(t, "nav", "Buscar", "Mis reservas", "Ajustes")
		p.wantText(t, "form.whoami button", "Cerrar sesión")
		// Bob has not changed his: English, whatever the browser says.
		p = pb.signedIn(t, fx.Bob).getIn("/bookings", "es")
		if got := p.attr("html", "lang"); got != "en" {
			t.Errorf("<html lang=%q> for a person whose language is en, want en", got)
		}
		p.wantText(t, "nav", "Find a space", "My bookings")
	})
}

// The switch on every page keeps the language chosen: in the session before signing in, and as the
// person's userLanguage once signed in. A language the service does not speak is refused and changes
// nothing.
func TestLanguageSwitch(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)

	t.Run("BeforeSigningIn", func(t *testing.T) {
		b := pb.browser(t)
		p := b.getIn("/login", "en")
		if got := p.attr("form.lang-switch select option[selected]", "value"); got != "en" {
			t.Fatalf("the switch shows %q chosen, want en", got)
		}
		p = b.post("/language", url.Values{"lang": {"fr"}, "next": {"/login"}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, "main .lead", `the language "fr" is not one this service speaks: choose one of en, es`)
		p = b.post("/language", url.Values{"lang": {"es"}, "next": {"/login"}})
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/login" {
			t.Errorf("after the switch the browser is at %s, want the sign-in page", p.url.Path)
		}
		if got := b.getIn("/login", "en").attr("html", "lang"); got != "es" {
			t.Errorf("<html lang=%q> after choosing Spanish, want es whatever the browser asks for", got)
		}
	})

	t.Run("SignedIn", func(t *testing.T) {
		b := pb.signedIn(t, fx.Bob)
		// The switch brings the browser back to the page it is on, query and all: the form names the
		// page's path, and the query comes from the Referer a browser sends with the form.
		if got := b.get("/bookings?when=past").attr("form.lang-switch input[name=next]", "value"); got != "/bookings" {
			t.Errorf("the switch on /bookings?when=past goes back to %q, want /bookings", got)
		}
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, b.base+"/language",
			strings.NewReader(url.Values{"lang": {"es"}, "next": {"/bookings"}}.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Referer", b.base+"/bookings?when=past")
		p := b.send(req)
		p.wantStatus(t, http.StatusOK)
		if p.url.RequestURI() != "/bookings?when=past" {
			t.Errorf("after the switch the browser is at %s, want /bookings?when=past", p.url.RequestURI())
		}
		p.wantText(t, "nav", "Mis reservas")
		if got := p.attr("form.lang-switch select option[selected]", "value"); got != "es" {
			t.Errorf("the switch shows %q chosen, want es", got)
		}
		if got := userLanguage(t, pb, fx.Bob); got != "es" {
			t.Errorf("Bob's userLanguage = %q, want es", got)
		}
		if got := userLanguage(t, pb, fx.Alice); got != "en" {
			t.Errorf("Alice's userLanguage = %q, want en: only the person who chose changes", got)
		}

		p = b.post("/language", url.Values{"lang": {"fr"}, "next": {"/bookings"}})
		p.wantStatus(t, http.StatusBadRequest)
		// Bob now reads Spanish: the refusal is in his language too.
		p.wantText(t, "main .lead", `el idioma "fr" no es uno de los que habla este servicio: elige uno de en, es`)
		if got := userLanguage(t, pb, fx.Bob); got != "es" {
			t.Errorf("after a refused switch Bob's userLanguage = %q, want es", got)
		}
		// Somewhere off the site is not where a switch goes back to.
		if p = b.post("/language", url.Values{"lang": {"en"}, "next": {"//evil.example/x"}}); p.url.Host != strings.TrimPrefix(pb.srv.URL, "http://") {
			t.Errorf("the switch sent the browser to %s", p.url)
		}
	})
}

// userLanguage reads a fixture person's userLanguage from the database.
func userLanguage(t *testing.T, pb *pageBundle, id uuid.UUID) string {
	t.Helper()
	var code string
	if err := pb.Pool.QueryRow(t.Context(), `SELECT user_language FROM users WHERE id = $1`, id).Scan(&code); err != nil {
		t.Fatal(err)
	}
	return code
}
