-- Object ids are global: bearer tokens find users by id in every organization, so no object is created
-- with an id any other object holds, of any collection or organization (web/layout checks).

-- name: ObjectIDHolders :many
-- Lists the objects that hold any of the ids, in every table and organization: the id, the collection
-- (the layout document's name of the table) and the organization. Each table is read through its
-- primary key, one organization at a time.
SELECT o.id, CAST('organizations' AS text) AS collection, o.id AS organization_id
FROM organizations o WHERE o.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'userRules', t.organization_id
FROM organizations o JOIN user_rules t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'mobileRoles', t.organization_id
FROM organizations o JOIN mobile_roles t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'users', t.organization_id
FROM organizations o JOIN users t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'buildings', t.organization_id
FROM organizations o JOIN buildings t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'floors', t.organization_id
FROM organizations o JOIN floors t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'subcategories', t.organization_id
FROM organizations o JOIN subcategories t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'resourceRules', t.organization_id
FROM organizations o JOIN resource_rules t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'features', t.organization_id
FROM organizations o JOIN features t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'reservables', t.organization_id
FROM organizations o JOIN reservables t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'resources', t.organization_id
FROM organizations o JOIN resources t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'bookings', t.organization_id
FROM organizations o JOIN bookings t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'closures', t.organization_id
FROM organizations o JOIN closures t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[])
UNION ALL
SELECT t.id, 'scimTokens', t.organization_id
FROM organizations o JOIN scim_tokens t ON t.organization_id = o.id AND t.id = ANY(sqlc.arg(ids)::uuid[]);

-- name: ObjectIDsLock :exec
-- Takes the lock that puts every creation of objects with chosen ids (imports, admin changes) one after
-- the other, until the transaction ends, so that the check of ObjectIDHolders stays true until commit.
SELECT pg_advisory_xact_lock(hashtextextended('object ids', 0));
