-- name: FloorPlanPut :exec
INSERT INTO floor_plans (organization_id, floor_id, hash, content_type, data, uploaded_at, uploaded_by)
VALUES (@organization_id, @floor_id, @hash, @content_type, @data, @uploaded_at, @uploaded_by)
ON CONFLICT (organization_id, floor_id) DO UPDATE SET
    hash = EXCLUDED.hash, content_type = EXCLUDED.content_type, data = EXCLUDED.data,
    uploaded_at = EXCLUDED.uploaded_at, uploaded_by = EXCLUDED.uploaded_by;

-- name: FloorPlanGet :one
SELECT * FROM floor_plans WHERE organization_id = @organization_id AND floor_id = @floor_id AND hash = @hash;
