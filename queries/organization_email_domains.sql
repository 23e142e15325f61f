-- name: EmailDomainsOfOrganization :many
SELECT * FROM organization_email_domains WHERE organization_id = @organization_id ORDER BY domain;

-- name: EmailDomainHolder :many
-- Finds the organization that has verified an e-mail domain (lower case): none or one.
SELECT organization_id FROM organization_email_domains WHERE domain = @domain AND verified_at IS NOT NULL;

-- name: EmailDomainsDeleteOthers :exec
-- Deletes the organization's domains that are not in @keep.
DELETE FROM organization_email_domains
WHERE organization_id = @organization_id AND NOT (domain = ANY (@keep::text[]));

-- name: EmailDomainClaim :exec
-- Claims a domain for the organization, waiting for its proof. A domain it claims already is left as it is.
INSERT INTO organization_email_domains (organization_id, domain, verification_token)
VALUES (@organization_id, @domain, @verification_token)
ON CONFLICT (organization_id, domain) DO NOTHING;

-- name: EmailDomainVerify :execrows
-- Marks the organization's claim of a domain as proved. Another organization's verified claim of the
-- domain violates organization_email_domains_verified_key.
UPDATE organization_email_domains SET verified_at = @now::timestamptz, verified_by = @verified_by::text, checked_at = @now::timestamptz
WHERE organization_id = @organization_id AND domain = @domain AND verified_at IS NULL;

-- name: EmailDomainChecked :exec
-- Notes when the organization's claim of a domain was last looked up in DNS.
UPDATE organization_email_domains SET checked_at = @now::timestamptz
WHERE organization_id = @organization_id AND domain = @domain;

-- name: EmailDomainsUnverified :many
-- Lists up to @max_rows claims that wait for their proof and were not looked up since @checked_before,
-- the oldest lookups first.
SELECT * FROM organization_email_domains
WHERE verified_at IS NULL AND (checked_at IS NULL OR checked_at < @checked_before::timestamptz)
ORDER BY checked_at NULLS FIRST, organization_id, domain
LIMIT @max_rows;
