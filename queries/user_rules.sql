-- name: UserRuleUpsert :exec
INSERT INTO user_rules (organization_id, id, name) VALUES (@organization_id, @id, @name)
ON CONFLICT (organization_id, id) DO UPDATE SET name = EXCLUDED.name;
