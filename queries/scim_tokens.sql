-- name: ScimTokensOfOrganization :many
-- Lists an organization's SCIM tokens, the ones in use first, newest first, with their creators' names.
SELECT t.id, t.name, t.created_at, t.revoked_at, t.last_used_at, u.name AS creator_name, u.surname AS creator_surname
FROM scim_tokens t
JOIN users u ON u.organization_id = t.organization_id AND u.id = t.created_by
WHERE t.organization_id = @organization_id
ORDER BY t.revoked_at IS NOT NULL, t.created_at DESC, t.id
LIMIT @max_rows;

-- name: ScimTokensInUseCount :one
SELECT count(*) FROM scim_tokens WHERE organization_id = @organization_id AND revoked_at IS NULL;

-- name: ScimTokenInsert :one
INSERT INTO scim_tokens (organization_id, id, name, secret_sha256, created_at, created_by)
VALUES (@organization_id, @id, @name, @secret_sha256, @created_at, @created_by)
RETURNING *;

-- name: ScimTokenRevoke :execrows
-- Revokes a token; revoking it again changes nothing and still counts the row.
UPDATE scim_tokens SET revoked_at = coalesce(revoked_at, @now::timestamptz)
WHERE organization_id = @organization_id AND id = @id;

-- name: ScimTokenFind :many
-- Finds the token in use with this secret's SHA-256: none or one.
SELECT organization_id, id, name, last_used_at FROM scim_tokens
WHERE secret_sha256 = @secret_sha256 AND revoked_at IS NULL;

-- name: ScimTokenTouch :exec
-- Notes that the token was used now, unless it was already noted since @noted_after: a busy client then
-- does not write on every request.
UPDATE scim_tokens SET last_used_at = @now
WHERE organization_id = @organization_id AND id = @id
  AND (last_used_at IS NULL OR last_used_at < @noted_after);
