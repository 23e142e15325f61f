-- name: SeriesInsert :exec
INSERT INTO booking_series (organization_id, id, organizer_id, creator_id, resource_id, weekdays, every_weeks,
                            first_date, until_date, start_minute, end_minute, timezone, subject, mode)
VALUES (@organization_id, @id, @organizer_id, @creator_id, @resource_id, @weekdays, @every_weeks,
        @first_date, @until_date, @start_minute, @end_minute, @timezone, @subject, @mode);

-- name: SeriesGet :one
SELECT * FROM booking_series WHERE organization_id = @organization_id AND id = @id;

-- name: SeriesGetForUpdate :one
-- Locks the series, so two changes of one series happen one after the other.
SELECT * FROM booking_series WHERE organization_id = @organization_id AND id = @id FOR NO KEY UPDATE;

-- name: SeriesOfOrganizer :many
-- Lists an organizer's series whose last day is on or after @since, the earliest first, at most @max_rows.
SELECT * FROM booking_series
WHERE organization_id = @organization_id AND organizer_id = @organizer_id AND until_date >= @since
ORDER BY first_date, id
LIMIT @max_rows;

-- name: SeriesSetTimes :one
-- Gives the series new times of day, and a new revision.
UPDATE booking_series
SET start_minute = @start_minute, end_minute = @end_minute, mode = @mode, revision = revision + 1
WHERE organization_id = @organization_id AND id = @id
RETURNING *;

-- name: SeriesEndBefore :one
-- Ends the series on @until_date (the day before a cancellation from a date on), with a new revision.
UPDATE booking_series SET until_date = @until_date, revision = revision + 1
WHERE organization_id = @organization_id AND id = @id
RETURNING *;

-- name: SeriesCancel :one
-- Cancels the whole series, with a new revision.
UPDATE booking_series SET status = 'CANCELLED', revision = revision + 1
WHERE organization_id = @organization_id AND id = @id
RETURNING *;

-- name: SeriesBookings :many
-- Every booking of a series, the earliest first.
SELECT * FROM bookings
WHERE organization_id = @organization_id AND series_id = sqlc.arg(series_id)::uuid
ORDER BY start_date, id;

-- name: SeriesBookingsForUpdate :many
-- Locks the blocking bookings of a series that start at or after @since, the earliest first.
SELECT * FROM bookings
WHERE organization_id = @organization_id AND series_id = sqlc.arg(series_id)::uuid AND start_date >= @since
  AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
ORDER BY start_date, id
FOR NO KEY UPDATE;

-- name: SeriesDayPut :exec
-- Records a day of the series that has no booking. A day refused again keeps its latest reason.
INSERT INTO booking_series_days (organization_id, series_id, day, kind, code, detail)
VALUES (@organization_id, @series_id, @day, @kind, sqlc.narg(code), @detail)
ON CONFLICT (organization_id, series_id, day)
DO UPDATE SET kind = EXCLUDED.kind, code = EXCLUDED.code, detail = EXCLUDED.detail;

-- name: SeriesDays :many
-- The days of a series that have no booking, the earliest first.
SELECT * FROM booking_series_days
WHERE organization_id = @organization_id AND series_id = sqlc.arg(series_id)::uuid
ORDER BY day;

-- name: SeriesBump :one
-- Gives the series a new revision, when one of its days changed on its own (an occurrence cancelled).
UPDATE booking_series SET revision = revision + 1
WHERE organization_id = @organization_id AND id = @id
RETURNING *;
