-- People created at their first sign-in or by a SCIM client get the organization's default user rule and
-- mobile role, as they get its default role. Removing the rule or the role clears the default.
ALTER TABLE organizations ADD COLUMN default_user_rule_id uuid;
ALTER TABLE organizations ADD COLUMN default_mobile_role_id uuid;
ALTER TABLE organizations ADD CONSTRAINT organizations_default_user_rule_fkey
    FOREIGN KEY (id, default_user_rule_id) REFERENCES user_rules (organization_id, id)
    ON DELETE SET NULL (default_user_rule_id);
ALTER TABLE organizations ADD CONSTRAINT organizations_default_mobile_role_fkey
    FOREIGN KEY (id, default_mobile_role_id) REFERENCES mobile_roles (organization_id, id)
    ON DELETE SET NULL (default_mobile_role_id);

-- The names (never the values) of the claims of the organization's latest sign-in, which the identity
-- page shows to help an admin find the claim that lists groups.
ALTER TABLE organizations ADD COLUMN last_sign_in_claims text[] NOT NULL DEFAULT '{}';
