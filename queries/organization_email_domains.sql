-- name: EmailDomainsOfOrganization :many
SELECT domain FROM organization_email_domains WHERE organization_id = @organization_id ORDER BY domain;

-- name: EmailDomainOrganization :many
-- Finds the organization an e-mail domain (lower case) belongs to: none or one.
SELECT organization_id FROM organization_email_domains WHERE domain = @domain;

-- name: EmailDomainsDelete :exec
DELETE FROM organization_email_domains WHERE organization_id = @organization_id;

-- name: EmailDomainInsert :exec
-- A domain of another organization violates organization_email_domains_domain_key.
INSERT INTO organization_email_domains (organization_id, domain) VALUES (@organization_id, @domain);
