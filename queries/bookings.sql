-- name: BookingInsert :one
-- Inserts a booking that was checked against version layout_version of the organization's layout, and
-- with it, in the same statement, its event in the outbox (when with_event): the event takes the
-- booking's state from the row just inserted. It returns the number of bookings inserted: if the layout
-- has changed since, it inserts nothing (0) and the caller checks the booking again. One statement needs
-- no BEGIN and COMMIT: the most common booking stays a single round trip with the outbox on.
-- booking_may_insert (sql/0012) first takes the building's closure lock (shared) and the resource's lock,
-- then reads the version: a closure saved while the insert waited is seen, and so is a booking of the
-- resource that committed meanwhile (the exclusion constraint refuses an overlap at once).
WITH b AS (
INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date, end_date, status,
                      access_control_type, subject, body_content, body_type, importance, resource_type,
                      building_access_status, create_online_meeting, sip_address, all_day,
                      check_in_opens_at, check_in_closes_at, series_id)
SELECT sqlc.arg(organization_id)::uuid, sqlc.arg(id)::uuid, sqlc.arg(resource_id)::uuid, sqlc.arg(floor_id)::uuid, sqlc.arg(creator_id)::uuid,
       sqlc.arg(organizer_id)::uuid, sqlc.arg(start_date)::timestamptz, sqlc.arg(end_date)::timestamptz,
       sqlc.arg(status)::text, sqlc.arg(access_control_type)::text, sqlc.arg(subject)::text,
       sqlc.arg(body_content)::text, sqlc.arg(body_type)::text, sqlc.arg(importance)::text,
       sqlc.arg(resource_type)::text, sqlc.arg(building_access_status)::text,
       sqlc.arg(create_online_meeting)::boolean, sqlc.arg(sip_address)::text,
       sqlc.arg(all_day)::boolean, sqlc.arg(check_in_opens_at)::timestamptz, sqlc.arg(check_in_closes_at)::timestamptz,
       sqlc.narg(series_id)::uuid
WHERE booking_may_insert(sqlc.arg(organization_id)::uuid, sqlc.arg(layout_version)::bigint,
                         sqlc.arg(building_id)::uuid, sqlc.arg(resource_id)::uuid)
RETURNING organization_id, id, revision, status, start_date, end_date, resource_id),
e AS (
INSERT INTO outbox_events (id, organization_id, kind, booking_id, at, revision, status, start_date, end_date, resource_id)
SELECT sqlc.arg(event_id)::uuid, b.organization_id, sqlc.arg(event_kind)::text, b.id, sqlc.arg(event_at)::timestamptz,
       b.revision, b.status, b.start_date, b.end_date, b.resource_id
FROM b
WHERE sqlc.arg(with_event)::boolean)
SELECT count(*) FROM b;

-- name: BookingUpsert :execrows
-- Loads a booking from a layout document. Its resource type and check-in window come from the resource
-- and its rule. Nothing is written if the resource does not exist or the booking already exists: an
-- existing booking is left exactly as it is, whatever the document says about it.
INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date, end_date,
                      status, access_control_type, subject, body_content, body_type, importance, resource_type,
                      building_access_status, create_online_meeting, sip_address, check_in_opens_at,
                      check_in_closes_at)
SELECT @organization_id, @id, r.id, r.floor_id, @creator_id, @organizer_id, @start_date, @end_date, @status,
       rr.access_control_type, @subject, @body_content, @body_type, @importance, s.category,
       @building_access_status, @create_online_meeting, @sip_address,
       w.opens, w.closes
FROM resources r
JOIN subcategories s ON s.organization_id = r.organization_id AND s.id = r.subcategory_id
JOIN resource_rules rr ON rr.organization_id = r.organization_id AND rr.id = r.resource_rule_id
CROSS JOIN LATERAL (
    -- Same as booking.ResourceRule.CheckInWindow: a zero margin means no deadline (check-in stays open until the end).
    SELECT sqlc.arg(start_date)::timestamptz - rr.advance_check_in * interval '1 millisecond' AS opens,
           CASE WHEN rr.expiration_margin = 0 THEN sqlc.arg(end_date)::timestamptz
                ELSE LEAST(sqlc.arg(end_date)::timestamptz,
                           sqlc.arg(start_date)::timestamptz + rr.expiration_margin * interval '1 millisecond')
           END AS closes
) w
WHERE r.organization_id = @organization_id AND r.id = @resource_id
ON CONFLICT (organization_id, id) DO NOTHING;

-- name: BookingGet :one
SELECT * FROM bookings WHERE organization_id = @organization_id AND id = @id;

-- name: BookingsGetByIDs :many
SELECT * FROM bookings WHERE organization_id = @organization_id AND id = ANY (@ids::uuid[]);

