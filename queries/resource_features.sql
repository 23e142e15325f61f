-- name: ResourceFeaturesDelete :exec
DELETE FROM resource_features WHERE organization_id = @organization_id AND resource_id = @resource_id;

-- name: ResourceFeaturesInsert :exec
INSERT INTO resource_features (organization_id, resource_id, feature_id)
SELECT @organization_id, @resource_id, unnest(@feature_ids::uuid[]);

-- name: ResourceFeaturesExport :many
-- Lists the features of the organization's resources (only the resource's when it is given), in order.
SELECT * FROM resource_features
WHERE organization_id = @organization_id AND (sqlc.narg(resource_id)::uuid IS NULL OR resource_id = sqlc.narg(resource_id)::uuid)
ORDER BY resource_id, feature_id;

-- name: ResourceFeaturesCountOfFeature :one
SELECT count(*) FROM resource_features WHERE organization_id = @organization_id AND feature_id = @feature_id;
