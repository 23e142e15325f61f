-- name: FloorUpsert :exec
INSERT INTO floors (organization_id, id, building_id, name, floor_number, image, status, type, visible)
VALUES (@organization_id, @id, @building_id, @name, @floor_number, @image, @status, @type, @visible)
ON CONFLICT (organization_id, id) DO UPDATE SET
    building_id = EXCLUDED.building_id, name = EXCLUDED.name, floor_number = EXCLUDED.floor_number,
    image = EXCLUDED.image, status = EXCLUDED.status, type = EXCLUDED.type, visible = EXCLUDED.visible;
