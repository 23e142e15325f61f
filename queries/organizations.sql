-- name: OrganizationGet :one
SELECT * FROM organizations WHERE id = @id;

-- name: OrganizationUpsert :exec
INSERT INTO organizations (id, name, additional_services_active)
VALUES (@id, @name, @additional_services_active)
ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, additional_services_active = EXCLUDED.additional_services_active;

-- name: OrganizationLayoutVersion :one
-- Returns the organization's layout version: the id of the last transaction that changed it (sql/0006).
SELECT layout_version FROM organizations WHERE id = @id;
