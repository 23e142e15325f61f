-- name: GroupRolesOfOrganization :many
SELECT group_name, role FROM organization_group_roles WHERE organization_id = @organization_id ORDER BY group_name;

-- name: GroupRolesDelete :exec
DELETE FROM organization_group_roles WHERE organization_id = @organization_id;

-- name: GroupRoleInsert :exec
INSERT INTO organization_group_roles (organization_id, group_name, role) VALUES (@organization_id, @group_name, @role);
