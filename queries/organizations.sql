-- name: OrganizationGet :one
SELECT * FROM organizations WHERE id = @id;

-- name: OrganizationUpsert :exec
INSERT INTO organizations (id, name, additional_services_active)
VALUES (@id, @name, @additional_services_active)
ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, additional_services_active = EXCLUDED.additional_services_active;

-- name: OrganizationLayoutVersion :one
-- Returns the organization's layout version: the id of the last transaction that changed it (sql/0006).
SELECT layout_version FROM organizations WHERE id = @id;

-- name: OrganizationAdminLock :exec
-- Takes the lock that puts the organization's admin changes one after the other, until the transaction ends.
SELECT pg_advisory_xact_lock(hashtextextended('admin changes ' || CAST(sqlc.arg(id)::uuid AS text), 0));

-- name: ObjectIDLock :exec
-- Takes the lock of an object id, whatever its organization, so that two organizations racing to create
-- an object with one id do so one after the other.
SELECT pg_advisory_xact_lock(hashtextextended('object ' || CAST(sqlc.arg(id)::uuid AS text), 0));

-- name: OrganizationSignInSet :exec
-- Sets the role, user rule, mobile role and language of people created at their first sign-in or by a
-- SCIM client, the claim that lists their groups, and who sees a person's bookings by default.
UPDATE organizations
SET default_role = @default_role, groups_claim = @groups_claim, default_language = @default_language,
    bookings_visible_to = @bookings_visible_to,
    default_user_rule_id = sqlc.narg(default_user_rule_id)::uuid,
    default_mobile_role_id = sqlc.narg(default_mobile_role_id)::uuid,
    scim_any_domain = @scim_any_domain
WHERE id = @id;

-- name: OrganizationNoteClaims :exec
-- Keeps the names of the claims of the organization's latest sign-in; writes nothing when they are the
-- same as before.
UPDATE organizations SET last_sign_in_claims = @names::text[]
WHERE id = @id AND last_sign_in_claims IS DISTINCT FROM @names::text[];

-- name: OrganizationSetAdditionalServices :one
-- Turns the organization's additional-services module on or off, and returns the organization as it was
-- before, locked until the transaction ends.
UPDATE organizations o SET additional_services_active = @active
FROM (SELECT p.id, p.name, p.additional_services_active FROM organizations p WHERE p.id = @id FOR UPDATE) old
WHERE o.id = old.id
RETURNING old.name, old.additional_services_active;

-- name: OrganizationLayoutTouch :exec
-- Marks the organization's layout as changed by this transaction, as the triggers of 0006 do for the
-- tables they watch: for changes of neighbourhoods, which bookings are checked against too.
UPDATE organizations SET layout_version = txid_current() WHERE id = @id AND layout_version <> txid_current();
