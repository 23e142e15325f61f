-- name: UserAccessTokenPut :exec
-- Keeps the user's token, replacing the one kept before, until expires_at (NULL: 12 hours from now), and
-- never longer than 30 days.
INSERT INTO user_access_tokens (organization_id, user_id, sealed, expires_at)
VALUES (@organization_id, @user_id, @sealed,
        LEAST(coalesce(sqlc.narg(expires_at)::timestamptz, now() + interval '12 hours'), now() + interval '30 days'))
ON CONFLICT (organization_id, user_id) DO UPDATE SET
    sealed = EXCLUDED.sealed, expires_at = EXCLUDED.expires_at, updated_at = now();

-- name: UserAccessTokenGet :one
-- The user's token, unless it has expired.
SELECT sealed FROM user_access_tokens
WHERE organization_id = @organization_id AND user_id = @user_id AND expires_at > now();

-- name: UserAccessTokensDeleteExpired :execrows
DELETE FROM user_access_tokens WHERE expires_at <= now();

-- name: TokenEncryptionKeyCreate :exec
-- Keeps key as the encryption key unless one exists already (another instance made it first).
INSERT INTO token_encryption_keys (id, key) VALUES (1, @key) ON CONFLICT (id) DO NOTHING;

-- name: TokenEncryptionKeyGet :one
SELECT key FROM token_encryption_keys WHERE id = 1;
