-- name: FloorUpsert :exec
INSERT INTO floors (organization_id, id, building_id, name, floor_number, image, status, type, visible)
VALUES (@organization_id, @id, @building_id, @name, @floor_number, @image, @status, @type, @visible)
ON CONFLICT (organization_id, id) DO UPDATE SET
    building_id = EXCLUDED.building_id, name = EXCLUDED.name, floor_number = EXCLUDED.floor_number,
    image = EXCLUDED.image, status = EXCLUDED.status, type = EXCLUDED.type, visible = EXCLUDED.visible;

-- name: FloorsOfBuilding :many
SELECT * FROM floors
WHERE organization_id = @organization_id AND building_id = @building_id AND visible
ORDER BY floor_number, name COLLATE natural_names, id;

-- name: FloorGet :one
SELECT * FROM floors WHERE organization_id = @organization_id AND id = @id;

-- name: FloorsExport :many
-- Lists floors by id for an export: those of the organization, or of any organization when it is
-- NULL; only the one with the id when it is given.
SELECT * FROM floors
WHERE (sqlc.narg(organization_id)::uuid IS NULL OR organization_id = sqlc.narg(organization_id)::uuid)
  AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id)::uuid)
ORDER BY id, organization_id;

-- name: FloorDelete :execrows
DELETE FROM floors WHERE organization_id = @organization_id AND id = @id;

-- name: FloorGetForUpdate :one
SELECT * FROM floors WHERE organization_id = @organization_id AND id = @id FOR NO KEY UPDATE;

-- name: FloorSetImage :exec
UPDATE floors SET image = @image WHERE organization_id = @organization_id AND id = @id AND image <> @image;
