-- name: SigningKeysAll :many
-- Every key, newest first: the first one signs, all of them verify.
SELECT * FROM signing_keys ORDER BY created_at DESC, id;

-- name: SigningKeyInsert :exec
INSERT INTO signing_keys (id, private_key) VALUES (@id, @private_key);

-- name: SigningKeysLock :exec
-- Serializes the creation of the first key across instances starting together (until commit).
SELECT pg_advisory_xact_lock(7305533871016011);

-- name: SigningKeyCount :one
SELECT count(*) FROM signing_keys;
