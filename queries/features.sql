-- name: FeatureUpsert :exec
INSERT INTO features (organization_id, id, name, email) VALUES (@organization_id, @id, @name, @email)
ON CONFLICT (organization_id, id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email;

-- name: FeaturesList :many
SELECT * FROM features WHERE organization_id = @organization_id ORDER BY name, id;
