-- name: FloorPlanPut :exec
INSERT INTO floor_plans (organization_id, floor_id, hash, content_type, data, uploaded_at, uploaded_by, width, height)
VALUES (@organization_id, @floor_id, @hash, @content_type, @data, @uploaded_at, @uploaded_by, @width, @height)
ON CONFLICT (organization_id, floor_id) DO UPDATE SET
    hash = EXCLUDED.hash, content_type = EXCLUDED.content_type, data = EXCLUDED.data,
    uploaded_at = EXCLUDED.uploaded_at, uploaded_by = EXCLUDED.uploaded_by,
    width = EXCLUDED.width, height = EXCLUDED.height;

-- name: FloorPlanGet :one
SELECT * FROM floor_plans WHERE organization_id = @organization_id AND floor_id = @floor_id AND hash = @hash;

-- name: FloorPlanSize :one
-- Reads the size of a floor's plan without its bytes; NULLs for a plan stored before sizes were kept.
SELECT width, height FROM floor_plans
WHERE organization_id = @organization_id AND floor_id = @floor_id AND hash = @hash;

-- name: FloorPlanSetSize :exec
-- Keeps the size of a plan stored before sizes were kept, once it is measured.
UPDATE floor_plans SET width = @width, height = @height
WHERE organization_id = @organization_id AND floor_id = @floor_id AND hash = @hash AND width IS NULL;
