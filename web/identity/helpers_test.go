package identity_test

import (
	"testing"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// bundle is the fixture with an identity service on its database, sharing its clock.
type bundle struct {
	*fx.Bundle
	People *identity.Service
}

// setup returns a bundle on a fresh database loaded with the fixture. opts configure the identity
// service.
func setup(t *testing.T, opts ...identity.Option) *bundle {
	t.Helper()
	b := fx.Setup(t)
	return &bundle{Bundle: b, People: identity.New(b.Pool, b.Service, opts...)}
}

func ptr[T any](v T) *T { return &v }
