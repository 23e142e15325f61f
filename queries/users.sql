-- name: UserGet :one
SELECT * FROM users WHERE organization_id = @organization_id AND id = @id;

-- name: UserImportState :one
-- Reads what the layout import checks before it writes a person: the columns it names exist in every
-- schema version the migration tests import into.
SELECT email, role, oidc_subject, active FROM users WHERE organization_id = @organization_id AND id = @id;

-- name: UserFindByID :many
-- Lists the users with this id in any organization (ids are UUIDs, so at most one in practice).
SELECT * FROM users WHERE id = @id;

-- name: UserFindByOIDCSubject :many
-- Finds the account bound to the identity provider's subject: none or one (users_oidc_subject_key).
SELECT * FROM users WHERE oidc_subject = @oidc_subject;

-- name: UserFindByEmail :many
-- Finds the person of the organization with the e-mail address, in any case: none or one.
SELECT * FROM users WHERE organization_id = @organization_id AND lower(email) = lower(@email::text);

-- name: UsersGetByIDs :many
SELECT * FROM users WHERE organization_id = @organization_id AND id = ANY (@ids::uuid[]);

-- name: UserUpsert :exec
-- Loads a user from a layout document. An optional field given as NULL (left out of the document) keeps
-- its current value for an existing user, and gets its default for a new one. An oidc_subject of '' clears
-- the subject.
INSERT INTO users (organization_id, id, name, surname, alias, email, image, user_rule_id, mobile_role_id,
                   can_be_searched, type, user_language, role, oidc_subject)
VALUES (@organization_id, @id, @name, coalesce(sqlc.narg(surname)::text, ''), coalesce(sqlc.narg(alias)::text, ''),
        @email, coalesce(sqlc.narg(image)::text, ''), sqlc.narg(user_rule_id)::uuid, sqlc.narg(mobile_role_id)::uuid,
        coalesce(sqlc.narg(can_be_searched)::boolean, true), coalesce(sqlc.narg(type)::text, 'SERVICE_INTERNAL'),
        coalesce(sqlc.narg(user_language)::text, 'en'), coalesce(sqlc.narg(role)::text, 'EMPLOYEE'),
        nullif(sqlc.narg(oidc_subject)::text, ''))
ON CONFLICT (organization_id, id) DO UPDATE SET
    name = EXCLUDED.name, email = EXCLUDED.email,
    -- An admin who gives a person a new address vouches for it: it may bind the account at sign-in again.
    binds_by_email = users.binds_by_email OR lower(EXCLUDED.email) <> lower(users.email),
    surname = coalesce(sqlc.narg(surname)::text, users.surname),
    alias = coalesce(sqlc.narg(alias)::text, users.alias),
    image = coalesce(sqlc.narg(image)::text, users.image),
    user_rule_id = coalesce(sqlc.narg(user_rule_id)::uuid, users.user_rule_id),
    mobile_role_id = coalesce(sqlc.narg(mobile_role_id)::uuid, users.mobile_role_id),
    can_be_searched = coalesce(sqlc.narg(can_be_searched)::boolean, users.can_be_searched),
    type = coalesce(sqlc.narg(type)::text, users.type),
    user_language = coalesce(sqlc.narg(user_language)::text, users.user_language),
    role = coalesce(sqlc.narg(role)::text, users.role),
    -- NULL keeps the subject, '' clears it.
    oidc_subject = CASE WHEN sqlc.narg(oidc_subject)::text IS NULL THEN users.oidc_subject
                        ELSE nullif(sqlc.narg(oidc_subject)::text, '') END;

-- name: UsersSearch :many
-- Lists, by name, the searchable and active people of an organization whose name, surname, alias or
-- e-mail contains every word of the query. @patterns holds one '%word%' pattern per word, matched case-insensitively.
SELECT * FROM users
WHERE organization_id = @organization_id AND can_be_searched AND active
  AND (SELECT bool_and(concat_ws(' ', name, surname, alias, email) ILIKE p) FROM unnest(@patterns::text[]) AS p)
ORDER BY name COLLATE natural_names, surname COLLATE natural_names, id
LIMIT @max_rows;

