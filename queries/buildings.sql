-- name: BuildingGet :one
SELECT * FROM buildings WHERE organization_id = @organization_id AND id = @id;

-- name: BuildingUpsert :exec
INSERT INTO buildings (organization_id, id, name, country, city, address, latitude, longitude, timezone, status, visible)
VALUES (@organization_id, @id, @name, @country, @city, @address, @latitude, @longitude, @timezone, @status, @visible)
ON CONFLICT (organization_id, id) DO UPDATE SET
    name = EXCLUDED.name, country = EXCLUDED.country, city = EXCLUDED.city, address = EXCLUDED.address,
    latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude, timezone = EXCLUDED.timezone,
    status = EXCLUDED.status, visible = EXCLUDED.visible;

-- name: BuildingsVisible :many
SELECT * FROM buildings WHERE organization_id = @organization_id AND visible ORDER BY name COLLATE natural_names, id;

-- name: BuildingsExport :many
-- Lists buildings by id for an export: those of the organization, or of any organization when it is
-- NULL; only the one with the id when it is given.
SELECT * FROM buildings
WHERE (sqlc.narg(organization_id)::uuid IS NULL OR organization_id = sqlc.narg(organization_id)::uuid)
  AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id)::uuid)
ORDER BY id, organization_id;

-- name: BuildingDelete :execrows
DELETE FROM buildings WHERE organization_id = @organization_id AND id = @id;
