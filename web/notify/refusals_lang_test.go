package notify

import (
	"context"
	"errors"
	"testing"

	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/lang"
)

// TestRefusalsInSpanish makes a few refusals of webhook endpoints and e-mail settings for real and reads
// them in Spanish: the words and the kind of address are Spanish, the field, host names, addresses and
// event types stay as they are, and Message stays English.
func TestRefusalsInSpanish(t *testing.T) {
	t.Parallel()
	hb := setupHooks(t, false)
	hb.svc.hooks.dns = newDNS(t, ssrfNames).Resolver()
	ctx := t.Context()
	es := lang.With(context.Background(), language.Spanish)
	create := func(url string, kinds ...string) error {
		if len(kinds) == 0 {
			kinds = []string{"booking.created"}
		}
		_, _, err := hb.svc.CreateWebhookEndpoint(ctx, hb.adam, WebhookEndpointChange{URL: &url, EventTypes: kinds})
		return err
	}
	_, onlyAdmins := hb.svc.WebhookEndpoints(ctx, hb.User(t, fx.OrgA, fx.Rita))
	for _, tc := range []struct {
		name        string
		err         error
		code        booking.Code
		english, es string
	}{{
		"a name that resolves to loopback", create("https://loopback.test/hooks"), booking.CodeInvalidRequest,
		"url: loopback.test resolves to 127.0.0.1, a loopback address; webhooks go to public addresses only",
		"url: loopback.test se resuelve como 127.0.0.1, una dirección de loopback; los webhooks solo van a direcciones públicas",
	}, {
		"a private address", create("https://10.0.0.1/"), booking.CodeInvalidRequest,
		"url: 10.0.0.1 is a private address; webhooks go to public addresses only",
		"url: 10.0.0.1 es una dirección privada; los webhooks solo van a direcciones públicas",
	}, {
		"the cloud's metadata", create("https://169.254.169.254/latest/meta-data/"), booking.CodeInvalidRequest,
		"url: 169.254.169.254 is the cloud's metadata address; webhooks go to public addresses only",
		"url: 169.254.169.254 es la dirección de metadatos de la nube; los webhooks solo van a direcciones públicas",
	}, {
		"plain http", create("http://public.test/hooks"), booking.CodeInvalidRequest,
		"url: must start with https://; plain http is not allowed",
		"url: debe empezar por https://; no se permite http sin cifrar",
	}, {
		"an unknown name", create("https://nowhere.test/hooks"), booking.CodeInvalidRequest,
		"url: cannot find the address of nowhere.test; check the name",
		"url: no se encuentra la dirección de nowhere.test; revisa el nombre",
	}, {
		"an unknown event type", create("https://public.test/hooks", "booking.deleted"), booking.CodeInvalidRequest,
		`eventTypes: "booking.deleted" is not an event type; the types are ` + kindList(),
		`eventTypes: "booking.deleted" no es un tipo de evento; los tipos son ` + kindList(),
	}, {
		"a receptionist", onlyAdmins, booking.CodeForbidden,
		"only admins may manage webhooks",
		"solo los administradores pueden gestionar los webhooks",
	}, {
		"a kind of e-mail nobody chooses", hb.svc.ChooseMail(ctx, hb.User(t, fx.OrgA, fx.Alice), []string{"spam"}), booking.CodeInvalidRequest,
		`on: "spam" is not a kind of e-mail you can choose`,
		`on: "spam" no es un tipo de correo que puedas elegir`,
	}} {
		var de *booking.Error
		if !errors.As(tc.err, &de) {
			t.Errorf("%s: %v, want a refusal", tc.name, tc.err)
			continue
		}
		if de.Code != tc.code {
			t.Errorf("%s: code %s, want %s", tc.name, de.Code, tc.code)
		}
		if de.Message != tc.english {
			t.Errorf("%s: Message = %q, want %q", tc.name, de.Message, tc.english)
		}
		if got := de.In(es); got != tc.es {
			t.Errorf("%s: in Spanish %q, want %q", tc.name, got, tc.es)
		}
	}
}
