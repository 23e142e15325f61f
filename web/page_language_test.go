package web_test

import (
	"net/http"
	"testing"

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
		p.wantText(t, "nav", "Buscar un espacio", "Mis reservas", "Ajustes")
		p.wantText(t, "form.whoami button", "Cerrar sesión")
		// Bob has not changed his: English, whatever the browser says.
		p = pb.signedIn(t, fx.Bob).getIn("/bookings", "es")
		if got := p.attr("html", "lang"); got != "en" {
			t.Errorf("<html lang=%q> for a person whose language is en, want en", got)
		}
		p.wantText(t, "nav", "Find a space", "My bookings")
	})
}
