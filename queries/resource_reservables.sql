-- name: ResourceReservablesDelete :exec
DELETE FROM resource_reservables WHERE organization_id = @organization_id AND resource_id = @resource_id;

-- name: ResourceReservablesInsert :exec
INSERT INTO resource_reservables (organization_id, resource_id, reservable_id)
SELECT @organization_id, @resource_id, unnest(@reservable_ids::uuid[]);

-- name: ResourceReservablesExport :many
-- Lists the services of the organization's resources (only the resource's when it is given), in order.
SELECT * FROM resource_reservables
WHERE organization_id = @organization_id AND (sqlc.narg(resource_id)::uuid IS NULL OR resource_id = sqlc.narg(resource_id)::uuid)
ORDER BY resource_id, reservable_id;

-- name: ResourceReservablesCountOfReservable :one
SELECT count(*) FROM resource_reservables WHERE organization_id = @organization_id AND reservable_id = @reservable_id;
