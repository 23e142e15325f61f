package booking

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// The answer to a request sent with an Idempotency-Key is kept 24 hours (queries/idempotency.sql).

// IdempotencyAbandonedAfter is how long a key may wait for the answer of its first request. A request
// takes 10 s at most (and a response 30 s to write): a key still unanswered after this belongs to an
// instance that stopped before answering, and a retry of the same request takes it over and runs, rather
// than wait until the key expires.
const IdempotencyAbandonedAfter = time.Minute

// StoredAnswer is the first answer to a request sent with an idempotency key.
type StoredAnswer struct {
	Status      int
	ContentType string
	Body        []byte
}

// ClaimIdempotencyKey claims the user's key for a request whose hash is given. claimed: the request is the
// first with the key (or the key had expired) and is to run, then be completed or released. Otherwise
// answer is the stored first answer, or nil while the first request is still running (it may be
// waited for: claim again a little later).
// Codes: 4220 the key was used for another request.
func (s *Service) ClaimIdempotencyKey(ctx context.Context, user User, key string, hash []byte) (claimed bool, answer *StoredAnswer, err error) {
	_, err = s.q.IdempotencyKeyClaim(ctx, queries.IdempotencyKeyClaimParams{
		OrganizationID: user.OrganizationID, UserID: user.ID, Key: key, RequestHash: hash,
		AbandonedSecs: int32(IdempotencyAbandonedAfter / time.Second),
	})
	if err == nil {
		return true, nil, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return false, nil, fmt.Errorf("claim idempotency key: %w", err)
	}
	row, err := s.q.IdempotencyKeyGet(ctx, queries.IdempotencyKeyGetParams{OrganizationID: user.OrganizationID, UserID: user.ID, Key: key})
	if errors.Is(err, pgx.ErrNoRows) {
		return s.ClaimIdempotencyKey(ctx, user, key, hash) // released meanwhile
	}
	if err != nil {
		return false, nil, fmt.Errorf("get idempotency key: %w", err)
	}
	if !bytes.Equal(row.RequestHash, hash) {
		return false, nil, Errorf(CodeIdempotencyKeyReused, "the Idempotency-Key %q was used for another request; use a new key for a new request", key)
	}
	if row.Status == nil {
		return false, nil, nil
	}
	return false, &StoredAnswer{Status: int(*row.Status), ContentType: row.ContentType, Body: row.Body}, nil
}

// CompleteIdempotencyKey stores the first answer to the key's request.
func (s *Service) CompleteIdempotencyKey(ctx context.Context, user User, key string, a StoredAnswer) error {
	status := int32(a.Status)
	err := s.q.IdempotencyKeyComplete(ctx, queries.IdempotencyKeyCompleteParams{
		OrganizationID: user.OrganizationID, UserID: user.ID, Key: key,
		Status: &status, ContentType: a.ContentType, Body: a.Body,
	})
	if err != nil {
		return fmt.Errorf("complete idempotency key: %w", err)
	}
	return nil
}

// ReleaseIdempotencyKey forgets a key whose request failed without doing anything (it was not answered,
// or answered 5xx), so that a retry runs. A key already answered stays.
func (s *Service) ReleaseIdempotencyKey(ctx context.Context, user User, key string) error {
	err := s.q.IdempotencyKeyRelease(ctx, queries.IdempotencyKeyReleaseParams{OrganizationID: user.OrganizationID, UserID: user.ID, Key: key})
	if err != nil {
		return fmt.Errorf("release idempotency key: %w", err)
	}
	return nil
}

// DeleteExpiredIdempotencyKeys forgets the keys older than 24 hours; the sweeps call it.
func (s *Service) DeleteExpiredIdempotencyKeys(ctx context.Context) (int64, error) {
	return s.q.IdempotencyKeysDeleteExpired(ctx)
}
