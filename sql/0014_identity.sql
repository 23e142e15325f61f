-- People from the identity provider: deactivation, just-in-time accounts, group roles and SCIM.

-- A deactivated person cannot sign in and their bearer tokens are refused; they stay in the table so that
-- their bookings keep their organizer. external_id is the SCIM client's own id for the person.
ALTER TABLE users ADD COLUMN active boolean NOT NULL DEFAULT true;
ALTER TABLE users ADD COLUMN deactivated_at timestamptz;
ALTER TABLE users ADD COLUMN external_id text;
ALTER TABLE users ADD CONSTRAINT users_deactivated_check CHECK (active = (deactivated_at IS NULL));
CREATE INDEX users_external_id_idx ON users (organization_id, external_id) WHERE external_id IS NOT NULL;

-- How people of an organization sign in: the role of a person created at their first sign-in, and the
-- ID token claim that lists their groups ('' when groups give no roles).
ALTER TABLE organizations ADD COLUMN default_role text NOT NULL DEFAULT 'EMPLOYEE';
ALTER TABLE organizations ADD COLUMN groups_claim text NOT NULL DEFAULT '';
ALTER TABLE organizations ADD CONSTRAINT organizations_default_role_check
    CHECK (default_role IN ('EMPLOYEE', 'RECEPTIONIST', 'ADMIN'));

-- The e-mail domains of an organization's people. A person unknown to the service whose verified e-mail
-- is in one of them gets an account at their first sign-in. A domain belongs to one organization at most.
CREATE TABLE organization_email_domains (
    organization_id uuid NOT NULL,
    domain          text NOT NULL,
    CONSTRAINT organization_email_domains_pkey PRIMARY KEY (organization_id, domain),
    CONSTRAINT organization_email_domains_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
    CONSTRAINT organization_email_domains_domain_key UNIQUE (domain),
    CONSTRAINT organization_email_domains_domain_check CHECK (domain = lower(domain) AND domain <> '')
);

-- The role that members of an identity provider group get at every sign-in.
CREATE TABLE organization_group_roles (
    organization_id uuid NOT NULL,
    group_name      text NOT NULL,
    role            text NOT NULL,
    CONSTRAINT organization_group_roles_pkey PRIMARY KEY (organization_id, group_name),
    CONSTRAINT organization_group_roles_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
    CONSTRAINT organization_group_roles_role_check CHECK (role IN ('EMPLOYEE', 'RECEPTIONIST', 'ADMIN'))
);

-- Bearer tokens of SCIM clients (Okta, Entra), one organization each. Only the SHA-256 of the secret is
-- kept; the secret is shown once, when the token is created.
CREATE TABLE scim_tokens (
    organization_id uuid        NOT NULL,
    id              uuid        NOT NULL,
    name            text        NOT NULL,
    secret_sha256   bytea       NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    created_by      uuid        NOT NULL,
    revoked_at      timestamptz,
    last_used_at    timestamptz,
    CONSTRAINT scim_tokens_pkey PRIMARY KEY (organization_id, id),
    CONSTRAINT scim_tokens_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id),
    CONSTRAINT scim_tokens_created_by_fkey FOREIGN KEY (organization_id, created_by) REFERENCES users (organization_id, id),
    CONSTRAINT scim_tokens_secret_key UNIQUE (secret_sha256),
    CONSTRAINT scim_tokens_secret_check CHECK (length(secret_sha256) = 32)
);
