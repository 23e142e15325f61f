-- Every change an admin makes (and every change made for one: SCIM, the system) is kept here: who, when,
-- which object, and the object before and after, as JSON in the import format. The log is never edited:
-- a trigger refuses UPDATE, DELETE and TRUNCATE, so only INSERT and SELECT work.
CREATE TABLE admin_audit (
    organization_id uuid        NOT NULL,
    id              bigint      GENERATED ALWAYS AS IDENTITY,
    at              timestamptz NOT NULL DEFAULT now(),
    -- actor_id is NULL for a change nobody signed in made (SCIM provisioning, the system).
    actor_id        uuid,
    actor_name      text        NOT NULL DEFAULT '',
    collection      text        NOT NULL,
    object_id       uuid        NOT NULL,
    action          text        NOT NULL,
    before          jsonb,
    after           jsonb,
    CONSTRAINT admin_audit_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT admin_audit_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
    CONSTRAINT admin_audit_action_check CHECK (action IN
        ('CREATE', 'UPDATE', 'DELETE', 'DEACTIVATE', 'REACTIVATE', 'PLAN', 'REVOKE')),
    CONSTRAINT admin_audit_collection_check CHECK (length(collection) BETWEEN 1 AND 64),
    CONSTRAINT admin_audit_actor_name_check CHECK (length(actor_name) <= 512)
);
-- Browsing newest first, and the history of one object.
CREATE INDEX admin_audit_at_idx ON admin_audit (organization_id, at DESC, id DESC);
CREATE INDEX admin_audit_object_idx ON admin_audit (organization_id, object_id, id DESC);

CREATE FUNCTION admin_audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'admin_audit is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER admin_audit_no_update_delete BEFORE UPDATE OR DELETE ON admin_audit
    FOR EACH ROW EXECUTE FUNCTION admin_audit_refuse_change();
CREATE TRIGGER admin_audit_no_truncate BEFORE TRUNCATE ON admin_audit
    FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_refuse_change();
