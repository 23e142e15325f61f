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

-- name: AuditObjectNames :many
-- Names the organization's objects that hold any of the ids, in every collection the audit log keeps:
-- each one's collection, its name (empty when it has none: a rule may not) and the time zone of the building
-- it is in (empty for an object in no building). Another organization's objects are left out.
SELECT b.id, CAST('buildings' AS text) AS collection, b.name, b.timezone
FROM buildings b WHERE b.organization_id = @organization_id AND b.id = ANY(@ids::uuid[])
UNION ALL
SELECT f.id, 'floors', f.name, b.timezone
FROM floors f JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
WHERE f.organization_id = @organization_id AND f.id = ANY(@ids::uuid[])
UNION ALL
SELECT r.id, 'resources', r.name, b.timezone
FROM resources r
JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
WHERE r.organization_id = @organization_id AND r.id = ANY(@ids::uuid[])
UNION ALL
SELECT c.id, 'closures', c.reason, b.timezone
FROM closures c
LEFT JOIN resources r ON r.organization_id = c.organization_id AND r.id = c.resource_id
LEFT JOIN floors f ON f.organization_id = c.organization_id AND f.id = COALESCE(c.floor_id, r.floor_id)
JOIN buildings b ON b.organization_id = c.organization_id AND b.id = COALESCE(c.building_id, f.building_id)
WHERE c.organization_id = @organization_id AND c.id = ANY(@ids::uuid[])
UNION ALL
SELECT t.id, 'subcategories', t.name, ''
FROM subcategories t WHERE t.organization_id = @organization_id AND t.id = ANY(@ids::uuid[])
UNION ALL
SELECT t.id, 'resourceRules', t.name, ''
FROM resource_rules t WHERE t.organization_id = @organization_id AND t.id = ANY(@ids::uuid[])
UNION ALL
SELECT t.id, 'features', t.name, ''
FROM features t WHERE t.organization_id = @organization_id AND t.id = ANY(@ids::uuid[])
UNION ALL
SELECT t.id, 'reservables', t.name, ''
FROM reservables t WHERE t.organization_id = @organization_id AND t.id = ANY(@ids::uuid[])
UNION ALL
SELECT t.id, 'users', btrim(t.name || ' ' || t.surname), ''
FROM users t WHERE t.organization_id = @organization_id AND t.id = ANY(@ids::uuid[])
UNION ALL
SELECT t.id, 'userRules', t.name, ''
FROM user_rules t WHERE t.organization_id = @organization_id AND t.id = ANY(@ids::uuid[])
UNION ALL
SELECT t.id, 'mobileRoles', t.name, ''
FROM mobile_roles t WHERE t.organization_id = @organization_id AND t.id = ANY(@ids::uuid[])
UNION ALL
SELECT t.id, 'scimTokens', t.name, ''
FROM scim_tokens t WHERE t.organization_id = @organization_id AND t.id = ANY(@ids::uuid[])
UNION ALL
SELECT t.id, 'scimGroups', t.display_name, ''
FROM scim_groups t WHERE t.organization_id = @organization_id AND t.id = ANY(@ids::uuid[])
UNION ALL
SELECT t.id, 'teams', t.name, ''
FROM teams t WHERE t.organization_id = @organization_id AND t.id = ANY(@ids::uuid[])
UNION ALL
SELECT n.id, 'neighbourhoods', n.name, b.timezone
FROM neighbourhoods n
JOIN floors f ON f.organization_id = n.organization_id AND f.id = n.floor_id
JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
WHERE n.organization_id = @organization_id AND n.id = ANY(@ids::uuid[])
UNION ALL
SELECT o.id, 'organizations', o.name, ''
FROM organizations o WHERE o.id = @organization_id AND o.id = ANY(@ids::uuid[]);

-- name: AuditRuleUsers :many
-- Lists, for each of the organization's rules among the ids, the names of up to two resources that use it,
-- in name order, and how many use it: what names a rule that has no name of its own.
SELECT rr.id, COALESCE(u.names, '{}')::text[] AS names, COALESCE(u.total, 0)::bigint AS total
FROM resource_rules rr
CROSS JOIN LATERAL (
    SELECT (array_agg(r.name ORDER BY r.name COLLATE natural_names, r.id))[1:2] AS names, count(*) AS total
    FROM resources r WHERE r.organization_id = rr.organization_id AND r.resource_rule_id = rr.id
) u
WHERE rr.organization_id = @organization_id AND rr.id = ANY(@ids::uuid[]);

-- name: AuditLastDocuments :many
-- Returns, for each of the ids, the newest document of it in the organization's audit log that has a name
-- or a reason (the after of a change, or the before of a deletion), with its collection: how an object
-- deleted since is named.
SELECT DISTINCT ON (object_id) object_id, collection,
       (CASE WHEN jsonb_exists_any(after, ARRAY['name', 'reason']) THEN after ELSE before END)::jsonb AS doc
FROM admin_audit
WHERE organization_id = @organization_id AND object_id = ANY(@ids::uuid[])
  AND (jsonb_exists_any(after, ARRAY['name', 'reason']) OR jsonb_exists_any(before, ARRAY['name', 'reason']))
ORDER BY object_id, id DESC;
