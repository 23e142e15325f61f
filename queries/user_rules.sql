-- name: UserRuleUpsert :exec
INSERT INTO user_rules (organization_id, id, name) VALUES (@organization_id, @id, @name)
ON CONFLICT (organization_id, id) DO UPDATE SET name = EXCLUDED.name;

-- name: UserRulesExport :many
-- Lists user rules by id for an export: those of the organization, or of any organization when it is
-- NULL; only the one with the id when it is given.
SELECT * FROM user_rules
WHERE (sqlc.narg(organization_id)::uuid IS NULL OR organization_id = sqlc.narg(organization_id)::uuid)
  AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id)::uuid)
ORDER BY id, organization_id;
