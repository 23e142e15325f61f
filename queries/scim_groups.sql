-- name: SCIMGroupCreate :one
-- Creates a group. Another group of the organization with the name (in any case) makes it fail (23505).
INSERT INTO scim_groups (organization_id, id, display_name, external_id)
VALUES (@organization_id, @id, @display_name, sqlc.narg(external_id)::text)
RETURNING *;

-- name: SCIMGroupGet :one
SELECT * FROM scim_groups WHERE organization_id = @organization_id AND id = @id;

-- name: SCIMGroupGetForUpdate :one
-- Reads the group and locks it until the transaction ends, so that two changes of it run one after the other.
SELECT * FROM scim_groups WHERE organization_id = @organization_id AND id = @id FOR UPDATE;

-- name: SCIMGroups :many
-- Lists a page of the organization's groups by name, optionally only the one with the name (in any
-- case) or the external id.
SELECT * FROM scim_groups
WHERE organization_id = @organization_id
  AND (sqlc.narg(display_name)::text IS NULL OR lower(display_name) = lower(sqlc.narg(display_name)::text))
  AND (sqlc.narg(external_id)::text IS NULL OR external_id = sqlc.narg(external_id)::text)
ORDER BY lower(display_name), id
LIMIT @max_rows OFFSET @skip;

-- name: SCIMGroupsCount :one
-- Counts the groups SCIMGroups lists, over every page.
SELECT count(*) FROM scim_groups
WHERE organization_id = @organization_id
  AND (sqlc.narg(display_name)::text IS NULL OR lower(display_name) = lower(sqlc.narg(display_name)::text))
  AND (sqlc.narg(external_id)::text IS NULL OR external_id = sqlc.narg(external_id)::text);

-- name: SCIMGroupReplace :exec
-- Renames a group and sets its external id; it is marked as changed even when they stay.
UPDATE scim_groups SET display_name = @display_name, external_id = sqlc.narg(external_id)::text, updated_at = now()
WHERE organization_id = @organization_id AND id = @id;

-- name: SCIMGroupDelete :exec
DELETE FROM scim_groups WHERE organization_id = @organization_id AND id = @id;

-- name: SCIMGroupMembers :many
-- Lists the members of the groups, by group and person id.
SELECT m.group_id, u.id, u.name, u.surname
FROM scim_group_members m JOIN users u ON u.organization_id = m.organization_id AND u.id = m.user_id
WHERE m.organization_id = @organization_id AND m.group_id = ANY(@group_ids::uuid[])
ORDER BY m.group_id, u.id;

-- name: SCIMGroupMemberAdd :exec
INSERT INTO scim_group_members (organization_id, group_id, user_id) VALUES (@organization_id, @group_id, @user_id)
ON CONFLICT DO NOTHING;

-- name: SCIMGroupMemberRemove :exec
DELETE FROM scim_group_members WHERE organization_id = @organization_id AND group_id = @group_id AND user_id = @user_id;

-- name: SCIMGroupMembersClear :exec
DELETE FROM scim_group_members WHERE organization_id = @organization_id AND group_id = @group_id;

-- name: SCIMMembershipsDelete :exec
-- Takes a person out of every group.
DELETE FROM scim_group_members WHERE organization_id = @organization_id AND user_id = @user_id;

-- name: SCIMGroupNamesOfUsers :many
-- Lists the names of the groups each of the people is a member of.
SELECT m.user_id, g.display_name
FROM scim_group_members m JOIN scim_groups g ON g.organization_id = m.organization_id AND g.id = m.group_id
WHERE m.organization_id = @organization_id AND m.user_id = ANY(@user_ids::uuid[])
ORDER BY m.user_id, g.display_name;

-- name: SCIMGroupMembersNamed :many
-- Lists the members of the organization's groups whose names, in lower case, are among @names, with
-- each group's name.
SELECT m.user_id, g.display_name
FROM scim_group_members m JOIN scim_groups g ON g.organization_id = m.organization_id AND g.id = m.group_id
WHERE m.organization_id = @organization_id AND lower(g.display_name) = ANY(@names::text[])
ORDER BY m.user_id, g.display_name;
