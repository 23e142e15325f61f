-- name: ClosureGet :one
SELECT * FROM closures WHERE organization_id = @organization_id AND id = @id;

-- name: ClosureGetForUpdate :one
SELECT * FROM closures WHERE organization_id = @organization_id AND id = @id FOR UPDATE;

-- name: ClosureList :many
-- Lists the organization's closures, earliest start first.
SELECT * FROM closures WHERE organization_id = @organization_id ORDER BY start_date, id;

-- name: ClosuresOpen :many
-- Lists the organization's closures that end after the given time, earliest start first, at most
-- max_rows of them.
SELECT * FROM closures
WHERE organization_id = @organization_id AND end_date > sqlc.arg(after)::timestamptz
ORDER BY start_date, id
LIMIT @max_rows;

-- name: ClosuresOpenCount :one
-- Counts the organization's closures, other than the one with the given id, that end after the given time.
SELECT count(*) FROM closures
WHERE organization_id = @organization_id AND end_date > sqlc.arg(after)::timestamptz AND id <> @id;

-- name: ClosureUpsert :exec
INSERT INTO closures (organization_id, id, building_id, floor_id, resource_id, start_date, end_date, reason, kept_booking_ids)
VALUES (@organization_id, @id, sqlc.narg(building_id), sqlc.narg(floor_id), sqlc.narg(resource_id), @start_date, @end_date,
        @reason, @kept_booking_ids)
ON CONFLICT (organization_id, id) DO UPDATE
SET building_id = EXCLUDED.building_id, floor_id = EXCLUDED.floor_id, resource_id = EXCLUDED.resource_id,
    start_date = EXCLUDED.start_date, end_date = EXCLUDED.end_date, reason = EXCLUDED.reason,
    kept_booking_ids = EXCLUDED.kept_booking_ids;

-- name: ClosureDelete :execrows
DELETE FROM closures WHERE organization_id = @organization_id AND id = @id;

-- name: ClosureBuilding :one
-- Returns the building of a closure's building, floor or resource (exactly one of them is set). No row
-- means the target does not exist.
SELECT b.id FROM buildings b
WHERE b.organization_id = @organization_id
  AND b.id = COALESCE(sqlc.narg(building_id)::uuid,
                      (SELECT f.building_id FROM floors f WHERE f.organization_id = @organization_id AND f.id = sqlc.narg(floor_id)::uuid),
                      (SELECT f.building_id FROM resources r JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
                       WHERE r.organization_id = @organization_id AND r.id = sqlc.narg(resource_id)::uuid));

-- name: ClosureLockBuilding :exec
-- Takes the building's closure lock exclusively until the transaction ends. Statements that put a
-- booking into a time on a resource of the building take it shared, so they wait for the closure being
-- saved, and it waits for them (sql/0012).
SELECT pg_advisory_xact_lock(closure_lock_key(@building_id::uuid));

-- name: ClosureLockBuildingShared :exec
-- Takes the building's closure lock shared until the transaction ends (see ClosureLockBuilding).
SELECT pg_advisory_xact_lock_shared(closure_lock_key(@building_id::uuid));

-- name: ClosuresCovering :many
-- Lists the closures of a resource, of its floor or of its building that overlap [start, end), earliest
-- first.
SELECT * FROM closures c
WHERE c.organization_id = @organization_id AND c.end_date > sqlc.arg(start_date)::timestamptz
  AND c.start_date < sqlc.arg(end_date)::timestamptz
  AND (c.resource_id = @resource_id OR c.floor_id = @floor_id OR c.building_id = @building_id)
ORDER BY c.start_date, c.id;

-- name: ClosureBookingsCovered :many
-- Lists the blocking bookings that a closure of a building, floor or resource (exactly one is set) over
-- [start, end) would cover, except those in kept: each with its resource's name, its organizer and its
-- building's time zone, earliest first, at most max_rows of them. No booking lasts more than 25 hours
-- (bookings_length_check), so this reads short ranges of bookings_floor_busy_idx.
SELECT bk.*, r.name AS resource_name, u.name AS organizer_name, u.surname AS organizer_surname, b.timezone
FROM bookings bk
JOIN resources r ON r.organization_id = bk.organization_id AND r.id = bk.resource_id
JOIN floors f ON f.organization_id = bk.organization_id AND f.id = bk.floor_id
JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
JOIN users u ON u.organization_id = bk.organization_id AND u.id = bk.organizer_id
WHERE bk.organization_id = @organization_id
  AND bk.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
  AND bk.start_date > sqlc.arg(start_date)::timestamptz - interval '25 hours'
  AND bk.start_date < sqlc.arg(end_date)::timestamptz
  AND bk.end_date > sqlc.arg(start_date)::timestamptz
  AND bk.floor_id IN (
      SELECT fl.id FROM floors fl
      WHERE fl.organization_id = @organization_id
        AND (fl.building_id = sqlc.narg(building_id)::uuid OR fl.id = sqlc.narg(floor_id)::uuid
             OR fl.id = (SELECT rs.floor_id FROM resources rs
                         WHERE rs.organization_id = @organization_id AND rs.id = sqlc.narg(resource_id)::uuid)))
  AND (sqlc.narg(resource_id)::uuid IS NULL OR bk.resource_id = sqlc.narg(resource_id)::uuid)
  AND NOT bk.id = ANY (@kept::uuid[])
ORDER BY bk.start_date, bk.id
LIMIT @max_rows;

-- name: ClosureBookingsCancel :many
-- Cancels the given bookings, as a cancellation does, if they are still blocking and still overlap
-- [start, end). A booking moved away meanwhile is left alone.
UPDATE bookings bk SET status = 'CANCELLED', updated_at = now()
WHERE bk.organization_id = @organization_id AND bk.id = ANY (@ids::uuid[])
  AND bk.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
  AND bk.start_date < sqlc.arg(end_date)::timestamptz AND bk.end_date > sqlc.arg(start_date)::timestamptz
RETURNING bk.id, bk.revision, bk.status, bk.start_date, bk.end_date, bk.resource_id;

-- name: ClosuresExport :many
-- Lists closures for a layout export: those of one organization (of any when it is null), or the one with
-- the given id, in id order.
SELECT * FROM closures
WHERE (sqlc.narg(organization_id)::uuid IS NULL OR organization_id = sqlc.narg(organization_id)::uuid)
  AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id)::uuid)
ORDER BY id, organization_id;
