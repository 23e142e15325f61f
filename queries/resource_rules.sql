-- name: ResourceRuleUpsert :exec
INSERT INTO resource_rules (organization_id, id, name, advance_check_in, expiration_margin, start_time, end_time,
                            maximum_duration, maximum_advance, access_control_type, requires_approval,
                            all_day_bookings, all_day_bookings_check_in_ms)
VALUES (@organization_id, @id, @name, @advance_check_in, @expiration_margin, @start_time, @end_time,
        @maximum_duration, @maximum_advance, @access_control_type, @requires_approval,
        @all_day_bookings, @all_day_bookings_check_in_ms)
ON CONFLICT (organization_id, id) DO UPDATE SET
    name = EXCLUDED.name, advance_check_in = EXCLUDED.advance_check_in, expiration_margin = EXCLUDED.expiration_margin,
    start_time = EXCLUDED.start_time, end_time = EXCLUDED.end_time, maximum_duration = EXCLUDED.maximum_duration,
    maximum_advance = EXCLUDED.maximum_advance, access_control_type = EXCLUDED.access_control_type,
    requires_approval = EXCLUDED.requires_approval, all_day_bookings = EXCLUDED.all_day_bookings,
    all_day_bookings_check_in_ms = EXCLUDED.all_day_bookings_check_in_ms;

-- name: ResourceRulesExport :many
-- Lists resource rules by id for an export: those of the organization, or of any organization when it is
-- NULL; only the one with the id when it is given.
SELECT * FROM resource_rules
WHERE (sqlc.narg(organization_id)::uuid IS NULL OR organization_id = sqlc.narg(organization_id)::uuid)
  AND (sqlc.narg(id)::uuid IS NULL OR id = sqlc.narg(id)::uuid)
ORDER BY id, organization_id;

-- name: ResourceRuleDelete :execrows
DELETE FROM resource_rules WHERE organization_id = @organization_id AND id = @id;
