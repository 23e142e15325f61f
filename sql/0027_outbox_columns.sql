-- An event in the outbox becomes a row of plain columns instead of JSON text. The row is less than half
-- the size (about 170 bytes instead of 440), so a booking writes less to the table and to the WAL, and
-- a new booking's event takes its id, times, status and resource from the booking its statement
-- inserts rather than from a second copy sent by the server.
ALTER TABLE outbox_events
    ADD COLUMN kind             text,
    ADD COLUMN booking_id       uuid,
    ADD COLUMN at               timestamptz,
    ADD COLUMN revision         integer,
    ADD COLUMN status           text,
    ADD COLUMN start_date       timestamptz,
    ADD COLUMN end_date         timestamptz,
    ADD COLUMN resource_id      uuid,
    ADD COLUMN reason           text,      -- null unless someone other than the organizer ended it
    ADD COLUMN dropped_services uuid[];    -- null unless services were dropped

-- Events still waiting keep what their JSON said.
UPDATE outbox_events o SET
    kind = e->>'kind',
    booking_id = (e->>'bookingId')::uuid,
    at = (e->>'at')::timestamptz,
    revision = (e->'booking'->>'revision')::integer,
    status = e->'booking'->>'status',
    start_date = (e->'booking'->>'start')::timestamptz,
    end_date = (e->'booking'->>'end')::timestamptz,
    resource_id = (e->'booking'->>'resourceId')::uuid,
    reason = nullif(e->>'reason', ''),
    dropped_services = CASE WHEN jsonb_typeof(e->'droppedServices') = 'array'
        THEN ARRAY(SELECT jsonb_array_elements_text(e->'droppedServices')::uuid) END
FROM (SELECT id, event::jsonb AS e FROM outbox_events) j
WHERE o.id = j.id;

ALTER TABLE outbox_events
    DROP COLUMN event,
    ALTER COLUMN kind SET NOT NULL,
    ALTER COLUMN booking_id SET NOT NULL,
    ALTER COLUMN at SET NOT NULL,
    ALTER COLUMN revision SET NOT NULL,
    ALTER COLUMN status SET NOT NULL,
    ALTER COLUMN start_date SET NOT NULL,
    ALTER COLUMN end_date SET NOT NULL,
    ALTER COLUMN resource_id SET NOT NULL;