-- name: UsersList :many
-- Lists every user, ordered by organization, role (receptionists, then admins, then employees: a newcomer
-- trying the service looks for the roles first) and name. Only the development sign-in page uses it.
SELECT * FROM users
ORDER BY organization_id, CASE role WHEN 'RECEPTIONIST' THEN 0 WHEN 'ADMIN' THEN 1 ELSE 2 END, name COLLATE natural_names, surname COLLATE natural_names
LIMIT @max_rows;

-- name: UserBindOIDCSubject :execrows
-- Binds the user to the identity provider's subject, but only if the user is not yet bound to one and
-- may still be bound by e-mail.
UPDATE users SET oidc_subject = @oidc_subject
WHERE organization_id = @organization_id AND id = @id AND oidc_subject IS NULL AND binds_by_email;

-- name: UserRevokeTokens :one
-- Revokes the user's service tokens issued before @before, unless tokens up to a later moment are already
-- revoked: a revocation never moves back. Returns the moment now in force.
UPDATE users SET tokens_valid_after = GREATEST(tokens_valid_after, @before::timestamptz)
WHERE organization_id = @organization_id AND id = @id
RETURNING tokens_valid_after::timestamptz;

-- name: UsersExport :many
-- Lists users by id for an export: those of the organization, or of any organization when it is
-- NULL; only the one with the id when it is given.
SELECT * FROM users
WHERE (sqlc.narg(organization_id)::uuid IS NULL OR organization_id = sqlc.narg(organization_id)::uuid)
  AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id)::uuid)
ORDER BY id, organization_id;

-- name: UserDelete :execrows
DELETE FROM users WHERE organization_id = @organization_id AND id = @id;

-- name: UserGetForUpdate :one
-- Reads the user and locks the row until the transaction ends, so that two changes of one person's
-- account run one after the other.
SELECT * FROM users WHERE organization_id = @organization_id AND id = @id FOR NO KEY UPDATE;

-- name: UserSetActive :one
-- Activates or deactivates the user. A deactivation keeps the moment of the first one. Activating a person
-- a SCIM client deleted brings them back to SCIM too.
UPDATE users
SET active = @active,
    deactivated_at = CASE WHEN @active::boolean THEN NULL ELSE coalesce(deactivated_at, @now::timestamptz) END,
    scim_deleted_at = CASE WHEN @active::boolean THEN NULL ELSE scim_deleted_at END
WHERE organization_id = @organization_id AND id = @id
RETURNING *;

-- name: UserSetRole :exec
UPDATE users SET role = @role WHERE organization_id = @organization_id AND id = @id;

-- name: UserCreate :one
-- Creates a person, at their first sign-in or from a SCIM client, with the organization's default user
-- rule, mobile role and language. A person of the organization who already has the e-mail address (in
-- any case) makes it insert nothing.
INSERT INTO users (organization_id, id, name, surname, alias, email, role, oidc_subject, external_id, active,
                   deactivated_at, user_rule_id, mobile_role_id, scim_user_name, user_language)
SELECT o.id, @id, @name, @surname, @alias, @email, @role, sqlc.narg(oidc_subject)::text,
       sqlc.narg(external_id)::text, true, NULL, o.default_user_rule_id, o.default_mobile_role_id,
       sqlc.narg(scim_user_name)::text, o.default_language
FROM organizations o
WHERE o.id = @organization_id
  AND NOT EXISTS (SELECT FROM users WHERE organization_id = @organization_id AND lower(email) = lower(@email))
RETURNING *;

-- name: UserReplaceProvisioned :one
-- Replaces what a SCIM client manages of a person: userName, names, e-mail address and external id, and
-- brings back a person the client had deleted. A person whose address changes is bound only by the
-- identity provider's subject from then on.
UPDATE users
SET name = @name, surname = @surname, alias = @alias, email = @email, external_id = sqlc.narg(external_id)::text,
    scim_user_name = sqlc.narg(scim_user_name)::text, scim_deleted_at = NULL,
    binds_by_email = binds_by_email AND lower(email) = lower(@email)
WHERE organization_id = @organization_id AND id = @id
RETURNING *;