-- name: BookingGetForUpdate :one
SELECT * FROM bookings WHERE organization_id = @organization_id AND id = @id FOR NO KEY UPDATE;

-- name: BookingsBlockingAfter :many
-- Returns the first blocking booking of a resource that overlaps [after, until): the one covering the
-- moment after, if any, or else the next one to start. (No booking lasts more than 25 hours: see
-- bookings_busy_idx.)
SELECT * FROM bookings
WHERE organization_id = @organization_id AND resource_id = @resource_id
  AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
  AND start_date > sqlc.arg(after)::timestamptz - interval '25 hours' AND start_date < sqlc.arg(until)::timestamptz
  AND end_date > sqlc.arg(after)::timestamptz
ORDER BY start_date
LIMIT 1;

-- name: BookingSetStatus :one
-- Sets a booking's status, and sets checked_in_at when the new status is ACTIVE.
UPDATE bookings
SET status = @status, checked_in_at = CASE WHEN @status = 'ACTIVE' THEN @now::timestamptz ELSE checked_in_at END,
    updated_at = now()
WHERE organization_id = @organization_id AND id = @id
RETURNING *;

-- name: BookingFinish :one
-- Ends an ACTIVE booking at the given moment, freeing the rest of its slot. booked_end_date keeps the
-- end as booked, so that the reports can count the time released.
UPDATE bookings SET status = 'FINISHED', booked_end_date = coalesce(booked_end_date, end_date), end_date = @end_date,
    updated_at = now()
WHERE organization_id = @organization_id AND id = @id
RETURNING *;

-- name: BookingApprove :one
-- Approves a waiting booking and sets its new check-in window.
UPDATE bookings
SET status = 'PENDING', check_in_opens_at = @check_in_opens_at, check_in_closes_at = @check_in_closes_at,
    updated_at = now()
WHERE organization_id = @organization_id AND id = @id
RETURNING *;

-- name: BookingMove :one
-- Moves a booking to another time, another resource, or both. The no-overlap constraint may still refuse it.
UPDATE bookings
SET resource_id = @resource_id, floor_id = @floor_id, start_date = @start_date, end_date = @end_date, all_day = @all_day, status = @status,
    access_control_type = @access_control_type, check_in_opens_at = @check_in_opens_at,
    check_in_closes_at = @check_in_closes_at, updated_at = now()
WHERE organization_id = @organization_id AND id = @id
RETURNING *;

-- name: BookingsOfUser :many
-- Lists a user's bookings as organizer or internal attendee, newest first, after a cursor (the start and
-- id of the last booking on the previous page). If given, only bookings that overlap [from, to) and are in
-- one of the given statuses are listed.
-- The page's bookings as organizer are among the first max_rows of them, read in order from
-- bookings_organizer_idx; bookings as attendee come from booking_attendees_user_idx. (With both tests in
-- one OR, PostgreSQL read every booking of the organization.)
SELECT bk.* FROM bookings bk
WHERE bk.organization_id = @organization_id
  AND bk.id IN (
      (SELECT o.id FROM bookings o
       WHERE o.organization_id = @organization_id AND o.organizer_id = @user_id
         AND (sqlc.narg(from_date)::timestamptz IS NULL OR o.end_date > sqlc.narg(from_date)::timestamptz)
         AND (sqlc.narg(to_date)::timestamptz IS NULL OR o.start_date < sqlc.narg(to_date)::timestamptz)
         AND (cardinality(@statuses::text[]) = 0 OR o.status = ANY (@statuses::text[]))
         AND (sqlc.narg(after_start)::timestamptz IS NULL
              OR (o.start_date, o.id) < (sqlc.narg(after_start)::timestamptz, @after_id::uuid))
       ORDER BY o.start_date DESC, o.id DESC
       LIMIT @max_rows)
      UNION ALL
      SELECT a.booking_id FROM booking_attendees a
      WHERE a.organization_id = @organization_id AND a.user_id = @user_id)
  AND (sqlc.narg(from_date)::timestamptz IS NULL OR bk.end_date > sqlc.narg(from_date)::timestamptz)
  AND (sqlc.narg(to_date)::timestamptz IS NULL OR bk.start_date < sqlc.narg(to_date)::timestamptz)
  AND (cardinality(@statuses::text[]) = 0 OR bk.status = ANY (@statuses::text[]))
  AND (sqlc.narg(after_start)::timestamptz IS NULL
       OR (bk.start_date, bk.id) < (sqlc.narg(after_start)::timestamptz, @after_id::uuid))
ORDER BY bk.start_date DESC, bk.id DESC
LIMIT @max_rows;

-- name: BookingsWaitingApproval :many
-- Lists an organization's bookings waiting for approval, earliest start first, after a cursor.
SELECT * FROM bookings
WHERE organization_id = @organization_id AND status = 'WAITING_APPROVAL'
  AND (sqlc.narg(after_start)::timestamptz IS NULL
       OR (start_date, id) > (sqlc.narg(after_start)::timestamptz, @after_id::uuid))
