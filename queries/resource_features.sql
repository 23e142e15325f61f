-- name: ResourceFeaturesDelete :exec
DELETE FROM resource_features WHERE organization_id = @organization_id AND resource_id = @resource_id;

-- name: ResourceFeaturesInsert :exec
INSERT INTO resource_features (organization_id, resource_id, feature_id)
SELECT @organization_id, @resource_id, unnest(@feature_ids::uuid[]);
