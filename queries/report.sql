-- Utilisation reports (web/report). They read the daily roll-ups of sql/0031_utilisation.sql.

-- name: ReportSettings :one
-- The organization's report threshold and retention.
SELECT report_threshold, retention_months FROM organizations WHERE id = @organization_id;

-- name: ReportThresholdSet :one
UPDATE organizations SET report_threshold = @report_threshold WHERE id = @organization_id
RETURNING report_threshold;

-- name: ReportRetentionSet :one
UPDATE organizations SET retention_months = @retention_months WHERE id = @organization_id
RETURNING retention_months;

-- name: ReportBuilding :one
SELECT id, name, timezone FROM buildings WHERE organization_id = @organization_id AND id = @id;

-- name: ReportResources :many
-- Each resource's measures over the days from first to last, and the most distinct people it had in one
-- day. A resource that changed floor, subcategory or neighbourhood in the period has a row for each.
SELECT resource_id, floor_id, subcategory_id, neighbourhood_id,
       sum(bookable_ms)::bigint AS bookable_ms, sum(booked_ms)::bigint AS booked_ms,
       sum(checked_in_ms)::bigint AS checked_in_ms, sum(no_show_ms)::bigint AS no_show_ms,
       sum(released_ms)::bigint AS released_ms, max(people)::integer AS people
FROM utilisation_days
WHERE organization_id = @organization_id AND building_id = @building_id
  AND day BETWEEN sqlc.arg(first)::date AND sqlc.arg(last)::date
GROUP BY resource_id, floor_id, subcategory_id, neighbourhood_id;

-- name: ReportDays :many
-- The building's measures per day, with that day's distinct people. The days are summed first and then
-- given their people: joining the people to every resource's row first is 100 times slower.
WITH d AS (
    SELECT day, sum(bookable_ms)::bigint AS bookable_ms, sum(booked_ms)::bigint AS booked_ms,
           sum(checked_in_ms)::bigint AS checked_in_ms, sum(no_show_ms)::bigint AS no_show_ms,
           sum(released_ms)::bigint AS released_ms
    FROM utilisation_days
    WHERE organization_id = @organization_id AND building_id = @building_id
      AND day BETWEEN sqlc.arg(first)::date AND sqlc.arg(last)::date
    GROUP BY day
)
SELECT d.day, d.bookable_ms, d.booked_ms, d.checked_in_ms, d.no_show_ms, d.released_ms,
       coalesce(p.people, 0)::integer AS people
FROM d
LEFT JOIN utilisation_people p ON p.organization_id = @organization_id AND p.building_id = @building_id
     AND p.day = d.day AND p.dimension = 'BUILDING' AND p.cell = @building_id
ORDER BY d.day;

-- name: ReportHours :many
-- The building's measures per hour of the local day, with the most distinct people one day had in it.
SELECT hour, sum(bookable_ms)::bigint AS bookable_ms, sum(booked_ms)::bigint AS booked_ms,
       sum(checked_in_ms)::bigint AS checked_in_ms, sum(no_show_ms)::bigint AS no_show_ms,
       sum(released_ms)::bigint AS released_ms, max(people)::integer AS people
FROM utilisation_hours
WHERE organization_id = @organization_id AND building_id = @building_id
  AND day BETWEEN sqlc.arg(first)::date AND sqlc.arg(last)::date
GROUP BY hour ORDER BY hour;

-- name: ReportPeople :many
-- The most distinct people one day had in each cell of the building, the building itself included.
SELECT dimension, cell, max(people)::integer AS people
FROM utilisation_people
WHERE organization_id = @organization_id AND building_id = @building_id
  AND day BETWEEN sqlc.arg(first)::date AND sqlc.arg(last)::date
GROUP BY dimension, cell;

-- name: ReportServices :many
-- The services ordered with the building's bookings, with the most distinct people one day had ordering.
SELECT s.reservable_id, rv.name, sum(s.quantity)::bigint AS quantity, sum(s.bookings)::bigint AS bookings,
       max(s.people)::integer AS people
