-- name: SigningKeysAll :many
-- Lists every key, newest first. The newest key signs; all of them verify.
SELECT * FROM signing_keys ORDER BY created_at DESC, id;

-- name: SigningKeyInsert :exec
INSERT INTO signing_keys (id, private_key) VALUES (@id, @private_key);

-- name: SigningKeysLock :exec
-- Takes a lock, held until commit, so that instances starting together create the first key one at a time.
SELECT pg_advisory_xact_lock(7305533871016011);

-- name: SigningKeyCount :one
SELECT count(*) FROM signing_keys;
