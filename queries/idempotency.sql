-- name: IdempotencyKeyClaim :one
-- Claims a key for a request. The claim succeeds for a new key, for a key older than 24 hours (reused as
-- new), or for a key whose first request was abandoned. A request is abandoned if it has no response after
-- abandoned_secs seconds, longer than any request may run, so its instance must have stopped. Only the same
-- request may take over an abandoned key, and it keeps the bookings recorded on it. The database's clock
-- measures the ages, as it also sets created_at. Returns no row if the key is taken, by a request still
-- running or by a stored response.
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
-- Deletes a key whose request failed in the service without changing anything, so that a retry runs
-- again. A key with bookings recorded on it is kept, so that a retry returns those bookings.
DELETE FROM idempotency_keys
WHERE organization_id = @organization_id AND user_id = @user_id AND key = @key AND status IS NULL
  AND booking_ids = '{}';

-- name: IdempotencyKeyBookings :one
-- Returns the ids of the bookings recorded on the key.
SELECT booking_ids FROM idempotency_keys
WHERE organization_id = @organization_id AND user_id = @user_id AND key = @key;

-- name: IdempotencyKeySetBookings :exec
-- Records on a key the bookings its request made, in the same transaction that creates them.
UPDATE idempotency_keys SET booking_ids = @booking_ids
WHERE organization_id = @organization_id AND user_id = @user_id AND key = @key;

-- name: IdempotencyKeysDeleteExpired :execrows
DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours';
