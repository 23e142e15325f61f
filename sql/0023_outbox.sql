-- Every update of a booking raises its revision by one. A calendar invitation's SEQUENCE is the revision,
-- so a calendar that holds an older copy of the booking replaces it with the newer one.
ALTER TABLE bookings ADD COLUMN revision integer NOT NULL DEFAULT 0;

CREATE FUNCTION bookings_next_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.revision := OLD.revision + 1;
    RETURN NEW;
END
$$;

CREATE TRIGGER bookings_revision BEFORE UPDATE ON bookings
    FOR EACH ROW EXECUTE FUNCTION bookings_next_revision();

-- The outbox: the events a change records, written in its transaction (a new booking's in the very
-- statement that inserts it). Package notify moves them into River's job table in batches, deleting them
-- here in the same transaction. The row costs the booking's INSERT as little as it can: no foreign key,
-- no index but the primary key (ids are UUIDv7, so they grow with time and give the order), and the
-- event as JSON text that PostgreSQL stores without parsing it.
CREATE TABLE outbox_events (
    id              uuid        NOT NULL PRIMARY KEY,
    organization_id uuid        NOT NULL,
    recorded_at     timestamptz NOT NULL DEFAULT now(),
    event           text        NOT NULL
);

-- The e-mails the outbox has handed to the mail server, one row per Message-ID. A mail job that finds its
-- Message-ID here was sent already and sends nothing, so a retry never sends a message twice. Rows older
-- than 30 days are deleted by the sweep.
CREATE TABLE mail_sent (
    message_id      text        NOT NULL PRIMARY KEY,
    organization_id uuid        NOT NULL REFERENCES organizations (id),
    event_id        uuid        NOT NULL,
    recipient       text        NOT NULL,
    sent_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_sent_sent_at_idx ON mail_sent (sent_at);
