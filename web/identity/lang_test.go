package identity_test

import (
	"context"
	"errors"
	"testing"

	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/lang"
)

// TestRefusalsInSpanish makes a few of the service's refusals for real and reads them in Spanish: their
// words are Spanish, the field and the data (addresses, domains, group names) stay as they are, and
// their Message stays English.
func TestRefusalsInSpanish(t *testing.T) {
	t.Parallel()
	b, d := setupIdentity(t)
	ctx := t.Context()
	es := lang.With(context.Background(), language.Spanish)
	adam, alice := b.User(t, fx.OrgA, fx.Adam), b.User(t, fx.OrgA, fx.Alice)
	if err := b.People.SetSignInSettings(ctx, adam, identity.SignInSettings{Domains: []string{"acme.test"}}); err != nil {
		t.Fatalf("claim acme.test: %v", err)
	}
	_, unverified := b.People.SignIn(ctx, identity.Identity{Subject: "idp|zoe", Email: "zoe@acme.test"})
	_, unknownDomain := b.People.SignIn(ctx, identity.Identity{Subject: "idp|zoe", Email: "zoe@nowhere.test", EmailVerified: true})
	d.SetFailing(true)
	_, dnsFailed := b.People.VerifyEmailDomain(ctx, adam, "acme.test")
	d.SetFailing(false)
	for _, tc := range []struct {
		name        string
		err         error
		code        booking.Code
		english, es string
	}{{
		"sign-in with an address the provider has not verified", unverified, booking.CodeUnauthorized,
		"Your identity provider has not verified your e-mail address zoe@acme.test, so it cannot be used to find or create your account. Ask your IT department to verify it, or your office manager to add you.",
		"Tu proveedor de identidad no ha verificado tu dirección de correo zoe@acme.test, así que no se puede usar para encontrar o crear tu cuenta. Pide al departamento de informática que la verifique, o a la persona responsable de la oficina que te añada.",
	}, {
		"sign-in at a domain nobody proved", unknownDomain, booking.CodeUnauthorized,
		"The organization of zoe@nowhere.test is not set up for sign-in here. Ask your office manager or IT department to add and verify the domain nowhere.test, or to add you.",
		"La organización de zoe@nowhere.test no está configurada para iniciar sesión aquí. Pide a la persona responsable de la oficina o al departamento de informática que añada y verifique el dominio nowhere.test, o que te añada a ti.",
	}, {
		"a public mail domain", b.People.SetSignInSettings(ctx, adam, identity.SignInSettings{Domains: []string{"gmail.com"}}), booking.CodeInvalidRequest,
		"domains: gmail.com cannot be used; add a domain that your organization owns",
		"domains: no se puede usar gmail.com; añade un dominio que sea de tu organización",
	}, {
		"a group given twice", b.People.SetSignInSettings(ctx, adam, identity.SignInSettings{GroupRoles: []identity.GroupRole{
			{Group: "Office", Role: booking.RoleAdmin}, {Group: "office", Role: booking.RoleEmployee}}}), booking.CodeInvalidRequest,
		"groupRoles: office is given twice",
		"groupRoles: office aparece dos veces",
	}, {
		"a DNS server that fails", dnsFailed, booking.CodeInvalidRequest,
		"domains: the DNS look-up of acme.test failed (the name server refused the question); try again later",
		"domains: la consulta DNS de acme.test ha fallado (el servidor de nombres ha rechazado la consulta); vuelve a intentarlo más tarde",
	}, {
		"a domain not added", second(b.People.VerifyEmailDomain(ctx, adam, "Globex.test")), booking.CodeObjectNotFound,
		`your organization has not added the domain "globex.test"`,
		`tu organización no ha añadido el dominio "globex.test"`,
	}, {
		"an employee changing the settings", b.People.SetSignInSettings(ctx, alice, identity.SignInSettings{}), booking.CodeForbidden,
		"only admins may change the sign-in settings",
		"solo los administradores pueden cambiar los ajustes de inicio de sesión",
	}, {
		"an admin deactivating themselves", b.People.SetUserActive(ctx, adam, adam.ID, false), booking.CodeInvalidRequest,
		"you cannot deactivate your own account; ask another admin",
		"no puedes desactivar tu propia cuenta; pídeselo a otro administrador",
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

// second returns the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }
