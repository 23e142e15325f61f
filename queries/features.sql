-- name: FeatureUpsert :exec
INSERT INTO features (organization_id, id, name, email) VALUES (@organization_id, @id, @name, @email)
ON CONFLICT (organization_id, id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email;

-- name: FeaturesByResources :many
SELECT rf.resource_id, sqlc.embed(f)
FROM resource_features rf
JOIN features f ON f.organization_id = rf.organization_id AND f.id = rf.feature_id
WHERE rf.organization_id = @organization_id AND rf.resource_id = ANY (@resource_ids::uuid[])
ORDER BY rf.resource_id, f.name, f.id;

-- name: FeaturesList :many
SELECT * FROM features WHERE organization_id = @organization_id ORDER BY name, id;
