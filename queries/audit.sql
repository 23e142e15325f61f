-- name: AuditInsert :one
-- Appends one entry to the organization's audit log and returns its id.
INSERT INTO admin_audit (organization_id, actor_id, actor_name, collection, object_id, action, before, after)
VALUES (@organization_id, sqlc.narg(actor_id)::uuid, @actor_name, @collection, @object_id, @action,
        sqlc.narg(before)::jsonb, sqlc.narg(after)::jsonb)
RETURNING id;

-- name: AuditList :many
-- Lists the organization's audit entries, newest first. Every filter given as NULL matches everything;
-- before_id is the keyset cursor: only entries older than it (smaller ids) are listed.
SELECT * FROM admin_audit
WHERE organization_id = @organization_id
  AND (sqlc.narg(collection)::text IS NULL OR collection = sqlc.narg(collection)::text)
  AND (sqlc.narg(object_id)::uuid IS NULL OR object_id = sqlc.narg(object_id)::uuid)
  AND (sqlc.narg(actor_id)::uuid IS NULL OR actor_id = sqlc.narg(actor_id)::uuid)
  AND (sqlc.narg(from_at)::timestamptz IS NULL OR at >= sqlc.narg(from_at)::timestamptz)
  AND (sqlc.narg(to_at)::timestamptz IS NULL OR at < sqlc.narg(to_at)::timestamptz)
  AND (sqlc.narg(before_id)::bigint IS NULL OR id < sqlc.narg(before_id)::bigint)
ORDER BY id DESC
LIMIT @max_rows;
