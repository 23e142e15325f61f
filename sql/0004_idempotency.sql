-- Idempotency keys store the first response to a POST sent with an Idempotency-Key, for 24 hours, so
-- that a retry of the same request gets the same response instead of doing the operation twice. Keys
-- belong to the user who sent them. status is NULL while the first request is still running.
CREATE TABLE idempotency_keys (
    organization_id uuid        NOT NULL,
    user_id         uuid        NOT NULL,
    key             text        NOT NULL,
    request_hash    bytea       NOT NULL,
    status          integer,
    content_type    text        NOT NULL DEFAULT '',
    body            bytea       NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT idempotency_keys_pkey PRIMARY KEY (organization_id, user_id, key),
    CONSTRAINT idempotency_keys_user_fkey FOREIGN KEY (organization_id, user_id)
        REFERENCES users (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