ORDER BY start_date, id
LIMIT @max_rows;

-- name: BookingsToCheckIn :many
-- Returns the user's booking of a resource that a check-in at the given moment applies to. PENDING
-- bookings whose check-in window is open come first, so that with back-to-back bookings the next one is
-- checked in, not the one ending. Otherwise an ACTIVE booking not yet over (checking in again is harmless).
-- Either one ends after the moment, and so started less than 25 hours before it (a check-in window
-- closes at the latest at the end): that bound makes this one short range of bookings_busy_idx.
SELECT * FROM bookings
WHERE organization_id = @organization_id AND resource_id = @resource_id AND organizer_id = @user_id
  AND start_date > sqlc.arg(at)::timestamptz - interval '25 hours'
  AND ((status = 'PENDING' AND check_in_opens_at <= sqlc.arg(at)::timestamptz AND sqlc.arg(at)::timestamptz < check_in_closes_at)
       OR (status = 'ACTIVE' AND sqlc.arg(at)::timestamptz < end_date))
ORDER BY status = 'PENDING' DESC, start_date, id
LIMIT 1;

-- name: BookingCheckInOpen :one
-- Reports whether some PENDING booking of a resource, whoever organizes it, has its check-in window open
-- at the given moment. Such a booking ends after the moment, and so started less than 25 hours before it:
-- that bound makes this one short range of bookings_busy_idx.
SELECT EXISTS (
    SELECT FROM bookings
    WHERE organization_id = @organization_id AND resource_id = @resource_id AND status = 'PENDING'
      AND start_date > sqlc.arg(at)::timestamptz - interval '25 hours'
      AND check_in_opens_at <= sqlc.arg(at)::timestamptz AND sqlc.arg(at)::timestamptz < check_in_closes_at
);

-- name: BookingsOfUserAfter :many
-- Returns the user's first blocking booking of a resource that overlaps [after, until): the one they hold
-- at the moment after, if any, or else their next one.
SELECT * FROM bookings
WHERE organization_id = @organization_id AND resource_id = @resource_id AND organizer_id = @user_id
  AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
  AND start_date > sqlc.arg(after)::timestamptz - interval '25 hours' AND start_date < sqlc.arg(until)::timestamptz
  AND end_date > sqlc.arg(after)::timestamptz
ORDER BY start_date
LIMIT 1;

-- name: BookingsBusy :batchmany
-- Lists the blocking bookings on a floor that overlap [from, to), ordered by resource and start. Since no
-- booking lasts more than 25 hours, this reads one short range of bookings_floor_busy_idx.
-- It takes one floor per query, sent as a batch for several floors: PostgreSQL then reuses one plan for
-- every call, whereas an array of floors made it plan each call again, which cost more than the query.
SELECT resource_id, start_date, end_date FROM bookings
WHERE organization_id = @organization_id AND floor_id = @floor_id
  AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
  AND start_date > sqlc.arg(from_date)::timestamptz - interval '25 hours' AND start_date < sqlc.arg(to_date)::timestamptz
  AND end_date > sqlc.arg(from_date)::timestamptz
ORDER BY resource_id, start_date;

-- name: BookingsExpireNoShows :many
-- Marks EXPIRED at most max_rows of the bookings still waiting for check-in or approval after their
-- check-in window closed, the earliest deadlines first; this frees their resources. The current time is
-- the database's now(), unless @at is given. The caller repeats it while it returns max_rows.
-- The deadlines are read in order from bookings_check_in_deadline_idx and the reading stops at max_rows.
-- Asked for all of them at once, PostgreSQL took most deadlines to be past (nothing tells it that the
-- waiting bookings are the future ones) and read the whole table, 8 GB at 20,000,000 bookings.
-- The outer conditions are tested again on a booking changed meanwhile (a check-in), which is then left.
UPDATE bookings b SET status = 'EXPIRED', updated_at = now()
WHERE (b.organization_id, b.id) IN (
        SELECT d.organization_id, d.id FROM bookings d
        WHERE d.status IN ('PENDING', 'WAITING_APPROVAL') AND d.check_in_closes_at <= coalesce(sqlc.narg(at)::timestamptz, now())
        ORDER BY d.check_in_closes_at
        LIMIT @max_rows)
  AND b.status IN ('PENDING', 'WAITING_APPROVAL') AND b.check_in_closes_at <= coalesce(sqlc.narg(at)::timestamptz, now())
RETURNING b.organization_id, b.id, b.revision, b.status, b.start_date, b.end_date, b.resource_id;

