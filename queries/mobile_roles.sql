-- name: MobileRoleUpsert :exec
INSERT INTO mobile_roles (organization_id, id, name) VALUES (@organization_id, @id, @name)
ON CONFLICT (organization_id, id) DO UPDATE SET name = EXCLUDED.name;
