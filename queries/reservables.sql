-- name: ReservableUpsert :exec
INSERT INTO reservables (organization_id, id, name, type, description, choose_quantity, choose_delivery_time,
                         allow_comments, minimum_cancellation_ms, standard_delivery_time_ms, email)
VALUES (@organization_id, @id, @name, @type, @description, @choose_quantity, @choose_delivery_time,
        @allow_comments, @minimum_cancellation_ms, @standard_delivery_time_ms, @email)
ON CONFLICT (organization_id, id) DO UPDATE SET
    name = EXCLUDED.name, type = EXCLUDED.type, description = EXCLUDED.description,
    choose_quantity = EXCLUDED.choose_quantity, choose_delivery_time = EXCLUDED.choose_delivery_time,
    allow_comments = EXCLUDED.allow_comments, minimum_cancellation_ms = EXCLUDED.minimum_cancellation_ms,
    standard_delivery_time_ms = EXCLUDED.standard_delivery_time_ms, email = EXCLUDED.email;

-- name: ReservablesOfResource :many
-- Lists the reservables that may be contracted on bookings of a resource.
SELECT sqlc.embed(rv)
FROM resource_reservables rr
JOIN reservables rv ON rv.organization_id = rr.organization_id AND rv.id = rr.reservable_id
WHERE rr.organization_id = @organization_id AND rr.resource_id = @resource_id
ORDER BY rv.name COLLATE natural_names, rv.id;

-- name: ReservablesExport :many
-- Lists reservables by id for an export: those of the organization, or of any organization when it is
-- NULL; only the one with the id when it is given.
SELECT * FROM reservables
WHERE (sqlc.narg(organization_id)::uuid IS NULL OR organization_id = sqlc.narg(organization_id)::uuid)
  AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id)::uuid)
ORDER BY id, organization_id;

-- name: ReservableDelete :execrows
DELETE FROM reservables WHERE organization_id = @organization_id AND id = @id;
