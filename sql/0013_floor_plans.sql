-- A floor's plan image, kept in the database so that every instance serves the same one. Only the
-- current plan is kept: an upload replaces the row and points floors.image at /plans/{floor}/{hash}.{ext},
-- an address that changes whenever the bytes do, so that browsers may keep an address for a year. hash
-- is the SHA-256 of data, in hex. An SVG is stored as sanitized, never as uploaded.
CREATE TABLE floor_plans (
    organization_id uuid        NOT NULL,
    floor_id        uuid        NOT NULL,
    hash            text        NOT NULL,
    content_type    text        NOT NULL,
    data            bytea       NOT NULL,
    uploaded_at     timestamptz NOT NULL,
    -- Who uploaded it. No foreign key: the audit log keeps who did what, and a plan must not keep its
    -- uploader's row from being removed.
    uploaded_by     uuid        NOT NULL,
    CONSTRAINT floor_plans_pkey PRIMARY KEY (organization_id, floor_id),
    CONSTRAINT floor_plans_floor_fkey FOREIGN KEY (organization_id, floor_id)
        REFERENCES floors (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT floor_plans_hash_check CHECK (hash ~ '^[0-9a-f]{64}$'),
    CONSTRAINT floor_plans_content_type_check CHECK (content_type IN ('image/svg+xml', 'image/png', 'image/jpeg')),
    CONSTRAINT floor_plans_size_check CHECK (octet_length(data) BETWEEN 1 AND 5242880)
);
