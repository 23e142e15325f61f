-- Webhooks (Standard Webhooks v1): the endpoints admins register, and what happened to each delivery.
--   * An endpoint asks for some of the booking events (event_types). Its signing secret is kept as given
--     (whsec_ and base64), since signing needs it. After a rotation the previous secret signs too, until
--     previous_secret_until.
--   * An endpoint is disabled by an admin, or by the service when the endpoint answers 410 Gone
--     (disabled_reason 'gone'); a disabled endpoint gets nothing.
--   * webhook_deliveries keeps one row per try: the status, the start of the answer, the body sent (so
--     that an admin can send it again). River drops finished jobs after a day; these rows stay, the last
--     200 of each endpoint.

CREATE TABLE webhook_endpoints (
    organization_id       uuid        NOT NULL,
    id                    uuid        NOT NULL,
    url                   text        NOT NULL,
    description           text        NOT NULL DEFAULT '',
    event_types           text[]      NOT NULL,
    secret                text        NOT NULL,
    previous_secret       text,
    previous_secret_until timestamptz,
    disabled_at           timestamptz,
    disabled_reason       text,
    created_at            timestamptz NOT NULL,
    updated_at            timestamptz NOT NULL,
    CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT webhook_endpoints_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
    CONSTRAINT webhook_endpoints_url_check CHECK (char_length(url) BETWEEN 1 AND 2000),
    CONSTRAINT webhook_endpoints_description_check CHECK (char_length(description) <= 200),
    CONSTRAINT webhook_endpoints_event_types_check CHECK (
        cardinality(event_types) BETWEEN 1 AND 9
        AND event_types <@ ARRAY['booking.created', 'booking.changed', 'booking.cancelled', 'booking.released',
            'booking.expired', 'booking.approved', 'booking.rejected', 'booking.check_in_opened',
            'booking.services_changed']::text[]),
    CONSTRAINT webhook_endpoints_secret_check CHECK (secret LIKE 'whsec\_%'),
    CONSTRAINT webhook_endpoints_previous_check CHECK ((previous_secret IS NULL) = (previous_secret_until IS NULL)),
    CONSTRAINT webhook_endpoints_disabled_check CHECK (
        (disabled_at IS NULL) = (disabled_reason IS NULL) AND (disabled_reason IS NULL OR disabled_reason IN ('admin', 'gone')))
);

CREATE TABLE webhook_deliveries (
    organization_id  uuid        NOT NULL,
    id               uuid        NOT NULL,
    endpoint_id      uuid        NOT NULL,
    event_id         uuid        NOT NULL,
    event_type       text        NOT NULL,
    attempt          integer     NOT NULL,
    -- status is the HTTP status of the answer; NULL when there was none (refused, timed out).
    status           integer,
    outcome          text        NOT NULL,
    error            text        NOT NULL DEFAULT '',
    answer           text        NOT NULL DEFAULT '',
    answer_truncated boolean     NOT NULL DEFAULT false,
    duration_ms      integer     NOT NULL,
    body             bytea       NOT NULL,
    attempted_at     timestamptz NOT NULL,
    CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT webhook_deliveries_endpoint_fkey FOREIGN KEY (organization_id, endpoint_id)
        REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT webhook_deliveries_outcome_check CHECK (outcome IN ('delivered', 'failed', 'gone', 'snoozed')),
    CONSTRAINT webhook_deliveries_status_check CHECK (status IS NULL OR status BETWEEN 100 AND 999),
    CONSTRAINT webhook_deliveries_answer_check CHECK (octet_length(answer) <= 4096),
    CONSTRAINT webhook_deliveries_error_check CHECK (char_length(error) <= 1000),
    CONSTRAINT webhook_deliveries_body_check CHECK (octet_length(body) <= 1048576)
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (organization_id, endpoint_id, attempted_at DESC, id DESC);
