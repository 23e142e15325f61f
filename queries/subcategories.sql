-- name: SubcategoryUpsert :exec
INSERT INTO subcategories (organization_id, id, name, category, delete_historial, hide_bookings, can_be_searched, shifts)
VALUES (@organization_id, @id, @name, @category, @delete_historial, @hide_bookings, @can_be_searched, @shifts)
ON CONFLICT (organization_id, id) DO UPDATE SET
    name = EXCLUDED.name, category = EXCLUDED.category, delete_historial = EXCLUDED.delete_historial,
    hide_bookings = EXCLUDED.hide_bookings, can_be_searched = EXCLUDED.can_be_searched, shifts = EXCLUDED.shifts;

-- name: SubcategoriesList :many
SELECT * FROM subcategories
WHERE organization_id = @organization_id AND (sqlc.narg(category)::text IS NULL OR category = sqlc.narg(category)::text)
ORDER BY category DESC, name COLLATE natural_names, id;

-- name: SubcategoriesExport :many
-- Lists subcategories by id for an export: those of the organization, or of any organization when it is
-- NULL; only the one with the id when it is given.
SELECT * FROM subcategories
WHERE (sqlc.narg(organization_id)::uuid IS NULL OR organization_id = sqlc.narg(organization_id)::uuid)
  AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id)::uuid)
ORDER BY id, organization_id;

-- name: SubcategoryDelete :execrows
DELETE FROM subcategories WHERE organization_id = @organization_id AND id = @id;
