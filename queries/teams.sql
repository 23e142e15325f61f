-- name: TeamsOfOrganization :many
-- Lists the organization's teams by name, each with its member count, the name of its SCIM group (empty
-- when none) and how many neighbourhoods are given to it.
SELECT t.id, t.name, t.idp_group, t.scim_group_id, COALESCE(g.display_name, '')::text AS scim_group_name,
    (SELECT count(*) FROM team_members m WHERE m.organization_id = t.organization_id AND m.team_id = t.id)::bigint AS members,
    (SELECT count(*) FROM neighbourhoods n WHERE n.organization_id = t.organization_id AND n.team_id = t.id)::bigint AS neighbourhoods,
    t.updated_at
FROM teams t
LEFT JOIN scim_groups g ON g.organization_id = t.organization_id AND g.id = t.scim_group_id
WHERE t.organization_id = @organization_id
ORDER BY lower(t.name), t.id;

-- name: TeamCount :one
SELECT count(*) FROM teams WHERE organization_id = @organization_id;

-- name: TeamGetForUpdate :one
-- Reads a team and locks it until the transaction ends.
SELECT * FROM teams WHERE organization_id = @organization_id AND id = @id FOR UPDATE;

-- name: TeamCreate :exec
-- Creates a team. Another team of the organization with the name (in any case), the group claim value or
-- the SCIM group makes it fail (23505).
INSERT INTO teams (organization_id, id, name, idp_group, scim_group_id)
VALUES (@organization_id, @id, @name, sqlc.narg(idp_group)::text, sqlc.narg(scim_group_id)::uuid);

-- name: TeamUpdate :exec
UPDATE teams SET name = @name, idp_group = sqlc.narg(idp_group)::text, scim_group_id = sqlc.narg(scim_group_id)::uuid
WHERE organization_id = @organization_id AND id = @id;

-- name: TeamDelete :exec
DELETE FROM teams WHERE organization_id = @organization_id AND id = @id;

-- name: TeamMembersOf :many
-- Lists the members of a team by name.
SELECT u.* FROM team_members m JOIN users u ON u.organization_id = m.organization_id AND u.id = m.user_id
WHERE m.organization_id = @organization_id AND m.team_id = @team_id
ORDER BY lower(u.name), lower(u.surname), u.id;

-- name: TeamMemberCount :one
SELECT count(*) FROM team_members WHERE organization_id = @organization_id AND team_id = @team_id;

-- name: TeamMembersAdd :many
-- Adds the people to a team; it returns those who were not members yet. Ids of nobody in the
-- organization are left out.
INSERT INTO team_members (organization_id, team_id, user_id)
SELECT @organization_id, @team_id, u.id FROM users u
WHERE u.organization_id = @organization_id AND u.id = ANY(@user_ids::uuid[])
ON CONFLICT DO NOTHING
RETURNING user_id;

-- name: TeamMemberRemove :execrows
DELETE FROM team_members WHERE organization_id = @organization_id AND team_id = @team_id AND user_id = @user_id;

-- name: TeamMembersClear :exec
DELETE FROM team_members WHERE organization_id = @organization_id AND team_id = @team_id;

-- name: TeamsFollowSCIMGroup :exec
-- Makes the members of the team tied to a SCIM group those of the group.
WITH t AS (
    SELECT id FROM teams WHERE organization_id = @organization_id AND scim_group_id = @group_id
), gone AS (
    DELETE FROM team_members m USING t
    WHERE m.organization_id = @organization_id AND m.team_id = t.id
      AND NOT EXISTS (SELECT 1 FROM scim_group_members g
                      WHERE g.organization_id = m.organization_id AND g.group_id = @group_id AND g.user_id = m.user_id)
)
INSERT INTO team_members (organization_id, team_id, user_id)
SELECT @organization_id, t.id, g.user_id FROM t, scim_group_members g
WHERE g.organization_id = @organization_id AND g.group_id = @group_id
ON CONFLICT DO NOTHING;

-- name: TeamsLeaveSCIMTeams :exec
-- Takes a person out of every team tied to a SCIM group.
DELETE FROM team_members m USING teams t
WHERE m.organization_id = @organization_id AND m.user_id = @user_id
  AND t.organization_id = m.organization_id AND t.id = m.team_id AND t.scim_group_id IS NOT NULL;

-- name: TeamsOfIDPGroups :many
-- Lists the organization's teams tied to a value of the groups claim, with whether the person is a
-- member of each.
SELECT t.id, t.idp_group::text AS idp_group,
    EXISTS (SELECT 1 FROM team_members m WHERE m.organization_id = t.organization_id AND m.team_id = t.id AND m.user_id = @user_id) AS member
FROM teams t WHERE t.organization_id = @organization_id AND t.idp_group IS NOT NULL
ORDER BY t.id;

-- name: TeamMemberAdd :exec
INSERT INTO team_members (organization_id, team_id, user_id) VALUES (@organization_id, @team_id, @user_id)
ON CONFLICT DO NOTHING;

-- name: TeamsNamesOfUser :many
-- Lists the names of the teams a person is a member of, by name.
SELECT t.name FROM team_members m JOIN teams t ON t.organization_id = m.organization_id AND t.id = m.team_id
WHERE m.organization_id = @organization_id AND m.user_id = @user_id
ORDER BY lower(t.name);
