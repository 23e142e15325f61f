-- name: ResourceReservablesDelete :exec
DELETE FROM resource_reservables WHERE organization_id = @organization_id AND resource_id = @resource_id;

-- name: ResourceReservablesInsert :exec
INSERT INTO resource_reservables (organization_id, resource_id, reservable_id)
SELECT @organization_id, @resource_id, unnest(@reservable_ids::uuid[]);
