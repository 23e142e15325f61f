package identity

import (
	"context"
	"crypto/ecdsa"
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/google/uuid"
)

// SigningKey is a key that the service signs its own bearer tokens with.
type SigningKey struct {
	ID  uuid.UUID
	Key *ecdsa.PrivateKey
}

// SigningKeys returns every signing key, newest first.
func (s *Service) SigningKeys(ctx context.Context) ([]SigningKey, error) {
	rows, err := s.q.SigningKeysAll(ctx)
	if err != nil {
		return nil, fmt.Errorf("get signing keys: %w", err)
	}
	out := make([]SigningKey, 0, len(rows))
	for _, r := range rows {
		k, err := x509.ParsePKCS8PrivateKey(r.PrivateKey)
		if err != nil {
			return nil, fmt.Errorf("signing key %s: %w", r.ID, err)
		}
		ek, ok := k.(*ecdsa.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("signing key %s is not an ECDSA key", r.ID)
		}
		out = append(out, SigningKey{ID: r.ID, Key: ek})
	}
	if len(out) == 0 {
		return nil, errors.New("no signing key: run `booking migrate`")
	}
	return out, nil
}
