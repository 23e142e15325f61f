-- name: FeatureUpsert :exec
INSERT INTO features (organization_id, id, name, email) VALUES (@organization_id, @id, @name, @email)
ON CONFLICT (organization_id, id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email;

-- name: FeaturesList :many
SELECT * FROM features WHERE organization_id = @organization_id ORDER BY name COLLATE natural_names, id;

-- name: FeaturesOfCategory :many
-- Lists, by name, the features that at least one resource of a category in a building has. These are the
-- features a search for that kind of resource can ask for.
SELECT f.* FROM features f
WHERE f.organization_id = @organization_id AND EXISTS (
    SELECT 1 FROM resource_features rf
    JOIN resources r ON r.organization_id = rf.organization_id AND r.id = rf.resource_id
    JOIN subcategories s ON s.organization_id = r.organization_id AND s.id = r.subcategory_id
    JOIN floors fl ON fl.organization_id = r.organization_id AND fl.id = r.floor_id
    WHERE rf.organization_id = f.organization_id AND rf.feature_id = f.id
      AND s.category = @category AND fl.building_id = @building_id)
ORDER BY f.name COLLATE natural_names, f.id;

-- name: FeaturesExport :many
-- Lists features by id for an export: those of the organization, or of any organization when it is
-- NULL; only the one with the id when it is given.
SELECT * FROM features
WHERE (sqlc.narg(organization_id)::uuid IS NULL OR organization_id = sqlc.narg(organization_id)::uuid)
  AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id)::uuid)
ORDER BY id, organization_id;

-- name: FeatureDelete :execrows
DELETE FROM features WHERE organization_id = @organization_id AND id = @id;
