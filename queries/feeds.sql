-- name: BookingsOfUserForFeed :many
-- Lists a user's bookings as organizer or internal attendee that overlap [from, to), earliest first, for
-- their calendar feed: those that hold or held their resource, and those cancelled, rejected or expired
-- in the last 30 days (by the database's clock, which wrote updated_at), so that calendars remove them.
-- No booking lasts more than 25 hours, so the bookings as organizer are one short range of
-- bookings_organizer_idx.
SELECT bk.* FROM bookings bk
WHERE bk.organization_id = @organization_id
  AND bk.id IN (
      SELECT o.id FROM bookings o
      WHERE o.organization_id = @organization_id AND o.organizer_id = @user_id
        AND o.start_date > sqlc.arg(from_date)::timestamptz - interval '25 hours'
        AND o.start_date < sqlc.arg(to_date)::timestamptz
      UNION ALL
      SELECT a.booking_id FROM booking_attendees a
      WHERE a.organization_id = @organization_id AND a.user_id = @user_id)
  AND bk.end_date > sqlc.arg(from_date)::timestamptz AND bk.start_date < sqlc.arg(to_date)::timestamptz
  AND (bk.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE', 'FINISHED') OR bk.updated_at >= now() - interval '30 days')
ORDER BY bk.start_date, bk.id
LIMIT @max_rows;

-- name: BookingsOfResourceForFeed :many
-- Lists a resource's bookings that overlap [from, to), earliest first, for its calendar feed, with the
-- same statuses as BookingsOfUserForFeed. The bookings that hold the resource are one short range of
-- bookings_busy_idx, the others of bookings_resource_ended_idx.
SELECT h.* FROM bookings h
WHERE h.organization_id = @organization_id AND h.resource_id = @resource_id
  AND h.status NOT IN ('FINISHED', 'EXPIRED', 'CANCELLED', 'REJECTED')
  AND h.start_date > sqlc.arg(from_date)::timestamptz - interval '25 hours'
  AND h.start_date < sqlc.arg(to_date)::timestamptz AND h.end_date > sqlc.arg(from_date)::timestamptz
UNION ALL
SELECT e.* FROM bookings e
WHERE e.organization_id = @organization_id AND e.resource_id = @resource_id
  AND e.status IN ('FINISHED', 'EXPIRED', 'CANCELLED', 'REJECTED')
  AND (e.status = 'FINISHED' OR e.updated_at >= now() - interval '30 days')
  AND e.start_date > sqlc.arg(from_date)::timestamptz - interval '25 hours'
  AND e.start_date < sqlc.arg(to_date)::timestamptz AND e.end_date > sqlc.arg(from_date)::timestamptz
ORDER BY start_date, id
LIMIT @max_rows;
