package booking

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// The response to a request sent with an Idempotency-Key is kept for 24 hours (see
// queries/idempotency.sql).

// IdempotencyAbandonedAfter is how long a key may wait for the response to its first request. A request
// takes at most 10 s, and writing a response at most 30 s, so a key still without a response after this
// long belongs to an instance that stopped before answering. A retry of the same request then takes
// over the key and runs, instead of waiting for the key to expire.
const IdempotencyAbandonedAfter = time.Minute

// StoredAnswer is the stored response to the first request sent with an idempotency key.
type StoredAnswer struct {
	Status      int
	ContentType string
	Body        []byte
}

// ClaimIdempotencyKey claims user's key for the request with the given hash. If claimed is true, this
// request is the first with the key (or the key had expired): the caller runs it, then calls
// CompleteIdempotencyKey or ReleaseIdempotencyKey. Otherwise answer is the stored response to the first
// request, or nil while that request is still running; the caller may try again a little later.
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
		return s.ClaimIdempotencyKey(ctx, user, key, hash) // the key was released since the claim failed
	}
	if err != nil {
		return false, nil, fmt.Errorf("get idempotency key: %w", err)
	}
	if !bytes.Equal(row.RequestHash, hash) {
		return false, nil, Refuse(CodeIdempotencyKeyReused, "refusal.booking.idempotencyKeyReused", map[string]any{"Key": strconv.Quote(key)})
	}
	if row.Status == nil {
		return false, nil, nil
	}
	return false, &StoredAnswer{Status: int(*row.Status), ContentType: row.ContentType, Body: row.Body}, nil
}

// CompleteIdempotencyKey stores the response to the key's first request.
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

// ReleaseIdempotencyKey deletes a key whose request failed without changing anything (it got no
// response, or a 5xx), so that a retry runs again. A key that already has a response is kept.
func (s *Service) ReleaseIdempotencyKey(ctx context.Context, user User, key string) error {
	err := s.q.IdempotencyKeyRelease(ctx, queries.IdempotencyKeyReleaseParams{OrganizationID: user.OrganizationID, UserID: user.ID, Key: key})
	if err != nil {
		return fmt.Errorf("release idempotency key: %w", err)
	}
	return nil
}

// DeleteExpiredIdempotencyKeys deletes the keys older than 24 hours and returns how many it deleted.
// The periodic sweep calls it.
func (s *Service) DeleteExpiredIdempotencyKeys(ctx context.Context) (int64, error) {
	return s.q.IdempotencyKeysDeleteExpired(ctx)
}
