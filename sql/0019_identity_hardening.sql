-- Which organization a sign-in can land in. Before this migration, people were matched to an account
-- in any organization: by the identity provider's subject, then by verified e-mail. One organization's
-- admin could so create a person with another company's address, or copy another person's subject, and
-- capture or lock out that person. From now on:
--   * a subject names one account at most, in all organizations;
--   * an e-mail address matches only in the organization that holds its domain, and only once that
--     organization has proved the domain is its own (a DNS record, or the service's operator);
--   * an e-mail address is unique in an organization whatever its case;
--   * an account whose e-mail address a SCIM client changed is bound only by its subject.
-- Settled duplicates and bindings are written to the audit log (actions BIND and VERIFY are new).

ALTER TABLE admin_audit DROP CONSTRAINT admin_audit_action_check;
ALTER TABLE admin_audit ADD CONSTRAINT admin_audit_action_check CHECK (action IN
    ('CREATE', 'UPDATE', 'DELETE', 'DEACTIVATE', 'REACTIVATE', 'PLAN', 'REVOKE', 'BIND', 'VERIFY'));

-- A subject shared by several accounts cannot say which of them signs in, so none keeps it: each binds
-- again at its next sign-in, by verified e-mail in the organization of its domain.
CREATE TEMPORARY TABLE shared_subjects ON COMMIT DROP AS
SELECT organization_id, id, oidc_subject FROM users
WHERE oidc_subject IN (SELECT oidc_subject FROM users WHERE oidc_subject IS NOT NULL
                       GROUP BY oidc_subject HAVING count(*) > 1);

INSERT INTO admin_audit (organization_id, actor_name, collection, object_id, action, before, after)
SELECT organization_id, 'migration 0019: subject shared with another account', 'users', id, 'UPDATE',
       jsonb_build_object('oidcSubject', oidc_subject), jsonb_build_object('oidcSubject', NULL)
FROM shared_subjects;

UPDATE users u SET oidc_subject = NULL
FROM shared_subjects s WHERE u.organization_id = s.organization_id AND u.id = s.id;

DROP INDEX users_oidc_subject_idx;
CREATE UNIQUE INDEX users_oidc_subject_key ON users (oidc_subject);

-- Two accounts of one organization whose addresses differ only in case: the one bound to a subject (or
-- else the active one, or else the one with the smallest id) keeps the address; the others get
-- "name+duplicate-<first 8 characters of their id>@domain", which nobody signs in with.
CREATE TEMPORARY TABLE duplicate_emails ON COMMIT DROP AS
SELECT organization_id, id, email,
       split_part(email, '@', 1) || '+duplicate-' || left(id::text, 8) || '@' || split_part(email, '@', 2) AS new_email
FROM (SELECT organization_id, id, email,
             row_number() OVER (PARTITION BY organization_id, lower(email)
                                ORDER BY oidc_subject IS NULL, NOT active, id) AS n
      FROM users) ranked
WHERE n > 1;

INSERT INTO admin_audit (organization_id, actor_name, collection, object_id, action, before, after)
SELECT organization_id, 'migration 0019: e-mail address of another account in other case', 'users', id, 'UPDATE',
       jsonb_build_object('email', email), jsonb_build_object('email', new_email)
FROM duplicate_emails;

-- A person whose address is bound only by subject from now on (see below) cannot be reached by e-mail.
ALTER TABLE users ADD COLUMN binds_by_email boolean NOT NULL DEFAULT true;

UPDATE users u SET email = d.new_email, binds_by_email = false
FROM duplicate_emails d WHERE u.organization_id = d.organization_id AND u.id = d.id;

ALTER TABLE users DROP CONSTRAINT users_email_key;
DROP INDEX users_email_idx;
CREATE UNIQUE INDEX users_email_key ON users (organization_id, lower(email));

-- An organization claims an e-mail domain, then proves it: with a DNS TXT record
-- "booking-domain-verification=<verification_token>" on the domain, or through the service's operator.
-- Several organizations may claim one domain; only one can have it verified, and only a verified domain
-- gives accounts at first sign-in and matches people by e-mail. The domains claimed before this migration
-- wait for their proof like new ones.
ALTER TABLE organization_email_domains DROP CONSTRAINT organization_email_domains_domain_key;
ALTER TABLE organization_email_domains
    ADD COLUMN verification_token text        NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', ''),
    ADD COLUMN created_at         timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN verified_at        timestamptz,
    ADD COLUMN verified_by        text,
    ADD COLUMN checked_at         timestamptz,
    ADD CONSTRAINT organization_email_domains_verified_check
        CHECK ((verified_at IS NULL) = (verified_by IS NULL) AND verified_by IN ('DNS', 'OPERATOR')),
    ADD CONSTRAINT organization_email_domains_token_check CHECK (length(verification_token) BETWEEN 16 AND 64);
CREATE UNIQUE INDEX organization_email_domains_verified_key ON organization_email_domains (domain)
    WHERE verified_at IS NOT NULL;
CREATE INDEX organization_email_domains_domain_idx ON organization_email_domains (domain);