-- name: BookingsFinishEnded :many
-- Marks FINISHED at most max_rows of the ACTIVE bookings that have ended, the earliest ends first. The
-- current time is the database's now(), unless @at is given. The caller repeats it while it returns
-- max_rows.
UPDATE bookings b SET status = 'FINISHED', updated_at = now()
WHERE (b.organization_id, b.id) IN (
        SELECT d.organization_id, d.id FROM bookings d
        WHERE d.status = 'ACTIVE' AND d.end_date <= coalesce(sqlc.narg(at)::timestamptz, now())
        ORDER BY d.end_date
        LIMIT @max_rows)
  AND b.status = 'ACTIVE' AND b.end_date <= coalesce(sqlc.narg(at)::timestamptz, now())
RETURNING b.organization_id, b.id;

-- name: SweepLockTry :one
-- Takes the sweep lock if it is free, so that only one instance sweeps at a time. The lock is held until
-- the transaction ends.
SELECT pg_try_advisory_xact_lock(@key::bigint);

-- name: BookingCount :one
SELECT count(*) FROM bookings WHERE organization_id = @organization_id;

-- name: BookingsRunEnd :one
-- Returns when a chain of back-to-back blocking bookings of a resource, starting at from_date, ends. In the
-- chain each booking starts exactly when the one before ends. If no blocking booking starts at from_date,
-- it returns from_date.
WITH RECURSIVE run (end_date) AS (
    SELECT sqlc.arg(from_date)::timestamptz
    UNION
    SELECT bk.end_date FROM bookings bk JOIN run ON bk.start_date = run.end_date
    WHERE bk.organization_id = @organization_id AND bk.resource_id = @resource_id
      AND bk.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
)
SELECT max(end_date)::timestamptz AS end_date FROM run;

-- name: ResourcesBusyDuring :batchmany
-- Lists the resources on a floor that a blocking booking holds during any of the intervals. Batched by
-- floor for the same reason as BookingsBusy.
SELECT DISTINCT resource_id FROM bookings
WHERE organization_id = @organization_id AND floor_id = @floor_id
  AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
  AND start_date > lower(sqlc.arg(intervals)::tstzmultirange) - interval '25 hours'
  AND start_date < upper(sqlc.arg(intervals)::tstzmultirange)
  AND tstzrange(start_date, end_date, '[)') && sqlc.arg(intervals)::tstzmultirange;

-- name: BookingWorkstationHeld :many
-- Returns the person's first blocking workstation booking that overlaps any interval
-- [from_dates[i], to_dates[i]), with its resource's name and its building's time zone: the desk the
-- person already holds then. One query covers all the days of a search.
-- earliest and latest are the earliest from_date and the latest to_date. The person's bookings that start
-- between earliest less 25 hours and latest are read first, one short range of bookings_organizer_idx, and
-- tested after. "resource_type = 'WORKSTATION' AND status IN (…)" in the same query is the predicate of
-- bookings_one_workstation_per_person, whose GiST index PostgreSQL could then read whole instead.
WITH mine AS MATERIALIZED (
    SELECT o.* FROM bookings o
    WHERE o.organization_id = @organization_id AND o.organizer_id = @organizer_id
      AND o.start_date > sqlc.arg(earliest)::timestamptz - interval '25 hours' AND o.start_date < sqlc.arg(latest)::timestamptz
)
SELECT bk.id, bk.start_date, bk.end_date, r.name AS resource_name, b.timezone
FROM mine bk
JOIN resources r ON r.organization_id = bk.organization_id AND r.id = bk.resource_id
JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
WHERE bk.resource_type = 'WORKSTATION' AND bk.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
  AND EXISTS (
    SELECT FROM generate_subscripts(sqlc.arg(from_dates)::timestamptz[], 1) AS i
    WHERE bk.start_date < (sqlc.arg(to_dates)::timestamptz[])[i] AND (sqlc.arg(from_dates)::timestamptz[])[i] < bk.end_date)
ORDER BY bk.start_date, bk.id
LIMIT 1;

-- name: BookingsReleaseOfOrganizer :many
-- Releases every booking a deactivated person organizes that still holds its resource: one checked in
-- and under way now ends now (FINISHED), every other one is CANCELLED. Bookings already over are left as
-- they are.
UPDATE bookings
SET status = CASE WHEN status = 'ACTIVE' AND start_date < @now::timestamptz THEN 'FINISHED' ELSE 'CANCELLED' END,
    end_date = CASE WHEN status = 'ACTIVE' AND start_date < @now::timestamptz THEN @now::timestamptz ELSE end_date END,
    updated_at = now()
WHERE organization_id = @organization_id AND organizer_id = @organizer_id
  AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE') AND end_date > @now::timestamptz
RETURNING id, status, revision, start_date, end_date, resource_id;

-- name: BookingTouch :one
-- Marks a booking as changed when something stored beside it changed (its services): its revision grows.
UPDATE bookings SET updated_at = now()
WHERE organization_id = @organization_id AND id = @id
RETURNING revision;
