-- name: OutboxEventsInsert :exec
-- Records events in the outbox, in the transaction of the change that causes them.
INSERT INTO outbox_events (id, organization_id, event)
SELECT unnest(@ids::uuid[]), unnest(@organization_ids::uuid[]), unnest(@events::text[]);

-- name: OutboxEventsClaim :many
-- Takes the oldest events out of the outbox, at most max_rows, skipping those another instance is
-- taking: the caller hands them to River in the same transaction.
DELETE FROM outbox_events
WHERE id IN (SELECT id FROM outbox_events ORDER BY id LIMIT @max_rows FOR UPDATE SKIP LOCKED)
RETURNING event;
