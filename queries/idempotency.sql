-- name: IdempotencyKeyClaim :one
-- Claims a key for a request: a new key, a key older than 24 hours (taken over as new), or a key whose
-- first request was abandoned: still unanswered after abandoned_secs seconds, longer than any request may
-- run, so its instance stopped before answering; only the same request takes that over, and keeps the
-- bookings it made. The database's clock decides the ages, as it sets created_at. No row when the key is
-- held: by a request still running, or by a stored answer.
INSERT INTO idempotency_keys (organization_id, user_id, key, request_hash)
VALUES (@organization_id, @user_id, @key, @request_hash)
ON CONFLICT (organization_id, user_id, key) DO UPDATE
SET request_hash = EXCLUDED.request_hash, status = NULL, content_type = '', body = '', created_at = now(),
    booking_ids = CASE WHEN idempotency_keys.created_at < now() - interval '24 hours' THEN '{}'::uuid[]
                       ELSE idempotency_keys.booking_ids END
WHERE idempotency_keys.created_at < now() - interval '24 hours'
   OR (idempotency_keys.status IS NULL AND idempotency_keys.request_hash = EXCLUDED.request_hash
       AND idempotency_keys.created_at < now() - make_interval(secs => sqlc.arg(abandoned_secs)::integer))
RETURNING key;

-- name: IdempotencyKeyGet :one
SELECT request_hash, status, content_type, body FROM idempotency_keys
WHERE organization_id = @organization_id AND user_id = @user_id AND key = @key;

-- name: IdempotencyKeyComplete :exec
UPDATE idempotency_keys SET status = @status, content_type = @content_type, body = @body
WHERE organization_id = @organization_id AND user_id = @user_id AND key = @key;

-- name: IdempotencyKeyRelease :exec
-- Forgets a key whose request failed on our side (nothing was done), so that a retry runs again; a key
-- on which bookings were made stays, for the retry to answer with them.
DELETE FROM idempotency_keys
WHERE organization_id = @organization_id AND user_id = @user_id AND key = @key AND status IS NULL
  AND booking_ids = '{}';

-- name: IdempotencyKeyBookings :one
-- The bookings the key's request made.
SELECT booking_ids FROM idempotency_keys
WHERE organization_id = @organization_id AND user_id = @user_id AND key = @key;

-- name: IdempotencyKeySetBookings :exec
-- Records on a key the bookings its request made, in the transaction that makes them.
UPDATE idempotency_keys SET booking_ids = @booking_ids
WHERE organization_id = @organization_id AND user_id = @user_id AND key = @key;

-- name: IdempotencyKeysDeleteExpired :execrows
DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours';
