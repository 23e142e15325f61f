-- SCIM 2.0 as Okta and Entra ID use it.
--   * A person's SCIM resource carries when it was created and last modified.
--   * The userName a SCIM client sent is kept as it was sent (Entra ID sends names that are not e-mail
--     addresses); a person created otherwise has none, and their address stands for it.
--   * A person a SCIM client deleted stays, deactivated, for the history of their bookings, but SCIM no
--     longer finds them; a later POST of their address brings them back.
--   * Groups, with their members, feed the same group-to-role mapping as the groups claim at sign-in.
--   * An organization may let SCIM create people whose addresses are outside its verified domains.

ALTER TABLE users ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE users ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE users ADD COLUMN scim_user_name text;
ALTER TABLE users ADD COLUMN scim_deleted_at timestamptz;
ALTER TABLE users ADD CONSTRAINT users_scim_deleted_check CHECK (scim_deleted_at IS NULL OR NOT active);
CREATE UNIQUE INDEX users_scim_user_name_key ON users (organization_id, lower(scim_user_name))
    WHERE scim_user_name IS NOT NULL AND scim_deleted_at IS NULL;
-- The filter userName eq "…" reads the name sent, or else the address.
CREATE INDEX users_scim_name_idx ON users (organization_id, lower(coalesce(scim_user_name, email)));

-- updated_at follows every change of a row, whichever query makes it.
CREATE FUNCTION touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.updated_at := now();
    RETURN NEW;
END;
$$;
CREATE TRIGGER users_touch_updated_at BEFORE UPDATE ON users
    FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION touch_updated_at();

CREATE TABLE scim_groups (
    organization_id uuid        NOT NULL,
    id              uuid        NOT NULL,
    display_name    text        NOT NULL,
    external_id     text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT scim_groups_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT scim_groups_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id)
);
CREATE UNIQUE INDEX scim_groups_display_name_key ON scim_groups (organization_id, lower(display_name));
CREATE TRIGGER scim_groups_touch_updated_at BEFORE UPDATE ON scim_groups
    FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION touch_updated_at();

CREATE TABLE scim_group_members (
    organization_id uuid NOT NULL,
    group_id        uuid NOT NULL,
    user_id         uuid NOT NULL,
    CONSTRAINT scim_group_members_pkey PRIMARY KEY (organization_id, group_id, user_id),
    CONSTRAINT scim_group_members_group_fkey FOREIGN KEY (organization_id, group_id)
        REFERENCES scim_groups (organization_id, id) ON DELETE CASCADE,
    CONSTRAINT scim_group_members_user_fkey FOREIGN KEY (organization_id, user_id)
        REFERENCES users (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX scim_group_members_user_idx ON scim_group_members (organization_id, user_id);

ALTER TABLE organizations ADD COLUMN scim_any_domain boolean NOT NULL DEFAULT false;
