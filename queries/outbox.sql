-- name: OutboxEventsInsert :exec
-- Records events in the outbox, in the transaction of the change that causes them.
INSERT INTO outbox_events (id, organization_id, event)
SELECT unnest(@ids::uuid[]), unnest(@organization_ids::uuid[]), unnest(@events::text[]);

-- name: OutboxEventsClaim :many
-- Takes the oldest events out of the outbox, at most max_rows, skipping those another instance is
-- taking: the caller hands them to River in the same transaction. The ids are locked once, into an
-- array: as an IN subquery, statistics taken while the table was empty led PostgreSQL to lock them again
-- for every waiting event.
DELETE FROM outbox_events
WHERE id = ANY (ARRAY(SELECT id FROM outbox_events ORDER BY id LIMIT @max_rows FOR UPDATE SKIP LOCKED))
RETURNING event;

-- name: OutboxEventsArrived :one
-- Counts the events recorded after the event after, and returns the newest one's id (after when there
-- is none) and how many seconds the oldest has waited (-1 when none waits): the relay's measure of how
-- fast events arrive. Event ids are UUIDv7, so they grow with time.
SELECT (SELECT count(*) FROM outbox_events WHERE id > @after::uuid)::int AS arrived,
    coalesce((SELECT id FROM outbox_events WHERE id > @after::uuid ORDER BY id DESC LIMIT 1), @after::uuid)::uuid AS newest,
    coalesce((SELECT extract(epoch FROM now() - recorded_at) FROM outbox_events ORDER BY id LIMIT 1), -1)::float8 AS oldest_waited;

-- name: OutboxJobsWaiting :one
-- Counts the outbox's jobs that wait for a worker, counting no further than at_most.
SELECT count(*)::int FROM (
    SELECT FROM river_job WHERE state = 'available' AND queue = @queue::text LIMIT @at_most::int
) waiting;