-- name: UserSCIMDelete :exec
-- Marks a deactivated person as deleted by the SCIM client: SCIM no longer finds them.
UPDATE users SET scim_deleted_at = @now
WHERE organization_id = @organization_id AND id = @id AND NOT active AND scim_deleted_at IS NULL;

-- name: UserSCIMDeletedByEmail :one
-- Finds the person with the e-mail address (in any case) whom the SCIM client deleted, and locks them.
SELECT * FROM users
WHERE organization_id = @organization_id AND lower(email) = lower(@email) AND scim_deleted_at IS NOT NULL
FOR NO KEY UPDATE;

-- name: SCIMUsers :many
-- Lists a page of the people a SCIM client sees (all but those it deleted) by e-mail address, narrowed by
-- the filters given: the userName (the one sent, or else the address), the e-mail address, both in any
-- case, the external id and whether they are active.
SELECT * FROM users
WHERE organization_id = @organization_id AND scim_deleted_at IS NULL
  AND (sqlc.narg(user_name)::text IS NULL OR lower(coalesce(scim_user_name, email)) = lower(sqlc.narg(user_name)::text))
  AND (sqlc.narg(email)::text IS NULL OR lower(email) = lower(sqlc.narg(email)::text))
  AND (sqlc.narg(external_id)::text IS NULL OR external_id = sqlc.narg(external_id)::text)
  AND (sqlc.narg(active)::boolean IS NULL OR active = sqlc.narg(active)::boolean)
ORDER BY lower(email), id
LIMIT @max_rows OFFSET @skip;

-- name: SCIMUsersCount :one
-- Counts the people SCIMUsers lists, over every page.
SELECT count(*) FROM users
WHERE organization_id = @organization_id AND scim_deleted_at IS NULL
  AND (sqlc.narg(user_name)::text IS NULL OR lower(coalesce(scim_user_name, email)) = lower(sqlc.narg(user_name)::text))
  AND (sqlc.narg(email)::text IS NULL OR lower(email) = lower(sqlc.narg(email)::text))
  AND (sqlc.narg(external_id)::text IS NULL OR external_id = sqlc.narg(external_id)::text)
  AND (sqlc.narg(active)::boolean IS NULL OR active = sqlc.narg(active)::boolean);

-- name: SCIMUserIDs :many
-- Returns which of the ids are people the SCIM client sees in the organization.
SELECT id FROM users WHERE organization_id = @organization_id AND id = ANY(@ids::uuid[]) AND scim_deleted_at IS NULL;

-- name: UsersOfOrganization :many
-- Lists a page of an organization's people by e-mail address, optionally only the one with the given
-- e-mail address (in any case) or external id.
SELECT * FROM users
WHERE organization_id = @organization_id
  AND (sqlc.narg(email)::text IS NULL OR lower(email) = lower(sqlc.narg(email)::text))
  AND (sqlc.narg(external_id)::text IS NULL OR external_id = sqlc.narg(external_id)::text)
ORDER BY lower(email), id
LIMIT @max_rows OFFSET @skip;

-- name: UsersOfOrganizationCount :one
-- Counts the people UsersOfOrganization lists, over every page.
SELECT count(*) FROM users
WHERE organization_id = @organization_id
  AND (sqlc.narg(email)::text IS NULL OR lower(email) = lower(sqlc.narg(email)::text))
  AND (sqlc.narg(external_id)::text IS NULL OR external_id = sqlc.narg(external_id)::text);

-- name: UsersAdmins :many
-- Lists up to @max_rows active admins of an organization, by name: whom a refused person may ask.
SELECT * FROM users
WHERE organization_id = @organization_id AND role = 'ADMIN' AND active
ORDER BY name COLLATE natural_names, surname COLLATE natural_names, id
LIMIT @max_rows;

-- name: UsersActiveAdminCount :one
-- Counts the active admins of an organization.
SELECT count(*) FROM users WHERE organization_id = @organization_id AND role = 'ADMIN' AND active;

-- name: UserSetLanguage :execrows
-- Sets the language a person chose on the pages.
UPDATE users SET user_language = @user_language
WHERE organization_id = @organization_id AND id = @id AND active;