FROM utilisation_services s
JOIN reservables rv ON rv.organization_id = s.organization_id AND rv.id = s.reservable_id
WHERE s.organization_id = @organization_id AND s.building_id = @building_id
  AND s.day BETWEEN sqlc.arg(first)::date AND sqlc.arg(last)::date
GROUP BY s.reservable_id, rv.name;

-- name: ReportNames :many
-- The names of the building's floors, the organization's subcategories, the neighbourhoods of the
-- building's floors and the building's resources.
SELECT f.id, f.name FROM floors f WHERE f.organization_id = @organization_id AND f.building_id = @building_id
UNION ALL
SELECT sc.id, sc.name FROM subcategories sc WHERE sc.organization_id = @organization_id
UNION ALL
SELECT n.id, n.name FROM neighbourhoods n
JOIN floors f ON f.organization_id = n.organization_id AND f.id = n.floor_id
WHERE n.organization_id = @organization_id AND f.building_id = @building_id
UNION ALL
SELECT r.id, r.name FROM resources r
JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
WHERE r.organization_id = @organization_id AND f.building_id = @building_id;

-- name: ReportDaysToRollUp :many
-- The closed days, at most max_rows, of at most the last 400 days before each building's local today,
-- that are not rolled up yet, earliest first. @at is the current time.
SELECT b.organization_id, b.id AS building_id, g.day::date AS day
FROM buildings b
CROSS JOIN LATERAL generate_series(((sqlc.arg(at)::timestamptz AT TIME ZONE b.timezone)::date - 400)::timestamp,
                                   ((sqlc.arg(at)::timestamptz AT TIME ZONE b.timezone)::date - 1)::timestamp,
                                   interval '1 day') g(day)
WHERE NOT EXISTS (
    SELECT 1 FROM utilisation_people p
    WHERE p.organization_id = b.organization_id AND p.building_id = b.id AND p.day = g.day::date
      AND p.dimension = 'BUILDING' AND p.cell = b.id)
ORDER BY g.day, b.organization_id, b.id
LIMIT @max_rows;

-- name: ReportRollUp :exec
-- Writes (again) the roll-ups of one building's local day.
SELECT utilisation_roll_up(@organization_id, @building_id, sqlc.arg(day)::date);

-- name: ReportAnonymise :many
-- Takes the people out of at most max_rows bookings that ended before their organization's retention
-- (counted back from @at): organizer and creator become the organization's stand-in, subject, body and
-- SIP address are cleared. Their attendees are removed by ReportAnonymiseAttendees, the comments of
-- their orders by ReportAnonymiseOrders.
UPDATE bookings bk
SET organizer_id = report_stand_in(bk.organization_id), creator_id = report_stand_in(bk.organization_id),
    subject = '', body_content = '', sip_address = '', anonymised_at = sqlc.arg(at)::timestamptz
WHERE (bk.organization_id, bk.id) IN (
    SELECT d.organization_id, d.id FROM bookings d
    JOIN organizations o ON o.id = d.organization_id
    WHERE d.anonymised_at IS NULL
      AND d.end_date < sqlc.arg(at)::timestamptz - o.retention_months * interval '1 month'
      AND d.status NOT IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
    LIMIT @max_rows)
RETURNING bk.organization_id, bk.id;

-- name: ReportAnonymiseAttendees :exec
DELETE FROM booking_attendees WHERE organization_id = @organization_id AND booking_id = ANY(@booking_ids::uuid[]);

-- name: ReportAnonymiseOrders :exec
-- Empties the comments of the services ordered with anonymised bookings: a comment may name someone.
UPDATE booking_reservables SET comment = ''
WHERE organization_id = @organization_id AND booking_id = ANY(@booking_ids::uuid[]) AND comment <> '';

-- name: ReportStandInCount :one
SELECT count(*) FROM users WHERE organization_id = @organization_id AND id = report_stand_in(@organization_id);
