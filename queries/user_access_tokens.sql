-- name: UserAccessTokenPut :exec
-- Stores the user's token, replacing any stored before. It expires at expires_at (12 hours from now if
-- NULL), and never later than 30 days from now.
INSERT INTO user_access_tokens (organization_id, user_id, sealed, expires_at)
VALUES (@organization_id, @user_id, @sealed,
        LEAST(coalesce(sqlc.narg(expires_at)::timestamptz, now() + interval '12 hours'), now() + interval '30 days'))
ON CONFLICT (organization_id, user_id) DO UPDATE SET
    sealed = EXCLUDED.sealed, expires_at = EXCLUDED.expires_at, updated_at = now();

-- name: UserAccessTokenGet :one
-- Returns the user's token, unless it has expired.
SELECT sealed FROM user_access_tokens
WHERE organization_id = @organization_id AND user_id = @user_id AND expires_at > now();

-- name: UserAccessTokensDeleteExpired :execrows
DELETE FROM user_access_tokens WHERE expires_at <= now();

-- name: TokenEncryptionKeyCreate :exec
-- Stores key as the encryption key, unless another instance already stored one.
INSERT INTO token_encryption_keys (id, key) VALUES (1, @key) ON CONFLICT (id) DO NOTHING;

-- name: TokenEncryptionKeyGet :one
SELECT key FROM token_encryption_keys WHERE id = 1;
