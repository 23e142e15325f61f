-- name: OutboxEventsInsert :exec
-- Records events in the outbox, in the transaction of the change that causes them. The arrays run in
-- step, one element per event. An empty reason is stored as null; each element of dropped_services is
-- an array literal ('{id,id}'), or empty for none.
INSERT INTO outbox_events (id, organization_id, kind, booking_id, at, revision, status, start_date, end_date,
                           resource_id, reason, dropped_services)
SELECT u.id, u.organization_id, u.kind, u.booking_id, u.at, u.revision, u.status, u.start_date, u.end_date,
       u.resource_id, nullif(u.reason, ''), nullif(u.dropped_services, '')::uuid[]
FROM (SELECT unnest(@ids::uuid[]) AS id, unnest(@organization_ids::uuid[]) AS organization_id,
             unnest(@kinds::text[]) AS kind, unnest(@booking_ids::uuid[]) AS booking_id,
             unnest(@ats::timestamptz[]) AS at, unnest(@revisions::integer[]) AS revision,
             unnest(@statuses::text[]) AS status, unnest(@start_dates::timestamptz[]) AS start_date,
             unnest(@end_dates::timestamptz[]) AS end_date, unnest(@resource_ids::uuid[]) AS resource_id,
             unnest(@reasons::text[]) AS reason, unnest(@dropped_services::text[]) AS dropped_services) u;

-- name: OutboxEventsClaim :many
-- Takes the oldest events out of the outbox, at most max_rows, skipping those another instance is
-- taking: the caller hands them to River in the same transaction. The ids are locked once, into an
-- array: as an IN subquery, statistics taken while the table was empty led PostgreSQL to lock them again
-- for every waiting event.
DELETE FROM outbox_events
WHERE id = ANY (ARRAY(SELECT id FROM outbox_events ORDER BY id LIMIT @max_rows FOR UPDATE SKIP LOCKED))
RETURNING *;

-- name: OutboxEventsArrived :one
-- Counts the events recorded after the event after, counting no further than at_most, and returns the
-- newest one's id (after when there is none) and how many seconds the oldest has waited (-1 when none
-- waits): the relay's measure of how fast events arrive. Event ids are UUIDv7, so they grow with time.
-- Each part reads the primary key's index, and only the few entries it needs: a plain count(*) of the
-- new events read the whole table whenever its statistics were taken while it was empty, which every
-- instance's relay then did ten times a second during a burst.
SELECT (SELECT count(*) FROM (SELECT FROM outbox_events WHERE id > @after::uuid ORDER BY id LIMIT @at_most::int) a)::int AS arrived,
    coalesce((SELECT id FROM outbox_events WHERE id > @after::uuid ORDER BY id DESC LIMIT 1), @after::uuid)::uuid AS newest,
    coalesce((SELECT extract(epoch FROM now() - recorded_at) FROM outbox_events ORDER BY id LIMIT 1), -1)::float8 AS oldest_waited;

-- name: OutboxJobsWaiting :one
-- Counts the outbox's jobs that wait for a worker, counting no further than at_most.
SELECT count(*)::int FROM (
    SELECT FROM river_job WHERE state = 'available' AND queue = @queue::text LIMIT @at_most::int
) waiting;
